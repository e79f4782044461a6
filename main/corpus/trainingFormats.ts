/**
 * Training-ready layouts of the corpus, written beside records.jsonl (which every export keeps: it is what
 * `recto import-corpus` and the next incremental export read):
 * - `chat`: chat.jsonl, one page a line, `{"messages":[{"role":"user","content":"<image>" + prompt},
 *   {"role":"assistant","content": corrected Markdown}],"images":["images/….png"]}` — what ms-swift and LLaMA-Factory
 *   read for vision-language fine-tuning;
 * - `olmocr`: per page `images/<id>.md` beside `images/<id>.png`, YAML front matter as olmOCR's trainer reads it
 *   (primary_language, is_rotation_valid, rotation_correction, is_table, is_diagram), then the corrected text with
 *   olmOCR's math delimiters `\( … \)` / `\[ … \]`, literal dollars `\$` and HTML tables (app/corpus/olmocrText.ts);
 * - `pairs`: pairs.jsonl, the engine's output against the correction with the reward's terms, one line per corrected
 *   page (pages whose text nobody changed carry no preference), for preference or RL data.
 */
import { reward } from '../../app/checks/reward.js';
import { guessLanguage } from '../../app/corpus/languageGuess.js';
import { olmocrNaturalText } from '../../app/corpus/olmocrText.js';
import type { CorpusRecord } from './corpusRecord.js';
import { escapePlaceholders, escapeSpecialTokens } from './specialTokens.js';
import { promptAndAnswer } from './grounding.js';
import { uniformJsonl } from './uniformJsonl.js';

export const trainingFormats = ['records', 'chat', 'olmocr', 'pairs'] as const;
export type TrainingFormat = (typeof trainingFormats)[number];

/**
 * DeepSeek-OCR's document prompt, which jina-ocr-v1 keeps: the text after the image placeholder. Used where the
 * engine that read a page recorded no prompt of its own (the bundled engine has none).
 */
export const defaultDocumentPrompt = '<|grounding|>Convert the document to markdown.';

/** The prompt of the engine that read the page, without its image placeholder. */
export function promptOf(record: CorpusRecord): string {
  const recorded = record.engine.settings.prompt;
  const prompt = typeof recorded === 'string' && recorded.trim() !== '' ? recorded : defaultDocumentPrompt;
  // Any other placeholder in a recorded prompt (a corpus is someone's file) would be a second image tag.
  return escapePlaceholders(prompt.replace(/^\s*<image>\s*/, ''));
}

/** A page is "mainly a table" / "mainly a figure" for olmOCR when that kind covers this share of its characters. */
const mainlyShare = 0.5;

function shareOfKind(record: CorpusRecord, kinds: readonly string[]): number {
  const length = record.engine_markdown.length;
  if (length === 0) return 0;
  let covered = 0;
  for (const element of record.elements) if (kinds.includes(element.kind)) covered += Math.max(0, element.span[1] - element.span[0]);
  return covered / length;
}

function olmocrPage(record: CorpusRecord, documentLanguage: string | null): string {
  // olmOCR's delimiters and escapes (olmocrText.ts): its trainer drops pages written with `$…$`.
  const text = escapeSpecialTokens(olmocrNaturalText(record.corrected_markdown));
  // A page too short or too mixed to tell (an invoice's totals page) takes its document's language.
  const language = guessLanguage(text) ?? documentLanguage;
  const isDiagram = record.elements.some((e) => e.kind === 'figure') && shareOfKind(record, ['figure', 'caption']) >= mainlyShare;
  return [
    '---',
    `primary_language: ${language ?? 'null'}`,
    // Pages are rendered upright by Recto (a rotated scan is straightened before reading), so no correction is due.
    'is_rotation_valid: true',
    'rotation_correction: 0',
    `is_table: ${shareOfKind(record, ['table']) >= mainlyShare}`,
    `is_diagram: ${isDiagram}`,
    '---',
    text,
  ].join('\n');
}

/** Each document's language, guessed from the text of all its exported pages together. */
function documentLanguages(records: readonly CorpusRecord[]): Map<string, string | null> {
  const texts = new Map<string, string[]>();
  for (const record of records) {
    const list = texts.get(record.source.document_id) ?? [];
    list.push(record.corrected_markdown);
    texts.set(record.source.document_id, list);
  }
  return new Map([...texts].map(([document, pages]) => [document, guessLanguage(pages.join('\n\n'))]));
}

export interface FormatFile {
  path: string;
  content: string;
}

/** The files a format adds for these records (sorted by id); refuses formats that need images when there are none. */
export function trainingFormatFiles(format: TrainingFormat, records: readonly CorpusRecord[]): FormatFile[] {
  switch (format) {
    case 'records':
      return [];
    case 'chat':
      return [
        {
          path: 'chat.jsonl',
          // One schema per file (uniformJsonl.ts), like records.jsonl.
          content: uniformJsonl(
            records
            .filter((record) => record.image !== null)
            .map((record) => {
              // Under a grounding prompt the answer carries the element boxes (grounding.ts).
              const pair = promptAndAnswer(record, promptOf(record));
              return {
                id: record.id,
                messages: [
                  { role: 'user', content: `<image>${pair.prompt}` },
                  { role: 'assistant', content: pair.answer },
                ],
                images: [record.image],
              };
            }),
          ).text,
        },
      ];
    case 'olmocr': {
      const languages = documentLanguages(records);
      return records
        .filter((record) => record.image !== null)
        .map((record) => ({ path: record.image!.replace(/\.png$/, '.md'), content: olmocrPage(record, languages.get(record.source.document_id) ?? null) }));
    }
    case 'pairs':
      return [
        {
          path: 'pairs.jsonl',
          content: uniformJsonl(
            records
            .filter((record) => record.corrected && record.corrected_markdown !== record.engine_markdown)
            .map((record) => {
              const scored = reward(record.corrected_markdown, record.engine_markdown);
              // Both answers grounded (or neither) under the one prompt, so they differ only in what was corrected.
              const chosen = promptAndAnswer(record, promptOf(record), 'corrected');
              const rejected = promptAndAnswer(record, promptOf(record), 'engine');
              return {
                id: record.id,
                image: record.image,
                prompt: chosen.prompt,
                chosen: chosen.answer,
                rejected: rejected.answer,
                reward: { score: scored.score, terms: scored.terms, raw: scored.raw },
                engine: { name: record.engine.name, version: record.engine.version, pack_sha256: record.engine.pack_sha256 },
              };
            }),
          ).text,
        },
      ];
  }
}

/** Why a format cannot be written with these options, or null. */
export function formatRefusal(format: TrainingFormat, images: 'png' | 'none'): string | null {
  if ((format === 'chat' || format === 'olmocr') && images === 'none') {
    return `--format ${format} pairs each page with its image: export with --images png`;
  }
  return null;
}

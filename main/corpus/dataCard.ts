/**
 * The corpus's README.md: a Hugging Face style data card (YAML front matter naming the JSONL files as configs)
 * with what the folder holds, computed from the records only — no export time, so the same project gives the same card.
 */
import type { CorpusRecord } from './corpusRecord.js';
import { promptOf, type TrainingFormat } from './trainingFormats.js';
import { cardFrontMatter } from './hubFiles.js';

export interface DataCardInput {
  projectName: string;
  records: readonly CorpusRecord[];
  tests: number;
  testsByType: Record<string, number>;
  filters: { status: string | null; since: string | null; images: 'png' | 'none' };
  skipped: number;
  /** The training-ready layout written beside records.jsonl. */
  format?: TrainingFormat;
  /** YAML `configs` and `dataset_info` (hubFiles.ts). */
  frontMatter?: string[];
}

const fixed = (value: number, digits = 3): string => value.toFixed(digits);

export function renderDataCard(input: DataCardInput): string {
  const { records } = input;
  const corrected = records.filter((r) => r.corrected).length;
  const engines = [...new Set(records.map((r) => `${markdownText(r.engine.name)} ${markdownText(r.engine.version)}${r.engine.pack_sha256 ? ` (pack ${r.engine.pack_sha256.slice(0, 12)})` : ''}`))].sort();
  const reviewers = new Set(records.map((r) => r.reviewer).filter((r): r is string => r !== null)).size;
  const sources = new Set(records.map((r) => r.source.sha256)).size;
  // Over the corrected pages: the others have no score (nothing to compare the engine's text with).
  const scored = records.map((r) => r.checks.score).filter((score): score is number => score !== null);
  const meanScore = scored.length > 0 ? scored.reduce((sum, score) => sum + score, 0) / scored.length : null;
  const kinds = new Map<string, { pages: number; changed: number }>();
  for (const record of records) {
    for (const k of record.changed_by_kind) {
      const entry = kinds.get(k.kind) ?? { pages: 0, changed: 0 };
      entry.pages += 1;
      entry.changed += k.changed_chars;
      kinds.set(k.kind, entry);
    }
  }
  const statuses = new Map<string, number>();
  for (const r of records) statuses.set(r.review_status, (statuses.get(r.review_status) ?? 0) + 1);
  const lines = [
    '---',
    ...(input.frontMatter ?? cardFrontMatter({ images: false, tests: false })),
    'task_categories:',
    '- image-to-text',
    'tags:',
    '- ocr',
    '- document-parsing',
    '- recto',
    '---',
    '',
    `# ${markdownText(input.projectName)} — corrected pages`,
    '',
    'Pages read by an OCR engine and corrected by analysts in Recto. Each record pairs the page image with the',
    "engine's Markdown and the analyst's corrected Markdown (tables as HTML, formulas as LaTeX), the layout elements",
    'with their boxes, deterministic check scores of the engine output against the correction, and provenance.',
    '',
    '## Contents',
    '',
    `- records: ${records.length} pages from ${sources} source file(s); ${corrected} corrected by ${reviewers} reviewer(s)`,
    `- review status: ${[...statuses.entries()].sort().map(([s, n]) => `${s} ${n}`).join(', ') || 'none'}`,
    `- engines: ${engines.join('; ') || 'none'}`,
    `- mean curation score of the engine output over the corrected pages: ${meanScore === null ? 'none corrected' : fixed(meanScore)}`,
    `- olmOCR-Bench tests derived from the corrections: ${input.tests} (${Object.entries(input.testsByType).sort().map(([t, n]) => `${t} ${n}`).join(', ') || 'none'})`,
    `- filters: status ${input.filters.status ?? 'any'}, since ${input.filters.since ?? 'any time'}, images ${input.filters.images}`,
    `- pages left out because they could not be exported: ${input.skipped} (listed in manifest.json under "skipped")`,
    '',
    '## Corrections by element kind',
    '',
    '| kind | pages changed | characters changed |',
    '|---|---|---|',
    ...[...kinds.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([kind, k]) => `| ${kind} | ${k.pages} | ${k.changed} |`),
    '',
    '## Files',
    '',
    '- `records.jsonl` — one page a line: `image` (path under `images/`, null when exported without images) and',
    '  `image_sha256`; `engine_markdown`; `corrected_markdown`; `elements` (kind, `box` [x1, y1, x2, y2] in pixels of a',
    '  page of size `element_page`, `span` [start, end) into `engine_markdown`); `checks` (curation scores in [0, 1], 1 =',
    '  the engine already matched the correction; null where a check does not apply); `changed_by_kind`; `source` and',
    '  `engine` (provenance: source file SHA-256, page, engine, model pack SHA-256); `reviewer`, `revised_at` and every',
    '  `revisions` entry. The engine\'s `settings`, `stats` and `fields` (different keys per engine) are JSON text, so every',
    '  line has the same columns; the `dataset_info` above declares every column\'s type (format version 3).',
    '- `tests.jsonl` — olmOCR-Bench unit tests (present, absent, order, table, math) derived from the corrections: each',
    '  passes on the corrected Markdown and fails on the engine output. `pdf` names the page\'s one-page PDF in `pdfs/`,',
    '  `page` is 1 (olmOCR-Bench: `python -m olmocr.bench.benchmark --dir EXPORT/tests.jsonl`).',
    '- `fields.jsonl` — invoice fields, one document a line: `document_id`, `invoice_number`, `issue_date`, `due_date`',
    '  (ISO), `seller`, `buyer`, `currency`, `line_total`, `allowances`, `charges`, `subtotal`, `tax`, `total`, `prepaid`,',
    '  `amount_due` (null where not printed), `lines` (description, quantity, unit_price, amount), `tax_breakdown`',
    '  (rate in percent, base, amount per VAT rate; empty where none is printed),',
    "  with the analysts' field corrections applied. Per page, `records.jsonl` has them as `fields`",
    "  (corrected) and `fields_engine` (as read), null on pages that are not invoice pages, and `field_revisions`: every",
    '  field correction of the document (field, old and new value as JSON text, author, time, parent, undo);',
    '  `review_events`: every review status change of the page (status, exceptions approved over, reason, reviewer, time).',
    '- `images/` — page images (PNG) as the engine saw them, with `metadata.jsonl` for `imagefolder` (the `pages` config',
    '  reads it as JSON: `datasets` builds every config of a card with one builder).',
    '- `pdfs/` — each page as a one-page PDF (the source PDF\'s own page, else the image).',
    '- `manifest.json` — SHA-256 and size of every file.',
    '',
    '## Loading',
    '',
    '```python',
    'from datasets import load_dataset',
    'pages = load_dataset("EXPORT_DIR", split="train")  # the declared features, not guessed ones',
    'tests = load_dataset("EXPORT_DIR", "tests", split="test")',
    'pages = load_dataset("EXPORT_DIR", "pages", split="train")  # file_name (under images/), id, texts',
    'images = load_dataset("imagefolder", data_dir="EXPORT_DIR/images", split="train")  # an Image column',
    '```',
    '',
    ...formatSection(input.format ?? 'records', records),
    'The curation score multiplies graded checks (text edit distance, structure, TEDS of tables, formulas,',
    'repetition) with floors, in the manner of Jina-OCR-v1\'s reward; it orders pages for review and is not a benchmark.',
    '',
  ];
  return lines.join('\n');
}

/** Which training layout the folder carries, with which prompt, and how to load it. */
function formatSection(format: TrainingFormat, records: readonly CorpusRecord[]): string[] {
  const prompts = [...new Set(records.map(promptOf))].sort();
  const prompt = prompts.length === 0 ? [] : ['', `Prompt${prompts.length > 1 ? 's' : ''} (the reading engine\'s own, after the \`<image>\` placeholder): ${prompts.map((p) => `\`${p.replace(/[`\r\n]/g, ' ')}\``).join(', ')}`];
  switch (format) {
    case 'records':
      return ['## Training format', '', 'records (records.jsonl only; export with `--format chat`, `olmocr` or `pairs` for a training layout).', ''];
    case 'chat':
      return [
        '## Training format: chat',
        '',
        '`chat.jsonl` — one page a line: `messages` (a `user` turn `<image>` + the prompt, an `assistant` turn with the',
        'corrected Markdown) and `images` (the page image under `images/`), the layout ms-swift and LLaMA-Factory read',
        '(LLaMA-Factory: a dataset entry with `"formatting": "sharegpt"`, `"columns": {"messages": "messages", "images":',
        '"images"}`, `"tags": {"role_tag": "role", "content_tag": "content", "user_tag": "user", "assistant_tag": "assistant"}`;',
        'ms-swift: `--dataset chat.jsonl`).',
        ...prompt,
        '',
      ];
    case 'olmocr':
      return [
        '## Training format: olmocr',
        '',
        'Per page, `images/<id>.md` beside `images/<id>.png`: YAML front matter as olmOCR\'s trainer reads it',
        '(`primary_language` — null when the text does not show one — `is_rotation_valid`, `rotation_correction`,',
        '`is_table`, `is_diagram`), then the corrected text. Point olmOCR\'s training data at the `images/` folder.',
        '',
      ];
    case 'pairs':
      return [
        '## Training format: pairs',
        '',
        '`pairs.jsonl` — one corrected page a line: `chosen` (the correction), `rejected` (the engine\'s output), `prompt`,',
        '`image`, and `reward` (the combined check score with each term after and before its floor), for preference',
        '(DPO-style `chosen`/`rejected`) or reward-weighted training. Pages nobody changed are left out.',
        '```python',
        'pairs = load_dataset("json", data_files="pairs.jsonl", split="train")',
        '```',
        ...prompt,
        '',
      ];
  }
}

/**
 * Names from the project or an imported corpus as plain text in Markdown: every character Markdown or HTML gives a
 * meaning to is escaped (no links, no `<script>`, no headings), and line breaks become spaces.
 */
export function markdownText(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').replace(/[\\`*_{}[\]()#+!|<>~&"'=:-]/g, (char) => `\\${char}`);
}

/**
 * The training answer that goes with a prompt. DeepSeek-OCR's grounding prompt (`<|grounding|>Convert the document to
 * markdown.`) asks for the Markdown with a `<|ref|>label<|/ref|><|det|>[[x1, y1, x2, y2]]<|/det|>` header before
 * each layout element, boxes on a 0–999 grid of the page (app/grounding/groundingParser.ts reads that form). A
 * training pair that puts that prompt before an answer without the tags teaches the model to drop its boxes, so:
 * - under a grounding prompt, the answer carries the tags, rebuilt from the record's element boxes — placed in the
 *   corrected text at the element starts, mapped from the engine's Markdown through a character diff;
 * - a page without element boxes (an engine that gives none) cannot be answered that way: it gets the same prompt
 *   without `<|grounding|>`, DeepSeek-OCR's plain form, and its text without tags.
 */
import { diffChars } from 'diff';
import { GROUNDING_SCALE, REF_OPEN, REF_CLOSE, DET_OPEN, DET_CLOSE } from '../../app/grounding/groundingParser.js';
import type { ElementKind } from '../../app/model/extraction.js';
import type { CorpusRecord } from './corpusRecord.js';
import { escapeSpecialTokens } from './specialTokens.js';

export const GROUNDING_TAG = '<|grounding|>';

/** The label DeepSeek-OCR writes for each element kind (one the parser maps back to the same kind). */
const LABEL_OF_KIND: Record<ElementKind, string> = {
  title: 'title',
  heading: 'sub_title',
  text: 'text',
  list: 'list',
  table: 'table',
  formula: 'equation',
  figure: 'image',
  caption: 'image_caption',
  header: 'header',
  footer: 'footer',
  'page-number': 'page_number',
  footnote: 'footnote',
  other: 'other',
};

export function isGroundingPrompt(prompt: string): boolean {
  return prompt.includes(GROUNDING_TAG);
}

/** The prompt without its grounding request (DeepSeek-OCR's plain document prompt). */
export function plainPrompt(prompt: string): string {
  return prompt.replace(GROUNDING_TAG, '').trim();
}

/** A box in page pixels on the 0–999 grid of a page of this size (as the model writes it). */
export function toGrid(box: readonly number[], page: { width: number; height: number }): number[] {
  const scale = (value: number, size: number) => Math.min(GROUNDING_SCALE, Math.max(0, Math.round((value / size) * GROUNDING_SCALE)));
  return [scale(box[0]!, page.width), scale(box[1]!, page.height), scale(box[2]!, page.width), scale(box[3]!, page.height)];
}

/**
 * Where each position of `from` lands in `to`: an offset in an unchanged stretch moves with it; one inside a changed
 * stretch goes to where the replacement starts.
 */
function offsetMap(from: string, to: string): (offset: number) => number {
  if (from === to) return (offset) => offset;
  const anchors: [number, number, boolean][] = []; // [from offset, to offset, unchanged stretch]
  let a = 0;
  let b = 0;
  for (const part of diffChars(from, to)) {
    if (part.added) b += part.value.length;
    else if (part.removed) {
      anchors.push([a, b, false]);
      a += part.value.length;
    } else {
      anchors.push([a, b, true]);
      a += part.value.length;
      b += part.value.length;
    }
  }
  anchors.push([a, b, false]);
  return (offset) => {
    let low = 0;
    let high = anchors.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (anchors[mid]![0] <= offset) low = mid;
      else high = mid - 1;
    }
    const [start, target, unchanged] = anchors[low]!;
    return unchanged ? target + (offset - start) : target;
  };
}

/**
 * The corrected text with a grounding header before each element, or null when the record has no element boxes.
 * Elements that start inside an earlier element (table cells, nested blocks) are left out: an element's content runs
 * up to the next header, so only a sequence of non-nested elements can be written.
 */
export function groundedText(record: Pick<CorpusRecord, 'elements' | 'element_page' | 'engine_markdown' | 'corrected_markdown'>): string | null {
  if (record.elements.length === 0 || record.element_page.width <= 0 || record.element_page.height <= 0) return null;
  const text = record.corrected_markdown;
  const map = offsetMap(record.engine_markdown, text);
  const ordered = [...record.elements].sort((x, y) => x.span[0] - y.span[0] || y.span[1] - x.span[1]);
  const headers: { at: number; tag: string }[] = [];
  let coveredUntil = -1;
  for (const element of ordered) {
    if (element.span[0] < coveredUntil) continue;
    coveredUntil = Math.max(element.span[1], element.span[0] + 1);
    const at = map(element.span[0]);
    if (headers.length > 0 && headers[headers.length - 1]!.at === at) continue; // its text was deleted: nothing to ground
    const box = toGrid(element.box, record.element_page);
    headers.push({ at, tag: `${REF_OPEN}${LABEL_OF_KIND[element.kind]}${REF_CLOSE}${DET_OPEN}[[${box.join(', ')}]]${DET_CLOSE}\n` });
  }
  let out = '';
  let cursor = 0;
  for (const { at, tag } of headers) {
    // The page's own text escaped (specialTokens.ts); the headers written here are the only tags left.
    out += escapeSpecialTokens(text.slice(cursor, at)) + tag;
    cursor = at;
  }
  return out + escapeSpecialTokens(text.slice(cursor));
}

/** The prompt and answer of a training pair for this record: grounded under a grounding prompt where boxes exist. */
export function promptAndAnswer(record: CorpusRecord, prompt: string, answer: 'corrected' | 'engine' = 'corrected'): { prompt: string; answer: string } {
  const text = answer === 'corrected' ? record.corrected_markdown : record.engine_markdown;
  if (!isGroundingPrompt(prompt)) return { prompt, answer: escapeSpecialTokens(text) };
  const grounded = groundedText({ ...record, corrected_markdown: text });
  return grounded === null ? { prompt: plainPrompt(prompt), answer: escapeSpecialTokens(text) } : { prompt, answer: grounded };
}

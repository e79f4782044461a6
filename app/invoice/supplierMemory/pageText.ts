/**
 * A page as supplier memory sees it: its lines and segments (the extractor's layout), each segment's text normalised
 * into anchor form, the page's fixed-text fingerprint and its printed identifiers.
 */
import type { Word } from '../../model/extraction.js';
import { splitLabelRuns } from '../labelHits.js';
import { wordsToLines, type TextLine } from '../layout.js';
import { MAX_FINGERPRINT } from './lessonSchema.js';
import { supplierIdentifiers } from './partyIdentifiers.js';
import { compactText } from './textForms.js';

/** A line with fewer letters than this is no fixed text (a lone amount, a date, a code). */
const MIN_FINGERPRINT_LETTERS = 3;
const MIN_DIGIT_RUN = 10;
/** Longer runs of digits are no identifier (a barcode's digits, two numbers read as one). */
const MAX_DIGIT_RUN = 18;

export interface MemoryPage {
  lines: TextLine[];
  /** Each segment's text in anchor form, by line and segment (computed once: every hint looks them up). */
  forms: string[][];
  /** Height of the page(s) the words span, for anchors' relative heights. */
  height: number;
  top: number;
  /** The page's text, letters and digits only, lowercase: where a carried name is looked for. */
  compact: string;
  fingerprint: Set<number>;
  /** Identifiers printed on the page outside any buyer block (compacted, every kind): who may have sent it. */
  ids: string[];
  /** Runs of ten digits or more printed anywhere (spaces and dashes inside dropped, and each group alone): an identifier whose label OCR lost. */
  digitRuns: string[];
}

/** Anchor form of a text: lowercase, digits masked, punctuation and runs of spaces folded, trailing colon cut. */
export function anchorForm(text: string): string {
  return text
    .toLowerCase()
    .replace(/\d+/g, '#')
    .replace(/[^\p{L}#%€$£/.&-]+/gu, ' ')
    .replace(/[\s.:]+$/u, '')
    .trim();
}

export { compactText } from './textForms.js';

/** An identifier as compared: no spaces, dots, slashes or dashes, upper case. */
export { compactId } from '../identifiers.js';

/** FNV-1a, 32 bits: a stable small hash of a fixed line (the fingerprint keeps hashes, never the page's text). */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

export function memoryPage(words: readonly Word[]): MemoryPage {
  const lines = splitLabelRuns(wordsToLines([...words]));
  const top = words.length ? Math.min(...words.map((w) => w.box[1])) : 0;
  const bottom = words.length ? Math.max(...words.map((w) => w.box[3])) : 1;
  const fingerprint = new Set<number>();
  const forms = lines.map((line) => line.segments.map((segment) => anchorForm(segment.text)));
  for (const line of lines) {
    const form = anchorForm(line.text);
    if ((form.match(/\p{L}/gu)?.length ?? 0) >= MIN_FINGERPRINT_LETTERS && fingerprint.size < MAX_FINGERPRINT) fingerprint.add(hash32(form));
  }
  const text = lines.map((l) => l.text).join('\n');
  const ids = supplierIdentifiers(lines);
  // Whole runs ("03-8768 6092") and each long group alone: a letter read as a digit may join a number to its label.
  const runs = (text.match(/\d(?:[ -]?\d){9,}/g) ?? []).flatMap((run) => [run, ...run.split(/[ -]/)]).map((run) => run.replace(/\D/g, ''));
  const digitRuns = [...new Set(runs.filter((run) => run.length >= MIN_DIGIT_RUN && run.length <= MAX_DIGIT_RUN))];
  return {
    lines,
    forms,
    height: Math.max(1, bottom - top),
    top,
    compact: compactText(text),
    fingerprint,
    ids: [...ids.vat, ...ids.iban, ...ids.tax, ...ids.gln, ...ids.phone],
    digitRuns,
  };
}

/** A line's height on the page, 0 (top) to 1. */
export const relativeY = (page: MemoryPage, line: TextLine): number => Math.min(1, Math.max(0, (line.y - page.top) / page.height));

/** Share of `learned` fixed lines the page also prints (how much of the supplier's layout survives on it). */
export function layoutOverlap(learned: readonly number[], page: MemoryPage): number {
  if (learned.length === 0) return 0;
  let shared = 0;
  for (const h of learned) if (page.fingerprint.has(h)) shared++;
  return shared / learned.length;
}

/**
 * How many characters wide a page's text is printed: the width its words span over the median width of one of their
 * characters. A till prints on a roll of fixed width — 32 columns on 58 mm paper, 42 to 48 on 80 mm — while an
 * invoice's lines run 70 to 130 characters across A4 or Letter. Measured on OCR of scanned receipts and on invoices
 * (docs/invoices.md, "Till receipts as a document type"): receipts 32–50 (5th–95th percentile), invoices 73–132.
 * The span leaves out the outermost twentieth of word edges on each side, so stray marks beside a photographed receipt
 * do not widen it.
 */
import type { Word } from '../model/extraction.js';
import { median } from './layout.js';

/** At most this many columns: a till roll's width (48) with room for OCR's wider glyphs. */
export const TILL_ROLL_COLUMNS = 56;
/**
 * Fewer words than this give no width: a few short lines say nothing of the paper they are printed on (a note, a
 * stub, a page OCR could hardly read). A till receipt prints far more (its header, items, totals, payment).
 */
const MIN_WORDS = 20;

const quantile = (values: readonly number[], share: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))]!;
};

/** The page's printed width in characters, or null where too few words were read to say. */
export function printedColumns(words: readonly Word[]): number | null {
  // Words of letters, digits and their usual punctuation, three characters or more: a glyph's width, not a mark's.
  const glyphs = words.filter((w) => w.text.length >= 3 && /^[\p{L}\p{N}.,:/-]+$/u.test(w.text));
  if (glyphs.length < MIN_WORDS) return null;
  const characterWidth = median(glyphs.map((w) => (w.box[2] - w.box[0]) / w.text.length));
  if (!(characterWidth > 0)) return null;
  const span = quantile(words.map((w) => w.box[2]), 0.95) - quantile(words.map((w) => w.box[0]), 0.05);
  return span / characterWidth;
}

/** Whether the page is printed as narrow as a till's roll. */
export const tillRollWide = (words: readonly Word[]): boolean => {
  const columns = printedColumns(words);
  return columns !== null && columns <= TILL_ROLL_COLUMNS;
};

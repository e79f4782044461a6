/**
 * Page orientation (0/90/180/270°) from what the OCR read, not from a separate model. Tesseract's automatic
 * segmentation already reads a page turned 90° clockwise — it finds the vertical lines and reads them top to bottom
 * with full confidence — but gives every word a tall, narrow box; a page upside down (or turned 270°, read the same
 * wrong way) comes out as words of very low confidence. So an upright page of print costs nothing extra: only pages
 * whose words are vertical, or whose confidence is low, are read again turned (see tesseractPool.ts).
 *
 * (Tesseract's own OSD, `@tesseract.js-data/osd`, needs the legacy-engine wasm core — a second ~4 MB module with its
 * own compile — and costs 0.5–2 CPU s per page in tesseract.js here, more than it saves; it is not used.)
 *
 * `turns` are clockwise quarter turns applied to the page image to make it upright.
 */
import type { Box } from '../../app/model/extraction.js';

export type QuarterTurns = 0 | 1 | 2 | 3;

/** The words the orientation checks look at. */
export interface OrientationWord {
  text: string;
  box: Box;
  /** 0–1. */
  confidence: number;
}

/** Words with this many letters or digits are long enough to have a reliable shape and confidence. */
const MIN_WORD_CHARACTERS = 3;
/** Below this many such words a page says nothing about its orientation (a stamp, a page number). */
export const MIN_ORIENTATION_WORDS = 6;
/** A word box this much taller than wide holds a vertical word (upright words of ≥ 3 characters are wider). */
const VERTICAL_ASPECT = 1.3;
/** Share of long words that must be vertical for the page to be turned a quarter. */
const MIN_VERTICAL_SHARE = 0.6;
/**
 * Character-weighted confidence under which a page of horizontal words may be upside down: print read the right way
 * up scores ~0.9 here, upside down ~0.2–0.35; handwriting also scores low, hence the check by reading it turned.
 */
export const SUSPECT_CONFIDENCE = 0.5;

const characters = (text: string): number => text.replace(/[^\p{L}\p{N}]/gu, '').length;

function longWords(words: readonly OrientationWord[]): OrientationWord[] {
  return words.filter((word) => characters(word.text) >= MIN_WORD_CHARACTERS);
}

/** Character-weighted mean confidence of the words (0 when there are none). */
export function readingConfidence(words: readonly OrientationWord[]): number {
  let weighted = 0;
  let total = 0;
  for (const word of words) {
    const n = characters(word.text);
    weighted += n * word.confidence;
    total += n;
  }
  return total ? weighted / total : 0;
}

/** Share of the long words whose box is taller than wide. */
export function verticalShare(words: readonly OrientationWord[]): number {
  const long = longWords(words);
  if (long.length === 0) return 0;
  const vertical = long.filter((word) => word.box[3] - word.box[1] > VERTICAL_ASPECT * (word.box[2] - word.box[0])).length;
  return vertical / long.length;
}

export type OrientationVerdict =
  /** Read as it is: upright print, or too little text to tell. */
  | { kind: 'upright' }
  /** Most words are vertical: turn the page a quarter (which way: `turns`) and read it again. */
  | { kind: 'quarter'; turns: QuarterTurns }
  /** Horizontal words of low confidence: the page may be upside down; check by reading part of it turned 180°. */
  | { kind: 'maybe-upside-down' };

/**
 * What the first reading says about the page's orientation. Vertical words read with good confidence run top to
 * bottom (tesseract reads vertical lines that way): the page was turned 90° clockwise, 3 more quarter turns right it.
 * Vertical words of low confidence run bottom to top: the page was turned 270°, 1 quarter turn rights it.
 */
export function judgeOrientation(words: readonly OrientationWord[]): OrientationVerdict {
  const long = longWords(words);
  if (long.length < MIN_ORIENTATION_WORDS) return { kind: 'upright' };
  const confidence = readingConfidence(long);
  if (verticalShare(long) >= MIN_VERTICAL_SHARE) return { kind: 'quarter', turns: confidence >= SUSPECT_CONFIDENCE ? 3 : 1 };
  return confidence < SUSPECT_CONFIDENCE ? { kind: 'maybe-upside-down' } : { kind: 'upright' };
}

/** Margin by which a reading turned must beat the first to be taken (confidence, 0–1). */
export const TURNED_READING_MARGIN = 0.2;
/** A turned reading must reach this confidence to count as print read the right way up. */
export const TURNED_READING_MIN_CONFIDENCE = 0.6;
/** How much worse a turned reading of a well-read page of vertical words may be and still be taken. */
const TURNED_READING_TOLERANCE = 0.1;

/**
 * Is the reading of the page turned (`turned`) to be taken over the reading as it was (`asIs`)? A page whose vertical
 * words were read well (turned 90°) only needs the turned reading not to be clearly worse — its words are then
 * horizontal, which layout needs; otherwise the turned reading must be convincingly better, so that handwriting and
 * poor scans, which read badly every way, stay as they are.
 */
export function turnedReadingWins(asIs: readonly OrientationWord[], turned: readonly OrientationWord[]): boolean {
  const turnedLong = longWords(turned);
  if (turnedLong.length < MIN_ORIENTATION_WORDS / 2 || verticalShare(turnedLong) >= MIN_VERTICAL_SHARE) return false;
  const before = readingConfidence(longWords(asIs));
  const after = readingConfidence(turnedLong);
  if (before >= SUSPECT_CONFIDENCE) return after >= before - TURNED_READING_TOLERANCE;
  return after >= TURNED_READING_MIN_CONFIDENCE && after >= before + TURNED_READING_MARGIN;
}

/** Share of the page's long words the upside-down probe reads (at least MIN_ORIENTATION_WORDS of them). */
const PROBE_SHARE = 0.3;

/**
 * The rows [top, bottom) of the page that the upside-down check reads turned: the shortest stretch of the page
 * holding PROBE_SHARE of its long words, padded by two word heights — enough text to judge, a fraction of the cost
 * of reading the whole page again.
 */
export function probeBand(words: readonly OrientationWord[], height: number): [number, number] {
  const long = longWords(words);
  const centres = long.map((word) => (word.box[1] + word.box[3]) / 2).sort((a, b) => a - b);
  const k = Math.min(centres.length, Math.max(MIN_ORIENTATION_WORDS, Math.ceil(centres.length * PROBE_SHARE)));
  if (k === 0) return [0, height];
  let best = 0;
  for (let i = 1; i + k <= centres.length; i++) if (centres[i + k - 1]! - centres[i]! < centres[best + k - 1]! - centres[best]!) best = i;
  const heights = long.map((word) => word.box[3] - word.box[1]).sort((a, b) => a - b);
  const pad = 2 * (heights[Math.floor(heights.length / 2)] ?? 0);
  return [Math.max(0, centres[best]! - pad), Math.min(height, centres[best + k - 1]! + pad)];
}

/** Size of the page after `turns` clockwise quarter turns. */
export function turnedSize(width: number, height: number, turns: QuarterTurns): { width: number; height: number } {
  return turns % 2 === 1 ? { width: height, height: width } : { width, height };
}

/** A box on the page (`width` × `height`) where it lies on the page turned clockwise by `turns` quarter turns. */
export function boxToTurned(box: Box, turns: QuarterTurns, width: number, height: number): Box {
  const [x0, y0, x1, y1] = box;
  switch (turns) {
    case 0:
      return box;
    case 1: // (x, y) goes to (height − y, x)
      return [height - y1, x0, height - y0, x1];
    case 2: // (x, y) goes to (width − x, height − y)
      return [width - x1, height - y1, width - x0, height - y0];
    case 3: // (x, y) goes to (y, width − x)
      return [y0, width - x1, y1, width - x0];
  }
}

/**
 * A box on the page turned clockwise by `turns` quarter turns, mapped back onto the page as it was
 * (`width` × `height`: the page's size before turning).
 */
export function boxFromTurned(box: Box, turns: QuarterTurns, width: number, height: number): Box {
  const [u0, v0, u1, v1] = box;
  switch (turns) {
    case 0:
      return box;
    case 1: // page point (x, y) went to (height − y, x)
      return [v0, height - u1, v1, height - u0];
    case 2: // (x, y) went to (width − x, height − y)
      return [width - u1, height - v1, width - u0, height - v0];
    case 3: // (x, y) went to (y, width − x)
      return [width - v1, u0, width - v0, u1];
  }
}

/**
 * Weak lines read again by a second reader, PP-OCRv4's line recognizer (lineRecognizer.ts), and its reading kept
 * where the evidence says it is the better one (docs/reading.md, "The second reader").
 *
 * Which lines: after tesseract's reading of the page (and the amount bands of regionReread.ts), each of tesseract's
 * lines holding a word with a letter or digit read below WEAK_WORD confidence. The line's box (its words' boxes, a
 * margin of a fifth of its height around) is cropped from the same straightened page image tesseract read.
 *
 * Which reading is kept (chooseLineReading; each refusal has its reason):
 * - never where tesseract's line holds a character the recognizer cannot write (its dictionary is Chinese + ASCII
 *   + a few Latin letters: no €, £, ß, ö…) in a word tesseract read with confidence (WEAK_WORD or more);
 * - never a reading with CJK characters on a page not read as Chinese (the recognizer's guess on noise);
 * - never letters on a row tesseract read as digits and punctuation only (amounts, dates, phone numbers);
 * - never a reading far shorter or longer than tesseract's (a crop that caught half a line or a neighbour);
 * - never one that differs from tesseract's only in spaces and letter case (PP-OCR writes "Cash Bill" for CASH BILL);
 * - otherwise PP's reading where its mean character probability is at least PP_SURE and tesseract's line's mean
 *   word confidence below TESSERACT_DOUBTFUL.
 * The words kept are split at PP's spaces and at tesseract's own word gaps (PP runs words together: "TOTAL12.50");
 * each has a box from its characters' CTC frames and the line's height, and `reader: 'pp-ocr'`.
 */
import type { Box } from '../../app/model/extraction.js';
import { wordsOfCharacters } from './lineCtc.js';
import type { LineReading } from './lineRecognizer.js';
import type { GreyImage } from './ocrImage.js';
import { cropBox } from './ocrPageImage.js';
import type { LineRereadRecord, LineRereadReport, Refusal } from './lineRereadReport.js';
import type { OcrWord } from './tesseractWords.js';

export type { LineRereadRecord, LineRereadReport, Refusal } from './lineRereadReport.js';

/** A line with a word below this confidence is read again (regionReread.ts calls a key word under 0.8 doubtful). */
export const WEAK_WORD = 0.8;
/** The least mean character probability of a PP reading that may replace tesseract's (measured: docs/reading.md). */
export const PP_SURE = 0.8;
/** Tesseract's line's mean word confidence (per character) must be below this for PP's reading to replace it. */
export const TESSERACT_DOUBTFUL = 0.9;
/** At most this many lines of a page are read again (a bound on the time of a page of faint print). */
export const MAX_LINES = 80;
/** PP's reading's length (letters and digits) against tesseract's: outside [1/LENGTH_RATIO, LENGTH_RATIO], refused. */
const LENGTH_RATIO = 1.6;


export interface LineChoice {
  keep: boolean;
  /** Why PP's reading was not kept. */
  refusal?: Refusal;
}

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff00-\uffef]/u;
const alnum = (text: string): string => text.replace(/[^\p{L}\p{N}]/gu, '');

/** The reading's mean character probability (spaces left out). */
export function meanProbability(reading: LineReading): number {
  const chars = reading.characters.filter((c) => c.char.trim() !== '');
  return chars.length ? chars.reduce((a, c) => a + c.probability, 0) / chars.length : 0;
}

/** Tesseract's line's confidence: its words' confidences weighted by their lengths. */
export function lineConfidence(words: readonly OcrWord[]): number {
  const chars = words.reduce((a, w) => a + w.text.length, 0);
  return chars ? words.reduce((a, w) => a + w.confidence * w.text.length, 0) / chars : 0;
}

/**
 * Whether PP's `reading` of the line replaces tesseract's `words` (see the module's comment). `dictionary`: the
 * characters PP can write; `chinese`: the page is read as Chinese (CJK characters are then expected).
 */
export function chooseLineReading(words: readonly OcrWord[], reading: LineReading, dictionary: ReadonlySet<string>, chinese = false): LineChoice {
  const tesseractText = words.map((w) => w.text).join(' ');
  const ppText = reading.text.trim();
  if (alnum(ppText) === '') return { keep: false, refusal: 'empty' };
  // A character PP cannot write, in a word tesseract is sure of (€, ß, ö): PP would lose it. Tesseract's unsure
  // words often hold such characters as noise ("£4.", "©", "9993¢0/01"), which is no reason to keep them.
  if (words.some((w) => w.confidence >= WEAK_WORD && [...w.text].some((c) => !dictionary.has(c)))) return { keep: false, refusal: 'outside-dictionary' };
  if (!chinese && CJK.test(ppText)) return { keep: false, refusal: 'cjk' };
  if (!/\p{L}/u.test(tesseractText) && /\p{N}/u.test(tesseractText) && /\p{L}/u.test(ppText)) return { keep: false, refusal: 'letters-in-digits' };
  const [t, p] = [alnum(tesseractText).length, alnum(ppText).length];
  if (p > LENGTH_RATIO * t + 2 || t > LENGTH_RATIO * p + 2) return { keep: false, refusal: 'length' };
  // The same reading but for spaces and letter case: tesseract's keeps its spaces and case (PP writes "Cash Bill").
  if (ppText.replace(/\s+/g, '').toUpperCase() === tesseractText.replace(/\s+/g, '').toUpperCase()) return { keep: false, refusal: 'same' };
  if (meanProbability(reading) < PP_SURE) return { keep: false, refusal: 'weak-reading' };
  if (lineConfidence(words) >= TESSERACT_DOUBTFUL) return { keep: false, refusal: 'tesseract-sure' };
  return { keep: true };
}

export interface LineReader {
  read(crop: GreyImage): Promise<LineReading | null>;
  readonly unavailable: string | null;
  /** The characters the reader can write. */
  characters(): ReadonlySet<string>;
}

const isText = (w: OcrWord): boolean => /[\p{L}\p{N}]/u.test(w.text);

/** Tesseract's lines (words sharing a lineKey, in reading order) holding a weak word. */
export function weakLines(words: readonly OcrWord[]): OcrWord[][] {
  const lines = new Map<string, OcrWord[]>();
  for (const word of words) {
    const line = lines.get(word.lineKey);
    if (line) line.push(word);
    else lines.set(word.lineKey, [word]);
  }
  return [...lines.values()].filter((line) => line.some((w) => isText(w) && w.confidence < WEAK_WORD)).slice(0, MAX_LINES);
}

/** The box around a line's words, with a margin of a fifth of its height, within the image. */
function lineBox(line: readonly OcrWord[], image: GreyImage): Box {
  const [x0, y0] = [Math.min(...line.map((w) => w.box[0])), Math.min(...line.map((w) => w.box[1]))];
  const [x1, y1] = [Math.max(...line.map((w) => w.box[2])), Math.max(...line.map((w) => w.box[3]))];
  const margin = Math.max(2, (y1 - y0) / 5);
  return [Math.max(0, x0 - margin), Math.max(0, y0 - margin), Math.min(image.width, x1 + margin), Math.min(image.height, y1 + margin)];
}

/**
 * The page's `words` (read on `image`) with each weak line read again by `reader`, and PP's reading kept where
 * chooseLineReading says so. A reader that cannot read leaves the words as they are, the report saying why.
 */
export async function rereadWeakLines(
  image: GreyImage,
  words: readonly OcrWord[],
  reader: LineReader,
  options: { signal?: AbortSignal; chinese?: boolean } = {},
): Promise<{ words: OcrWord[]; report: LineRereadReport }> {
  const started = performance.now();
  const lines = weakLines(words);
  const records: LineRereadRecord[] = [];
  const replacements = new Map<OcrWord, OcrWord[]>();
  const readings = lines.map((line) => {
    const box = lineBox(line, image);
    const crop = cropBox(image, box);
    return { line, crop, reading: reader.read(crop.image) };
  });
  // All lines go to the reader's worker at once (it reads them in turn); a failed line keeps tesseract's reading.
  const settled = await Promise.allSettled(readings.map((r) => r.reading));
  options.signal?.throwIfAborted();
  const dictionary = reader.unavailable ? new Set<string>() : reader.characters();
  for (const [i, { line, crop }] of readings.entries()) {
    const result = settled[i]!;
    const reading = result.status === 'fulfilled' ? result.value : null;
    if (!reading) continue;
    const sorted = [...line].sort((a, b) => a.box[0] - b.box[0]);
    const choice = chooseLineReading(sorted, reading, dictionary, options.chinese);
    const box: Box = [crop.left, crop.top, crop.left + crop.image.width, crop.top + crop.image.height];
    records.push({ box, tesseract: sorted.map((w) => w.text).join(' '), tesseractConfidence: lineConfidence(sorted), pp: reading.text.trim(), ppProbability: meanProbability(reading), kept: choice.keep, ...(choice.refusal ? { refusal: choice.refusal } : {}) });
    if (!choice.keep) continue;
    const gaps = sorted.slice(1).map((w, k) => (sorted[k]!.box[2] + w.box[0]) / 2 - crop.left);
    const top = Math.min(...line.map((w) => w.box[1]));
    const bottom = Math.max(...line.map((w) => w.box[3]));
    const replaced = wordsOfCharacters(reading.characters, gaps).map((w): OcrWord => ({
      text: w.text,
      box: [crop.left + w.x0, top, crop.left + w.x1, bottom],
      confidence: w.probability,
      lineKey: line[0]!.lineKey,
      lineHeight: line[0]!.lineHeight,
      reader: 'pp-ocr',
    }));
    replacements.set(line[0]!, replaced);
    for (const w of line.slice(1)) replacements.set(w, []);
  }
  const result = words.flatMap((w) => replacements.get(w) ?? [w]);
  const report: LineRereadReport = {
    read: records.length,
    replaced: records.filter((r) => r.kept).length,
    milliseconds: performance.now() - started,
    lines: records,
    ...(reader.unavailable ? { unavailable: reader.unavailable } : {}),
  };
  return { words: result, report };
}

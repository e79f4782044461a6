/**
 * Weak lines read again by a second reader, PP-OCRv4's line recognizer (lineRecognizer.ts), and its reading of a
 * weak word kept where the evidence says it is the better one (docs/reading.md, "The second reader").
 *
 * Which lines: after tesseract's reading of the page (and the amount bands of regionReread.ts), each of tesseract's
 * lines holding a word with a letter or digit read below WEAK_WORD confidence, and the page's header lines (below).
 * The line's box (its words' boxes, a
 * margin of a fifth of its height around) is cropped from the same straightened page image tesseract read, and read
 * whole: the recognizer reads a line better than a word alone.
 *
 * What is kept, word by word on tesseract's grid of words (PP-OCR runs words together — "TotalGST:5.76" — and
 * tesseract's word boxes and spaces are the better ones): each of PP's characters belongs to the tesseract word whose
 * cell holds its centre (cells meet half-way between neighbouring words). A word tesseract is sure of (WEAK_WORD or
 * more) is never touched. A weak word takes PP's characters of its cell (chooseWord) unless:
 * - PP's are not sure: their mean probability under PP_SURE;
 * - they hold CJK characters on a page not read as Chinese (the recognizer's guess on noise);
 * - they put letters in a word tesseract read as digits and punctuation only (amounts, dates, phone numbers), or
 *   mix digits into letters where tesseract read letters only (PP's O/0 and I/1: "CONFECTI0NERY"; an amount tesseract
 *   read as letters, "lOO.OO", may still become PP's "100.00");
 * - they are far shorter or longer than tesseract's (a cell that caught a neighbour's print, or nothing);
 * - they are tesseract's word but for letter case (PP writes "Cash" for CASH).
 * Characters PP cannot write (its dictionary is Chinese + ASCII + a few Latin letters: no €, £, ß, ö) stay safe:
 * tesseract's sure words are never replaced, and a weak word's odd characters are most often noise ("£4.", "©").
 * A word replaced keeps tesseract's box and line and is marked `reader: 'pp-ocr'`.
 *
 * The header lines are read by both readers: the first lines of the page (top to bottom, before the first date or
 * amount, at most HEADER_LINES) print the merchant's or supplier's name, where tesseract misreads a letter of
 * condensed or faded print with confidence ("PERNIAGAAR" at 0.91 for PERNIAGAAN, "CARE" at 0.95 for CAKE). There a
 * word tesseract is sure of may still take PP's reading (chooseHeaderWord) where PP is more sure of it than tesseract,
 * at least PP_CERTAIN, and the two differ by a slip (a letter in four read for another, letters only): the evidence of two readers
 * against one's confidence, not a different word from a cell that caught its neighbour's print.
 * Measured against a line-level choice (PP's whole line where it is sure) on the development receipts: a few more
 * character errors on the weak lines (8.8 % against 8.0 %) but more key fields right (157 against 155 of 195), since
 * labels tesseract read right stay right (docs/benchmarks.md, "The second reader").
 */
import { levenshtein } from '../../app/checks/textDistance.js';
import { findDates } from '../../app/invoice/dates.js';
import { moneyAmounts } from '../../app/invoice/moneyAmounts.js';
import type { Box } from '../../app/model/extraction.js';
import { wordsOfCharacters, type DecodedCharacter } from './lineCtc.js';
import type { LineReading } from './lineRecognizer.js';
import type { GreyImage } from './ocrImage.js';
import { cropBox } from './ocrPageImage.js';
import type { LineRereadRecord, LineRereadReport, Refusal, WordRecord } from './lineRereadReport.js';
import type { OcrWord } from './tesseractWords.js';

export type { LineRereadRecord, LineRereadReport, Refusal, WordRecord } from './lineRereadReport.js';

/**
 * A word under this confidence is weak; a line with one is read again. 0.9, not regionReread.ts's 0.8: tesseract's
 * digits read at 0.8–0.9 are often wrong ("04/04/17" for 06/04/17) and PP reads them right (docs/benchmarks.md,
 * development receipts: 0.8 → 0.9 first-seen 158 → 160 of 195; 0.95 fell back to 158 at more cost).
 */
export const WEAK_WORD = 0.9;
/** The least mean character probability of PP's reading of a word that may replace tesseract's (measured: docs/reading.md). */
export const PP_SURE = 0.85;
/** At most this many lines of a page are read again (a bound on the time of a page of faint print). */
export const MAX_LINES = 80;
/**
 * At most this many of a page's first lines are read by both readers (receiptReading.ts's receiptMerchant looks for
 * the merchant in the first twelve lines; its name is in the first few of them on the development receipts).
 */
export const HEADER_LINES = 8;
/** The least mean character probability of PP's reading that may correct a word tesseract is sure of (header lines). */
export const PP_CERTAIN = 0.95;
/**
 * And by how much PP must be surer than tesseract there: PP's own slips on clear print ("Casher" for Cashier at 0.98
 * against tesseract's 0.96) come with a probability just over tesseract's confidence; its corrections of tesseract's
 * sure slips well over it ("PERNIAGAAN" at 0.99 against "PERNIAGAAR" at 0.91).
 */
export const PP_MARGIN = 0.05;
/** A slip, not another word: at most one letter read for another per SLIP_LETTERS letters (and at least one). */
const SLIP_LETTERS = 4;
/** PP's word's length (letters and digits) against tesseract's: more than LENGTH_RATIO × the other + 1, refused. */
const LENGTH_RATIO = 1.6;

/** CJK characters and their punctuation: on a page not read as Chinese, PP-OCR's guess on noise. */
export const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff00-\uffef]/u;
const alnum = (text: string): string => text.replace(/[^\p{L}\p{N}]/gu, '');

/**
 * Whether PP's `text` (mean character probability `probability`) replaces tesseract's weak word `word`; else why not.
 * `sure`: the least probability kept (PP_SURE; another only to measure the choice).
 */
export function chooseWord(word: Pick<OcrWord, 'text' | 'confidence'>, text: string, probability: number, chinese = false, sure = PP_SURE): { keep: boolean; refusal?: Refusal } {
  if (word.confidence >= WEAK_WORD) return { keep: false, refusal: 'tesseract-sure' };
  if (alnum(text) === '') return { keep: false, refusal: 'empty' };
  if (probability < sure) return { keep: false, refusal: 'weak-reading' };
  if (!chinese && CJK.test(text)) return { keep: false, refusal: 'cjk' };
  if (!/\p{L}/u.test(word.text) && /\p{N}/u.test(word.text) && /\p{L}/u.test(text)) return { keep: false, refusal: 'letters-in-digits' };
  if (!/\p{N}/u.test(word.text) && /\p{L}/u.test(word.text) && /\p{L}/u.test(text) && /\p{N}/u.test(text)) return { keep: false, refusal: 'digits-in-letters' };
  const [t, p] = [alnum(word.text).length, alnum(text).length];
  if (p > LENGTH_RATIO * t + 1 || t > LENGTH_RATIO * p + 1) return { keep: false, refusal: 'length' };
  if (text.toUpperCase() === word.text.toUpperCase()) return { keep: false, refusal: 'same' };
  return { keep: true };
}

/**
 * chooseWord for a word of a header line: a weak word as anywhere; a word tesseract is sure of takes PP's reading
 * only where PP is at least PP_CERTAIN and more sure than tesseract, and the two are letters only and differ by a
 * slip (one edit per SLIP_LETTERS letters, case aside); the weak word's refusals apply too.
 */
export function chooseHeaderWord(word: Pick<OcrWord, 'text' | 'confidence'>, text: string, probability: number, chinese = false): { keep: boolean; refusal?: Refusal } {
  if (word.confidence < WEAK_WORD) return chooseWord(word, text, probability, chinese);
  if (probability < Math.max(PP_CERTAIN, word.confidence + PP_MARGIN)) return { keep: false, refusal: 'tesseract-sure' };
  const asWeak = chooseWord({ text: word.text, confidence: 0 }, text, probability, chinese);
  if (!asWeak.keep) return asWeak;
  const [t, p] = [alnum(word.text).toUpperCase(), alnum(text).toUpperCase()];
  // A letter beyond ASCII (ö, ß, é) is one PP's dictionary mostly cannot write: its reading there is blind.
  if (/[^\p{ASCII}]/u.test(word.text)) return { keep: false, refusal: 'not-a-slip' };
  // Punctuation alone is no slip of a sure word: PP draws a neighbour's mark into its cell ("Cash&").
  if (t === p) return { keep: false, refusal: 'same' };
  // Digits in a header are registration, phone and street numbers: PP's are no surer there than tesseract's. A
  // slip of print is one glyph read for another, so the lengths agree; a letter fewer is PP's own slip (its CTC drops
  // a narrow letter: "LAN" for LIAN, "Casher" for Cashier).
  if (/\p{N}/u.test(t + p) || t.length !== p.length || levenshtein(t, p) > Math.max(1, Math.floor(t.length / SLIP_LETTERS))) return { keep: false, refusal: 'not-a-slip' };
  return { keep: true };
}

/**
 * PP's characters shared out among tesseract's words of the line (`words` sorted left to right, x in the same
 * pixels as the characters'): PP's words one to one where they pair with tesseract's (pairedWords); else each
 * character to the word whose cell holds its centre. Cells meet half-way between neighbouring words; the outer ones
 * reach half a line height beyond their word. Spaces are left out.
 */
export function charactersPerWord(words: readonly OcrWord[], characters: readonly DecodedCharacter[], lineHeight: number): DecodedCharacter[][] {
  const cells = cellsOf(words, lineHeight);
  const paired = pairedWords(cells, characters);
  if (paired) return paired;
  const out: DecodedCharacter[][] = words.map(() => []);
  for (const ch of characters) {
    if (ch.char.trim() === '') continue;
    const centre = (ch.x0 + ch.x1) / 2;
    const index = cells.findIndex(([left, right]) => centre >= left && centre < right);
    if (index >= 0) out[index]!.push(ch);
  }
  return out;
}

/** Each word's cell: from half-way to its left neighbour to half-way to its right one (half a line height outside). */
function cellsOf(words: readonly OcrWord[], lineHeight: number): Array<readonly [number, number]> {
  return words.map((word, i) => {
    const left = i === 0 ? word.box[0] - lineHeight / 2 : (words[i - 1]!.box[2] + word.box[0]) / 2;
    const right = i === words.length - 1 ? word.box[2] + lineHeight / 2 : (word.box[2] + words[i + 1]!.box[0]) / 2;
    return [left, right] as const;
  });
}

/**
 * PP's own words (its characters between its spaces) paired one to one with tesseract's, where PP wrote as many
 * words as tesseract found and each lies near its partner (its centre within the partner's cell or a neighbour's);
 * else null. PP's character columns come from CTC frames and drift by a character's width or so, so a short word
 * next to a gap ("17/01/2018 4") can land in its neighbour's cell; PP's spaces, where they agree in number with
 * tesseract's words, say where the words part.
 */
function pairedWords(cells: ReadonlyArray<readonly [number, number]>, characters: readonly DecodedCharacter[]): DecodedCharacter[][] | null {
  const groups = wordsOfCharacters(characters);
  if (groups.length !== cells.length) return null;
  const near = groups.every((group, i) => {
    const centre = (group[0]!.x0 + group.at(-1)!.x1) / 2;
    return centre >= cells[Math.max(0, i - 1)]![0] && centre < cells[Math.min(cells.length - 1, i + 1)]![1];
  });
  return near ? groups : null;
}

export interface LineReader {
  read(crop: GreyImage): Promise<LineReading | null>;
  readonly unavailable: string | null;
}

const isText = (w: OcrWord): boolean => /[\p{L}\p{N}]/u.test(w.text);

/** Tesseract's lines: words sharing a lineKey, in reading order. */
function linesOf(words: readonly OcrWord[]): OcrWord[][] {
  const lines = new Map<string, OcrWord[]>();
  for (const word of words) {
    const line = lines.get(word.lineKey);
    if (line) line.push(word);
    else lines.set(word.lineKey, [word]);
  }
  return [...lines.values()];
}

const isWeak = (line: readonly OcrWord[]): boolean => line.some((w) => isText(w) && w.confidence < WEAK_WORD);

/** Tesseract's lines (words sharing a lineKey, in reading order) holding a weak word, at most MAX_LINES. */
export function weakLines(words: readonly OcrWord[]): OcrWord[][] {
  return linesOf(words).filter(isWeak).slice(0, MAX_LINES);
}

/**
 * The page's first lines with letters, top to bottom, up to the first with a date or an amount (never the first
 * line itself) and at most HEADER_LINES: where the merchant's name is printed (receiptReading.ts, receiptMerchant).
 */
export function headerLines(words: readonly OcrWord[]): OcrWord[][] {
  return headerOf(linesOf(words));
}

function headerOf(allLines: readonly OcrWord[][]): OcrWord[][] {
  const top = (line: readonly OcrWord[]): number => Math.min(...line.map((w) => w.box[1]));
  const lines = allLines
    .filter((line) => line.some((w) => /\p{L}/u.test(w.text)))
    .sort((a, b) => top(a) - top(b));
  const header: OcrWord[][] = [];
  for (const line of lines) {
    const text = line.map((w) => w.text).join(' ');
    if (header.length > 0 && (findDates(text).length > 0 || moneyAmounts(text).length > 0)) break;
    header.push(line);
    if (header.length === HEADER_LINES) break;
  }
  return header;
}

/** The box around a line's words, with a margin of a fifth of its height, within the image. */
function lineBox(line: readonly OcrWord[], image: GreyImage): Box {
  const [x0, y0] = [Math.min(...line.map((w) => w.box[0])), Math.min(...line.map((w) => w.box[1]))];
  const [x1, y1] = [Math.max(...line.map((w) => w.box[2])), Math.max(...line.map((w) => w.box[3]))];
  const margin = Math.max(2, (y1 - y0) / 5);
  return [Math.max(0, x0 - margin), Math.max(0, y0 - margin), Math.min(image.width, x1 + margin), Math.min(image.height, y1 + margin)];
}

const meanOf = (characters: readonly DecodedCharacter[]): number => (characters.length ? characters.reduce((a, c) => a + c.probability, 0) / characters.length : 0);

/**
 * The page's `words` (read on `image`) with each weak line read again by `reader`, and PP's reading of its weak words
 * kept where chooseWord says so. A reader that cannot read leaves the words as they are, the report saying why.
 */
export async function rereadWeakLines(
  image: GreyImage,
  words: readonly OcrWord[],
  reader: LineReader,
  options: { signal?: AbortSignal; chinese?: boolean } = {},
): Promise<{ words: OcrWord[]; report: LineRereadReport }> {
  const started = performance.now();
  // The header lines first (at most HEADER_LINES), then the other lines with a weak word, at most MAX_LINES in all.
  const lines = linesOf(words);
  const header = new Set(headerOf(lines));
  const weak = lines.filter((line) => !header.has(line) && isWeak(line));
  const readings = [...header, ...weak].slice(0, MAX_LINES).map((line) => {
    const crop = cropBox(image, lineBox(line, image));
    return { line, crop, reading: reader.read(crop.image), inHeader: header.has(line) };
  });
  // All lines go to the reader's worker at once (it reads them in turn); a line that fails keeps tesseract's words.
  const settled = await Promise.allSettled(readings.map((r) => r.reading));
  options.signal?.throwIfAborted();
  const records: LineRereadRecord[] = [];
  const replacements = new Map<OcrWord, OcrWord>();
  for (const [i, { line, crop, inHeader }] of readings.entries()) {
    const result = settled[i]!;
    const reading = result.status === 'fulfilled' ? result.value : null;
    if (!reading) continue;
    const sorted = [...line].sort((a, b) => a.box[0] - b.box[0]);
    const inCrop = sorted.map((w): OcrWord => ({ ...w, box: [w.box[0] - crop.left, w.box[1] - crop.top, w.box[2] - crop.left, w.box[3] - crop.top] }));
    const height = Math.max(...line.map((w) => w.box[3])) - Math.min(...line.map((w) => w.box[1]));
    const shares = charactersPerWord(inCrop, reading.characters, height);
    const wordRecords: WordRecord[] = sorted.map((word, k) => {
      const text = shares[k]!.map((c) => c.char).join('');
      const probability = meanOf(shares[k]!);
      const choice = inHeader ? chooseHeaderWord(word, text, probability, options.chinese) : chooseWord(word, text, probability, options.chinese);
      if (choice.keep) replacements.set(word, { ...word, text, confidence: probability, reader: 'pp-ocr' });
      return { tesseract: word.text, confidence: word.confidence, pp: text, ppProbability: probability, kept: choice.keep, ...(choice.refusal ? { refusal: choice.refusal } : {}) };
    });
    const box: Box = [crop.left, crop.top, crop.left + crop.image.width, crop.top + crop.image.height];
    records.push({ box, pp: reading.text.trim(), ppProbability: meanOf(reading.characters.filter((c) => c.char.trim() !== '')), words: wordRecords });
  }
  const report: LineRereadReport = {
    read: records.length,
    replaced: replacements.size,
    milliseconds: performance.now() - started,
    lines: records,
    ...(reader.unavailable ? { unavailable: reader.unavailable } : {}),
  };
  return { words: words.map((w) => replacements.get(w) ?? w), report };
}

/**
 * A targeted second OCR pass: after the first reading of a scanned page, the places where the amount paid should be
 * and was read weakly are read again, each alone — and the better reading of each kept.
 *
 * Whole-page second passes (contrast, 2× upscale, other page segmentation modes) were measured on scanned receipts and
 * gained nothing worth their time (docs/benchmarks.md): what is lost is local — a faded amount column, thin
 * thermal print. A band of one line, enlarged so its print is the size tesseract reads best and read as a single
 * line, recovers much of it at a fraction of a page's OCR time. The band: the row of a total-like label (TOTAL,
 * NETT, AMOUNT DUE, ROUNDED, CASH, CHANGE…, matched allowing one OCR slip) with no amount right of it, or only a
 * doubtful one, from the label to the page's right edge. It is read grey, and where that gives no amount, binarised
 * by Otsu's threshold within the band (faded thermal print whose grey differs from the rest of the page's); the
 * reading kept is the one that holds an amount, then the one with the higher confidence. Kept words replace the first
 * pass's words whose centres lie in the band, with their own boxes (in the image's pixels): text and boxes stay linked.
 * Where neither of tesseract's readings holds an amount and the engine has its second reader (lineReread.ts:
 * PP-OCR's line recognizer), the band is read by it too: its sure amounts (mean character probability ≥ PP_SURE)
 * join the first reading's words — where no word of the first reading stands, or in place of a weak one that is no
 * amount ("ease" where the faded total was) — with boxes from its character columns; the label words stay
 * tesseract's (PP runs words together, and a reader of fields needs the labels).
 *
 * Ink the first reading left without a word is read too (`unread`, unreadBands): a line printed much larger than the
 * body — the double-height TOTAL a till prints — is dropped by tesseract's layout analysis as if it were a picture;
 * alone, as a block, it is read, and kept where tesseract reads it surely.
 *
 * Two more kinds of region can be asked for — a doubtful date-like word (or a "date" label without a date) and the
 * first lines of the page (the merchant's letterhead) holding a doubtful word — but are not read by default: on the
 * development receipts the dates brought back no key string missing from the first reading, and the letterheads lost
 * more merchant names than they found, for 3 % and 6 % more OCR time (docs/benchmarks.md).
 */
import { PSM } from 'tesseract.js';
import type { Box } from '../../app/model/extraction.js';
import { levenshtein } from '../../app/checks/textDistance.js';
import { otsuThreshold, resizeGrey, type GreyImage } from './ocrImage.js';
import { cropBox } from './ocrPageImage.js';
import type { OcrWord } from './tesseractWords.js';
import type { LineReading } from './lineRecognizer.js';
import { wordsOfCharacters } from './lineCtc.js';
import { CJK, PP_SURE } from './lineReread.js';
import { tenderedOrChange } from '../../app/invoice/receiptConventions.js';
import { totalLine } from '../../app/invoice/receiptReading.js';

export type RegionKind = 'amount' | 'date' | 'header' | 'unread';

export interface RereadRegion {
  kind: RegionKind;
  /** In the pixels of the image the words were read on. */
  box: Box;
}

/** Reads `image` (a crop enlarged `enlarge` times) with the page segmentation mode given; boxes in its pixels. */
export type ReadImage = (image: GreyImage, pageSegmentationMode: PSM, enlarge: number) => Promise<OcrWord[]>;

export interface RereadReport {
  regions: RereadRegion[];
  /** Regions whose second reading replaced the first. */
  replaced: number;
  /** Per region, the reading kept: -1 the first pass, else the index of the variant (0 grey, 1 binarised, 2 the second reader's amounts). */
  kept: number[];
  /** Wall-clock milliseconds the second pass took (the OCR jobs and the crops). */
  milliseconds: number;
}

/** Kinds of region read again unless the caller names others. */
export const DEFAULT_KINDS: readonly RegionKind[] = ['amount', 'unread'];
/**
 * A word tesseract is sure of scores about 0.9–0.97; below this a key word is doubtful and worth a second look. At
 * 0.9 a sixth more rows were read again on the development receipts and none of them gave back a missing total.
 */
const DOUBTFUL = 0.8;
/** Header words below this confidence make the line worth reading again (letterheads are often decorated). */
const DOUBTFUL_HEADER = 0.8;
/** At most this many regions per page are read again (a bound on the time of a page full of totals). */
export const MAX_REGIONS = 8;
/** The first this many lines of text are the header (merchant's name, company and tax registration numbers). */
const HEADER_LINES = 3;
/** Capital height (pixels) the band is enlarged to: tesseract's LSTM reads best at an x-height of 20–30 px. */
const TARGET_WORD_HEIGHT = 40;
const MAX_ENLARGE = 3;
/** A second reading must beat the first by this much confidence when both parse alike. */
const CONFIDENCE_MARGIN = 0.03;
/** Unread ink (unreadBands): a row is print where this share of the text column is dark, ... */
const UNREAD_ROW_INK = 0.02;
/** ... a band of it is large print from this many median word heights tall, and a picture beyond this many. */
const UNREAD_MIN_LINES = 1.5;
const UNREAD_MAX_LINES = 5;
/** Pages with fewer words than this have no body text to measure print against. */
const UNREAD_MIN_WORDS = 10;
/** Large print is brought down to the size read best, not below this share of its size. */
const MIN_UNREAD_SCALE = 0.5;
/** A reading of unread ink is kept only at this confidence per character or more (worth). */
const UNREAD_SURE = 0.75;

/**
 * Labels of the amount paid and of the till lines around it (the till identity cash − change = total needs them
 * too): a word the receipt readers' own vocabularies name — the total's (receiptReading.ts: TOTAL, SUMME, JUMLAH,
 * NETT…) and the payment's (receiptConventions.ts: CASH, BAR, RÜCKGELD, CHANGE, RENDU…) — or, for OCR's slips, one
 * of these words one edit away ("T0TAL", "NETI"; words of 4 letters or more, upper case, letters only). AMOUNT
 * alone is left out: it heads the price column ("Qty Price Amount", "Amount (RM) Tax (RM)"); the amount paid says
 * TOTAL AMOUNT, AMOUNT DUE, PAID AMOUNT.
 */
const TOTAL_LABELS = ['TOTAL', 'SUBTOTAL', 'NETT', 'NET', 'GRAND', 'DUE', 'PAYABLE', 'ROUNDED', 'ROUNDING', 'CASH', 'CHANGE', 'TENDERED', 'BALANCE', 'PAID', 'JUMLAH'];
const DATE_LABELS = ['DATE', 'TARIKH', 'DATUM'];

const AMOUNT = /\d[.,]\d{2}(?!\d)/;
const DATE = /\d{1,4}[/.-]\d{1,2}[/.-]\d{2,4}|\d{1,2}[-/ ]?(JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)[A-Z]*[-/ ]?\d{2,4}/i;

const centreY = (box: Box): number => (box[1] + box[3]) / 2;
const height = (box: Box): number => box[3] - box[1];
const lettersOf = (text: string): string => text.toUpperCase().replace(/[^A-Z]/g, '');

function isLabel(text: string, labels: readonly string[]): boolean {
  const letters = lettersOf(text);
  if (letters.length < 3) return false;
  return labels.some((label) => letters === label || (label.length >= 4 && Math.abs(letters.length - label.length) <= 1 && levenshtein(letters, label) <= 1));
}

/** A total or payment label, as the receipt readers spell it or one OCR slip from it. */
function isTotalLabel(word: OcrWord): boolean {
  return totalLine.test(word.text) || tenderedOrChange.test(word.text) || isLabel(word.text, TOTAL_LABELS);
}

/** The words on the same row as `word`: vertical centres within half its height. */
function rowOf(word: OcrWord, words: readonly OcrWord[]): OcrWord[] {
  const y = centreY(word.box);
  const h = Math.max(1, height(word.box));
  return words.filter((other) => Math.abs(centreY(other.box) - y) < 0.6 * Math.max(h, height(other.box)));
}

/** The band of a row of words, padded by a third of its height above and below, from `left` to `right`. */
function band(row: readonly OcrWord[], left: number, right: number, imageHeight: number): Box {
  const top = Math.min(...row.map((w) => w.box[1]));
  const bottom = Math.max(...row.map((w) => w.box[3]));
  const pad = (bottom - top) / 3;
  return [Math.max(0, left), Math.max(0, top - pad), right, Math.min(imageHeight, bottom + pad)];
}

/**
 * Where the first reading of a page is weak at a key field (see the module's comment), in the order they are worth
 * reading again: amounts, dates, header lines; overlapping regions merged, at most MAX_REGIONS.
 */
export function weakRegions(words: readonly OcrWord[], width: number, imageHeight: number, kinds: readonly RegionKind[] = DEFAULT_KINDS): RereadRegion[] {
  const regions: RereadRegion[] = [];
  for (const label of kinds.includes('amount') ? words.filter(isTotalLabel) : []) {
    const row = rowOf(label, words);
    const right = row.filter((w) => w.box[0] >= label.box[0]);
    const amounts = right.filter((w) => AMOUNT.test(w.text));
    if (amounts.length > 0 && amounts.every((w) => w.confidence >= DOUBTFUL)) continue;
    regions.push({ kind: 'amount', box: band(row, label.box[0] - height(label.box), width, imageHeight) });
  }
  for (const word of kinds.includes('date') ? words : []) {
    const h = height(word.box);
    if (DATE.test(word.text) && word.confidence < DOUBTFUL) regions.push({ kind: 'date', box: band([word], word.box[0] - h, word.box[2] + h, imageHeight) });
    else if (isLabel(word.text, DATE_LABELS) && !rowOf(word, words).some((w) => DATE.test(w.text))) {
      regions.push({ kind: 'date', box: band(rowOf(word, words), word.box[0] - h, width, imageHeight) });
    }
  }
  for (const line of kinds.includes('header') ? firstLines(words, HEADER_LINES) : []) {
    if (line.some((w) => lettersOf(w.text).length >= 2 && w.confidence < DOUBTFUL_HEADER)) regions.push({ kind: 'header', box: band(line, 0, width, imageHeight) });
  }
  return merged(regions).slice(0, MAX_REGIONS);
}

/** The first `count` rows of words from the top (words with letters or digits; specks and rules left out). */
function firstLines(words: readonly OcrWord[], count: number): OcrWord[][] {
  const rows: OcrWord[][] = [];
  const sorted = words.filter((w) => /[\p{L}\p{N}]{2}/u.test(w.text)).sort((a, b) => centreY(a.box) - centreY(b.box));
  for (const word of sorted) {
    const last = rows[rows.length - 1];
    if (last && Math.abs(centreY(word.box) - centreY(last[0]!.box)) < 0.6 * Math.max(height(word.box), height(last[0]!.box))) last.push(word);
    else if (rows.length < count) rows.push([word]);
    else break;
  }
  return rows;
}

/**
 * Regions that overlap vertically by more than half the smaller one are one row: the first one's kind and height,
 * widened to both (grown in height too, neighbouring rows would chain into a band of several lines).
 */
function merged(regions: readonly RereadRegion[]): RereadRegion[] {
  const out: RereadRegion[] = [];
  for (const region of regions) {
    const same = out.find((o) => {
      const overlap = Math.min(o.box[3], region.box[3]) - Math.max(o.box[1], region.box[1]);
      return overlap > 0.5 * Math.min(height(o.box), height(region.box));
    });
    if (!same) out.push({ ...region, box: [...region.box] as Box });
    else same.box = [Math.min(same.box[0], region.box[0]), same.box[1], Math.max(same.box[2], region.box[2]), same.box[3]];
  }
  return out;
}

/**
 * Bands of print the first reading left without a word: rows between the page's first and last words, across its
 * text column, that hold ink (darker than Otsu's threshold) under no word's box, at least UNREAD_MIN_LINES and at
 * most UNREAD_MAX_LINES median word heights tall. Tesseract's layout analysis drops a line printed much larger than the
 * body — a till prints its TOTAL double height ("TOTAL: 58.70", "Total After Rounding RM63.90") — as if it were a
 * picture, so the one line that says what was paid is missing from the text. A band too short is a rule or a speck,
 * one too tall a logo or a photo; what a band holds is kept only where tesseract reads it surely (worth).
 */
export function unreadBands(image: GreyImage, words: readonly OcrWord[]): RereadRegion[] {
  const text = words.filter((w) => /[\p{L}\p{N}]/u.test(w.text));
  const lineHeight = median(text.map((w) => height(w.box)));
  if (!lineHeight || text.length < UNREAD_MIN_WORDS) return [];
  const left = Math.max(0, Math.floor(Math.min(...text.map((w) => w.box[0]))));
  const right = Math.min(image.width, Math.ceil(Math.max(...text.map((w) => w.box[2]))));
  const top = Math.max(0, Math.floor(Math.min(...text.map((w) => w.box[1]))));
  const bottom = Math.min(image.height, Math.ceil(Math.max(...text.map((w) => w.box[3]))));
  if (right - left < 1) return [];
  const covered = new Uint8Array(image.height);
  for (const w of words) for (let y = Math.max(0, Math.floor(w.box[1])); y <= Math.min(image.height - 1, w.box[3]); y++) covered[y] = 1;
  const threshold = otsuThreshold(image);
  const inkShare = (y: number): number => {
    let dark = 0;
    for (let x = left; x < right; x++) if (image.data[y * image.width + x]! <= threshold) dark++;
    return dark / (right - left);
  };
  const bands: RereadRegion[] = [];
  let y = top;
  while (y < bottom) {
    if (covered[y] || inkShare(y) < UNREAD_ROW_INK) {
      y++;
      continue;
    }
    // Grow the band over rows with any ink and no word, up and down.
    let [from, to] = [y, y];
    while (from > top && !covered[from - 1] && inkShare(from - 1) > 0) from--;
    while (to + 1 < bottom && !covered[to + 1] && inkShare(to + 1) > 0) to++;
    const tall = to - from + 1;
    if (tall >= UNREAD_MIN_LINES * lineHeight && tall <= UNREAD_MAX_LINES * lineHeight) {
      const pad = Math.round(lineHeight / 3);
      bands.push({ kind: 'unread', box: [Math.max(0, left - pad), Math.max(0, from - pad), Math.min(image.width, right + pad), Math.min(image.height, to + 1 + pad)] });
    }
    y = to + 1;
  }
  return bands;
}

/** Black (0) at or below Otsu's threshold, white (255) above. */
export function binarised(image: GreyImage): GreyImage {
  const threshold = otsuThreshold(image);
  const data = new Uint8Array(image.data.length);
  for (let i = 0; i < data.length; i++) data[i] = image.data[i]! <= threshold ? 0 : 255;
  return { data, width: image.width, height: image.height };
}

/** What a reading of a region is worth: whether it parses as the region's kind, then its confidence per character. */
function worth(words: readonly OcrWord[], kind: RegionKind): { parses: boolean; confidence: number } {
  const chars = words.reduce((a, w) => a + w.text.length, 0);
  const confidence = chars ? words.reduce((a, w) => a + w.confidence * w.text.length, 0) / chars : 0;
  // Ink the first reading left unread holds text only where tesseract reads it surely: a logo, a stamp or a struck
  // line read alone gives weak fragments.
  const unreadText = (): boolean => confidence >= UNREAD_SURE && words.some((w) => /[\p{L}\p{N}]{2}/u.test(w.text));
  const parses = kind === 'amount' ? words.some((w) => AMOUNT.test(w.text)) : kind === 'date' ? DATE.test(words.map((w) => w.text).join(' ')) : kind === 'unread' ? unreadText() : words.length > 0;
  return { parses, confidence };
}

function better(a: { parses: boolean; confidence: number }, b: { parses: boolean; confidence: number }): boolean {
  if (a.parses !== b.parses) return a.parses;
  return a.confidence > b.confidence + CONFIDENCE_MARGIN;
}

const inside = (word: OcrWord, box: Box): boolean => {
  const [x, y] = [(word.box[0] + word.box[2]) / 2, centreY(word.box)];
  return x >= box[0] && x <= box[2] && y >= box[1] && y <= box[3];
};

/**
 * The page's words with its weak regions (weakRegions) read again by `read` on `image` (the image `words` were read
 * on), each region's better reading kept. `kinds`: the regions looked for (DEFAULT_KINDS); `variants`: the images
 * tried in turn, 0 the grey band, 1 the band binarised (a later one only where the earlier gave nothing of the kind).
 */
export async function rereadWeakRegions(
  image: GreyImage,
  words: readonly OcrWord[],
  read: ReadImage,
  options: { signal?: AbortSignal; kinds?: readonly RegionKind[]; variants?: readonly number[]; second?: SecondReader } = {},
): Promise<{ words: OcrWord[]; report: RereadReport }> {
  const { signal, kinds = DEFAULT_KINDS, variants = [0, 1] } = options;
  const started = performance.now();
  const regions = [...weakRegions(words, image.width, image.height, kinds), ...(kinds.includes('unread') ? unreadBands(image, words) : [])].slice(0, MAX_REGIONS);
  const keptVariant: number[] = [];
  let result = [...words];
  let replaced = 0;
  for (const [index, region] of regions.entries()) {
    signal?.throwIfAborted();
    // Unread ink has no first reading; its padding may reach a neighbour's word, which stays as it was read.
    const unread = region.kind === 'unread';
    const replaceable = (w: OcrWord): boolean => !unread && inside(w, region.box);
    const first = result.filter(replaceable);
    const crop = cropBox(image, region.box);
    const wordHeight = median(first.filter((w) => /[\p{L}\p{N}]/u.test(w.text)).map((w) => height(w.box))) ?? height(region.box) / 1.7;
    // Unread ink is large print (a double-height total): brought down to the size read best, or up to it.
    const enlarge = Math.min(MAX_ENLARGE, Math.max(unread ? MIN_UNREAD_SCALE : 1, TARGET_WORD_HEIGHT / Math.max(1, unread ? height(region.box) : wordHeight)));
    const grey = enlarge !== 1 ? await resizeGrey(crop.image, Math.round(crop.image.width * enlarge)) : crop.image;
    const factor = grey.width / crop.image.width;
    let best = { words: first, worth: worth(first, region.kind), replaced: false, variant: -1 };
    for (const variant of variants) {
      // The binarised reading only where the grey one did not already give what the region should hold.
      if (variant !== variants[0] && best.replaced && best.worth.parses) break;
      const read2 = (await read(variant === 0 ? grey : binarised(grey), unread ? PSM.SINGLE_BLOCK : PSM.SINGLE_LINE, factor)).filter((w) => /[\p{L}\p{N}]/u.test(w.text));
      const back = read2.map((w): OcrWord => ({
        ...w,
        box: [w.box[0] / factor + crop.left, w.box[1] / factor + crop.top, w.box[2] / factor + crop.left, w.box[3] / factor + crop.top],
        lineHeight: w.lineHeight / factor,
        lineKey: `reread.${index}`,
      }));
      const candidate = worth(back, region.kind);
      // Unread ink takes only a sure reading: there is no first reading to beat, and a weak one is a picture's noise.
      if (better(candidate, best.worth) && (!unread || candidate.parses)) best = { words: back, worth: candidate, replaced: true, variant };
    }
    if (region.kind === 'amount' && !best.worth.parses && options.second) {
      const reading = await options.second(crop.image);
      signal?.throwIfAborted();
      const withAmounts = reading && amountsJoined(first, reading, crop, `reread.${index}`);
      if (withAmounts) best = { words: withAmounts, worth: worth(withAmounts, region.kind), replaced: true, variant: 2 };
    }
    keptVariant.push(best.variant);
    if (!best.replaced) continue;
    replaced++;
    // The new words go where the first reading had the region's first word (tesseract's order, top to bottom).
    const firstIndex = result.findIndex(replaceable);
    const at = firstIndex >= 0 ? firstIndex : result.findIndex((w) => centreY(w.box) > centreY(region.box));
    const kept = result.filter((w) => !replaceable(w));
    const position = at < 0 ? kept.length : kept.indexOf(result.slice(at).find((w) => !replaceable(w))!);
    kept.splice(position < 0 ? kept.length : position, 0, ...best.words);
    result = kept;
  }
  return { words: result, report: { regions, replaced, kept: keptVariant, milliseconds: performance.now() - started } };
}

/** The second reader of a crop (lineRecognizer.ts), its character columns in the crop's pixels. */
export type SecondReader = (crop: GreyImage) => Promise<LineReading | null>;

/**
 * The band's first-reading words (`first`, image pixels) with the second reader's sure amounts joined: each of its
 * words (characters between its spaces) that holds an amount, reads as sure, and lies where the first reading has no
 * word or only a weak word without an amount (which it replaces). Null where it adds none.
 */
export function amountsJoined(first: readonly OcrWord[], reading: LineReading, crop: { left: number; top: number; image: GreyImage }, lineKey: string): OcrWord[] | null {
  const groups = wordsOfCharacters(reading.characters);
  const lineHeight = median(first.map((w) => w.lineHeight)) ?? crop.image.height;
  const [top, bottom] = first.length ? [Math.min(...first.map((w) => w.box[1])), Math.max(...first.map((w) => w.box[3]))] : [crop.top, crop.top + crop.image.height];
  let result = [...first];
  let added = 0;
  for (const group of groups) {
    const text = group.map((c) => c.char).join('');
    const probability = group.reduce((a, c) => a + c.probability, 0) / Math.max(1, group.length);
    if (!AMOUNT.test(text) || probability < PP_SURE || CJK.test(text)) continue;
    const box: Box = [crop.left + group[0]!.x0, top, crop.left + group.at(-1)!.x1, bottom];
    const centre = (box[0] + box[2]) / 2;
    const under = result.filter((w) => centre >= w.box[0] && centre <= w.box[2]);
    if (under.some((w) => AMOUNT.test(w.text) || w.confidence >= DOUBTFUL)) continue;
    // On the label's line (the first reading's words of the band), so layout keeps label and amount together.
    const word: OcrWord = { text, confidence: probability, box, lineKey: first.find((w) => isTotalLabel(w))?.lineKey ?? first[0]?.lineKey ?? lineKey, lineHeight, reader: 'pp-ocr' };
    result = [...result.filter((w) => !under.includes(w)), word].sort((a, b) => a.box[0] - b.box[0]);
    added++;
  }
  return added ? result : null;
}

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

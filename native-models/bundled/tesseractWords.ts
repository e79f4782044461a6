/**
 * Tesseract's result as Recto's OCR words: text, box, confidence in [0, 1], the line a word is on and that line's
 * height (the OCR's font size).
 */
import type { Worker } from 'tesseract.js';
import type { Box } from '../../app/model/extraction.js';
import type { LineRereadReport } from './lineRereadReport.js';
import type { QuarterTurns } from './pageOrientation.js';

export interface OcrWord {
  text: string;
  box: Box;
  /** 0–1. */
  confidence: number;
  /** Block/paragraph/line indices: words sharing it are on one tesseract line. */
  lineKey: string;
  /** Tesseract's row height of the word's line (ascender to descender), in pixels: the OCR's font size. */
  lineHeight: number;
  /** Set where a second reader's reading replaced tesseract's (lineReread.ts). */
  reader?: 'pp-ocr';
}

/** One page's OCR. */
export interface OcrPage {
  /** Words, boxes in the pixels of the page image turned upright by `turns`. */
  words: OcrWord[];
  /** Clockwise quarter turns that made the page image upright (0: read as it is). */
  turns: QuarterTurns;
  /** Degrees the upright page was straightened by before OCR (0 when left as is). */
  skew: number;
  /** Ruling lines seen in the page image (thin boxes), in the same pixels as `words`: evidence for tables. */
  rulings: Box[];
  /** What the second reader did on the page's weak lines (lineReread.ts), boxes in the same pixels as `words`. */
  lineReread?: LineRereadReport;
  /**
   * Where a mostly empty page was read (printRegion.ts: a receipt scanned on a whole sheet): the region its print
   * covers, in pixels of the page image as given (not turned); absent where the whole page was read.
   */
  printRegion?: Box;
  /** Where the page was read blurred (dot-matrix print, recognizePage.ts): the blur's sigma in OCR image pixels. */
  blurred?: number;
  /** Where the page's kept reading was thresholded locally (Sauvola's method, recognizePage.ts) rather than by Otsu's. */
  localThreshold?: true;
  /** The share of the page painted paper-grey as dark ground around the paper (darkSurround.ts). */
  groundPainted?: number;
  /** How many columns of a band of shaded paper at the page's edge were evened out before reading (edgeBands.ts). */
  bandColumns?: number;
}

type TesseractBlock = NonNullable<Awaited<ReturnType<Worker['recognize']>>['data']['blocks']>[number];

export function wordsOf(blocks: TesseractBlock[]): OcrWord[] {
  const words: OcrWord[] = [];
  blocks.forEach((block, b) =>
    block.paragraphs.forEach((paragraph, p) =>
      paragraph.lines.forEach((line, l) => {
        const rowHeight = line.rowAttributes?.rowHeight;
        const lineHeight = rowHeight && rowHeight > 0 ? rowHeight : line.bbox.y1 - line.bbox.y0;
        for (const word of line.words) {
          const text = word.text.trim();
          if (!text) continue;
          const { x0, y0, x1, y1 } = word.bbox;
          words.push({ text, box: [x0, y0, x1, y1], confidence: clamp01(word.confidence / 100), lineKey: `${b}.${p}.${l}`, lineHeight });
        }
      }),
    ),
  );
  return words;
}

function clamp01(value: number): number {
  return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0;
}

/** What the second reader (lineReread.ts) did on a page: kept apart so that tesseractWords.ts can name it. */
import type { Box } from '../../app/model/extraction.js';

export type Refusal = 'outside-dictionary' | 'cjk' | 'letters-in-digits' | 'length' | 'same' | 'weak-reading' | 'tesseract-sure' | 'empty';

/** What the second reader did on one line (for the bench's line-level CER and the tests). */
export interface LineRereadRecord {
  /** The line's box, in the pixels of the image the words were read on. */
  box: Box;
  tesseract: string;
  tesseractConfidence: number;
  pp: string;
  ppProbability: number;
  kept: boolean;
  refusal?: Refusal;
}

export interface LineRereadReport {
  /** Lines read again. */
  read: number;
  /** Lines whose PP reading replaced tesseract's. */
  replaced: number;
  milliseconds: number;
  lines: LineRereadRecord[];
  /** Why the second reader could not read (its model or runtime missing), where it could not. */
  unavailable?: string;
}


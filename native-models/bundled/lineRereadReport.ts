/** What the second reader (lineReread.ts) did on a page: kept apart so that tesseractWords.ts can name it. */
import type { Box } from '../../app/model/extraction.js';

/** Why PP's reading of a word was not kept (lineReread.ts, chooseWord and chooseHeaderWord). */
export type Refusal = 'tesseract-sure' | 'empty' | 'weak-reading' | 'cjk' | 'letters-in-digits' | 'digits-in-letters' | 'length' | 'same' | 'not-a-slip';

/** One of tesseract's words on a line read again: its reading, PP's characters of its cell, and the choice. */
export interface WordRecord {
  tesseract: string;
  confidence: number;
  pp: string;
  ppProbability: number;
  kept: boolean;
  refusal?: Refusal;
}

/** What the second reader did on one line (for the bench's line-level CER and the tests). */
export interface LineRereadRecord {
  /** The line's box, in the pixels of the image the words were read on. */
  box: Box;
  /** PP's reading of the whole line, and its mean character probability. */
  pp: string;
  ppProbability: number;
  /** Tesseract's words, left to right. */
  words: WordRecord[];
}

export interface LineRereadReport {
  /** Lines read again. */
  read: number;
  /** Words whose PP reading replaced tesseract's. */
  replaced: number;
  milliseconds: number;
  lines: LineRereadRecord[];
  /** Why the second reader could not read (its model or runtime missing), where it could not. */
  unavailable?: string;
}

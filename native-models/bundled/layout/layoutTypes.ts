/**
 * The layout's own small vocabulary. Layout is pure functions over words in page pixels, whichever source (PDF text
 * layer or OCR) the words came from; nothing here reads files or calls an engine.
 */
import type { Box, ElementKind } from '../../../app/model/extraction.js';

export interface LayoutWord {
  text: string;
  box: Box;
  /** 0–1; 1 for text-layer words. */
  confidence: number;
  /** Font size in page pixels: the PDF's own for text layers, the line's row height for OCR. */
  fontSize: number;
  fontName?: string;
  /** Words that the source put on one line share this key (OCR lines); absent for text layers. */
  lineKey?: string;
  /** Set on the one word that stands for a formula found in the text layer (formulas.ts): its LaTeX. */
  formula?: { latex: string; display: boolean };
}

/** A table found by detectTables: cells anchored top-left with spans, header rows first. */
export interface TableCellLayout {
  row: number;
  col: number;
  rowspan: number;
  colspan: number;
  header: boolean;
  /** Segments of the cell, top to bottom then left to right. */
  segments: Segment[];
  box: Box;
}

export interface TableLayout {
  rowCount: number;
  colCount: number;
  headerRowCount: number;
  cells: TableCellLayout[];
  /** Every segment of the table (for the page's word accounting). */
  segments: Segment[];
  box: Box;
  /** How it was found. */
  evidence: 'ruling-lines' | 'alignment';
}

/** A run of words on one baseline with no wide gap inside: a line, or one cell of a table row. */
export interface Segment {
  words: LayoutWord[];
  box: Box;
  /** Median font size of its words. */
  fontSize: number;
  /** Set on the one stand-in segment of a detected table while reading order places it (no words of its own). */
  table?: TableLayout;
  /** Set on the one stand-in segment of an image's text (read by OCR on a text-layer page) while reading order places it. */
  figure?: FigureText;
}

/** The text read inside one image of a text-layer page: its own element, placed in reading order by its box. */
export interface FigureText {
  words: LayoutWord[];
}

/** Segments side by side at the same height, left to right. */
export interface Row {
  segments: Segment[];
  box: Box;
  fontSize: number;
}

/** A paragraph-like group of rows, the unit that becomes one Markdown block and one Element. */
export interface LayoutBlock {
  rows: Row[];
  box: Box;
  kind: ElementKind;
  /** Heading level 1–6 for `title` / `heading`. */
  level?: number;
  /** For kind `table`: its rows, columns and cells (rows above then hold the table's segments by row). */
  table?: TableLayout;
}

export function unionBox(boxes: readonly Box[]): Box {
  let [x1, y1, x2, y2] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const box of boxes) {
    x1 = Math.min(x1, box[0]);
    y1 = Math.min(y1, box[1]);
    x2 = Math.max(x2, box[2]);
    y2 = Math.max(y2, box[3]);
  }
  return [x1, y1, x2, y2];
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export const boxHeight = (box: Box): number => box[3] - box[1];
export const boxWidth = (box: Box): number => box[2] - box[0];

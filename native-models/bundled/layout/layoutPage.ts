/**
 * Layout: words → segments → tables (alignment / ruling lines) → reading-order regions → paragraph blocks →
 * headings → running headers, footers, page numbers → Markdown + Elements. Pure.
 */
import type { Box } from '../../../app/model/extraction.js';
import { buildBlocks, classifyHeadings, OCR_HEADINGS, TEXT_LAYER_HEADINGS } from './buildBlocks.js';
import { buildRows, buildSegments } from './buildSegments.js';
import { moveColumnFootnotes } from './columnFootnotes.js';
import { detectTables } from './detectTables.js';
import { foldFormulas } from './formulas.js';
import { joinHyphenatedLines, type HyphenationLanguage } from './hyphenation.js';
import { unionBox, type FigureText, type LayoutBlock, type LayoutWord, type Segment } from './layoutTypes.js';
import { dropOverprintedWords } from './overprint.js';
import { markPageFurniture } from './pageFurniture.js';
import { orderRegions } from './readingOrder.js';
import { renderMarkdown, type RenderedPage } from './renderMarkdown.js';

export interface LayoutPageOptions {
  /** Where the words came from: decides how far font sizes can be trusted for headings. */
  source: 'text-layer' | 'ocr';
  pageHeight: number;
  /** Ruling lines drawn on the page (thin boxes), where the source knows them: evidence for tables. */
  rulings?: readonly Box[];
  /** Set false to leave tables as rows of text (v1 behaviour). Default true. */
  tables?: boolean;
  /** Text read by OCR inside images of a text-layer page (hybrid pages): one `figure` element each, in reading order. */
  figures?: readonly FigureText[];
  /** Set false to write formulas as plain words. Default true; formulas are read from text layers only (OCR words
   * carry no fonts and one size per line). */
  formulas?: boolean;
  /** The page's language with its lexicon, where the engine knows them: decides line-end hyphens the page's own words
   * cannot (hyphenation.ts). Absent: the page's words alone decide. */
  language?: HyphenationLanguage;
}

export function layoutBlocks(words: readonly LayoutWord[], options: LayoutPageOptions): LayoutBlock[] {
  const visible = dropOverprintedWords(words.filter((word) => word.text.trim().length > 0));
  // Formulas first: their scripts, limits and fraction parts must not become lines of their own.
  const folded = options.formulas === false || options.source !== 'text-layer' ? { words: visible, rulings: options.rulings } : foldFormulas(visible, options.rulings);
  const segments = buildSegments(folded.words);
  const { tables, rest } = options.tables === false ? { tables: [], rest: segments } : detectTables(segments, { rulings: folded.rulings });
  // Each table takes part in reading order as one stand-in segment the size of the table.
  const standIns: Segment[] = tables.map((table) => ({ words: [], box: table.box, fontSize: 0, table }));
  // So does the text of each image (hybrid pages), the size of the text found in it.
  const figureStandIns: Segment[] = (options.figures ?? [])
    .filter((figure) => figure.words.length > 0)
    .map((figure) => ({ words: [], box: unionBox(figure.words.map((word) => word.box)), fontSize: 0, figure }));
  const regions = orderRegions([...rest, ...standIns, ...figureStandIns]);
  const blocks = regions.flatMap((region) => {
    const text = region.filter((segment) => !segment.table && !segment.figure);
    const tableBlocks: LayoutBlock[] = region.flatMap((segment): LayoutBlock[] => {
      if (segment.table) return [{ kind: 'table', box: segment.table.box, rows: buildRows(segment.table.segments), table: segment.table }];
      if (segment.figure) return [{ kind: 'figure', box: segment.box, rows: buildRows(buildSegments(segment.figure.words)) }];
      return [];
    });
    const textBlocks = text.length ? buildBlocks(text) : [];
    return [...textBlocks, ...tableBlocks].sort(readingCompare);
  });
  const headed = classifyHeadings(blocks, options.source === 'ocr' ? OCR_HEADINGS : TEXT_LAYER_HEADINGS);
  return joinHyphenatedLines(moveColumnFootnotes(markPageFurniture(headed, options.pageHeight, folded.rulings ?? options.rulings)), options.language);
}

/** Top to bottom; tables level with each other (set side by side) left to right, whichever starts a little higher. */
function readingCompare(a: LayoutBlock, b: LayoutBlock): number {
  if (a.table && b.table) {
    const overlap = Math.min(a.box[3], b.box[3]) - Math.max(a.box[1], b.box[1]);
    if (overlap > 0.5 * Math.min(a.box[3] - a.box[1], b.box[3] - b.box[1])) return a.box[0] - b.box[0];
  }
  return a.box[1] - b.box[1];
}

export function layoutPage(words: readonly LayoutWord[], options: LayoutPageOptions): RenderedPage {
  return renderMarkdown(layoutBlocks(words, options));
}

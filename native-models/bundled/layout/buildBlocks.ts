/**
 * Rows of one reading-order region → paragraph blocks; then headings by size across the page.
 */
import { buildRows } from './buildSegments.js';
import { boxHeight, median, unionBox, type LayoutBlock, type Row, type Segment } from './layoutTypes.js';

/** A vertical gap of more than this many row heights starts a new paragraph. */
const PARAGRAPH_GAP = 0.7;
/** A font-size change beyond this ratio starts a new paragraph. */
const SIZE_CHANGE = 1.2;

export function buildBlocks(region: readonly Segment[]): LayoutBlock[] {
  const rows = buildRows(region);
  const blocks: LayoutBlock[] = [];
  let current: Row[] = [];
  for (const row of rows) {
    const previous = current.at(-1);
    // A list begins its own block (its items stay together in it).
    if (previous && (startsNewParagraph(previous, row) || (startsListItem(row) && !startsListItem(current[0])))) {
      blocks.push(toBlock(current));
      current = [];
    }
    current.push(row);
  }
  if (current.length) blocks.push(toBlock(current));
  return blocks;
}

/** A line typed of rule characters only (a head's underline, a signature line): at least this many of them. */
const TYPED_RULE_MIN_CHARS = 5;

/** A row that is only `_`, `-`, `—`, `=`, `.` or `·` characters: a rule typed as text. */
export function isTypedRule(row: Row): boolean {
  const text = row.segments.flatMap((segment) => segment.words.map((word) => word.text)).join('');
  return text.length >= TYPED_RULE_MIN_CHARS && /^[_\-–—=.·‾]+$/u.test(text);
}

function startsNewParagraph(previous: Row, row: Row): boolean {
  // A typed rule stands on its own: it parts a running head from the body below it.
  if (isTypedRule(previous) || isTypedRule(row)) return true;
  const height = Math.min(boxHeight(previous.box), boxHeight(row.box));
  const gap = row.box[1] - previous.box[3];
  const sizeRatio = Math.max(previous.fontSize, row.fontSize) / Math.max(1e-6, Math.min(previous.fontSize, row.fontSize));
  return gap > PARAGRAPH_GAP * height || sizeRatio > SIZE_CHANGE;
}

function toBlock(rows: Row[]): LayoutBlock {
  return { rows, box: unionBox(rows.map((row) => row.box)), kind: startsListItem(rows[0]) ? 'list' : 'text' };
}

/** A bullet glyph, or a number followed by `.`/`)` and text, at the start of the row. */
function startsListItem(row: Row): boolean {
  const words = row.segments.flatMap((segment) => segment.words);
  const first = words[0]?.text ?? '';
  return (/^[•●▪■◦○·‣⁃]$/u.test(first) && words.length > 1) || (/^\d{1,3}[.)]$/u.test(first) && words.length > 1);
}

export interface HeadingOptions {
  /** A block is a heading when its font size is at least this multiple of the page's body size. */
  minRatio: number;
  /** Headings are short: at most this many rows and characters. */
  maxRows: number;
  maxChars: number;
}

/** Text layers know their font sizes; OCR sizes are word heights, noisier, so need a wider margin. */
export const TEXT_LAYER_HEADINGS: HeadingOptions = { minRatio: 1.2, maxRows: 2, maxChars: 150 };
export const OCR_HEADINGS: HeadingOptions = { minRatio: 1.35, maxRows: 2, maxChars: 150 };

/**
 * Marks large-type short blocks as headings, levels by size (largest = 1). The body size is the character-weighted
 * median font size of the page, so a page of mostly small print still has its own body size.
 */
export function classifyHeadings(blocks: LayoutBlock[], options: HeadingOptions): LayoutBlock[] {
  const sizes: number[] = [];
  for (const block of blocks) {
    if (block.kind === 'figure') continue; // sized by the OCR, not the page's type
    for (const row of block.rows) {
      for (const segment of row.segments) {
        for (const word of segment.words) for (let i = 0; i < word.text.length; i++) sizes.push(word.fontSize);
      }
    }
  }
  const body = median(sizes);
  if (body <= 0) return blocks;
  const headingSizes: number[] = [];
  const isHeading = blocks.map((block) => {
    if (block.table || block.kind === 'figure') return false;
    const size = blockFontSize(block);
    const ok =
      size >= options.minRatio * body &&
      block.rows.length <= options.maxRows &&
      blockChars(block) <= options.maxChars &&
      mostlyLetters(block);
    if (ok) headingSizes.push(size);
    return ok;
  });
  // Sizes within 10% of each other share a level.
  const levels: number[] = [];
  for (const size of [...headingSizes].sort((a, b) => b - a)) {
    if (levels.length === 0 || size < levels[levels.length - 1] / 1.1) levels.push(size);
  }
  return blocks.map((block, index) => {
    if (!isHeading[index]) return block;
    const size = blockFontSize(block);
    const rank = levels.findIndex((levelSize) => size >= levelSize / 1.1);
    const level = Math.min(6, (rank < 0 ? levels.length - 1 : rank) + 1);
    return { ...block, kind: level === 1 ? 'title' : 'heading', level };
  });
}

/** Large numbers (an account number, a total) are emphasis, not headings. */
function mostlyLetters(block: LayoutBlock): boolean {
  const text = block.rows.flatMap((row) => row.segments.flatMap((s) => s.words.map((w) => w.text))).join('');
  const letters = text.match(/\p{L}/gu)?.length ?? 0;
  return letters >= 2 && letters >= 0.5 * text.length;
}

export function blockFontSize(block: LayoutBlock): number {
  return median(block.rows.map((row) => row.fontSize));
}

function blockChars(block: LayoutBlock): number {
  return block.rows.reduce(
    (sum, row) => sum + row.segments.reduce((s, seg) => s + seg.words.reduce((w, word) => w + word.text.length + 1, 0), 0),
    0,
  );
}

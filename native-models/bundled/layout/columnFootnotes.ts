/**
 * Notes at the foot of a column. In a two-column paper the left column's footnotes or copyright notice sit between the
 * left column's last line and the right column's first, and the sentence the left column breaks off goes on at the top
 * of the right column ("…client-side web programming" | "and is used for…"). Read in column order, the small print
 * would cut that sentence in two. A run of blocks in small type after which reading jumps up into the next column is
 * such a note: it becomes a `footnote` block and is read after the page's body.
 */
import { blockFontSize } from './buildBlocks.js';
import { median, type LayoutBlock } from './layoutTypes.js';

/** Small type: at most this share of the page's body size (footnotes are set a point or two smaller than the text). */
const FOOTNOTE_SIZE = 0.9;

const MOVABLE_KINDS: ReadonlySet<LayoutBlock['kind']> = new Set(['text', 'list', 'footnote']);
const FURNITURE: ReadonlySet<LayoutBlock['kind']> = new Set(['header', 'footer', 'page-number']);

/** Character-weighted median font size of the page's words. */
function bodySize(blocks: readonly LayoutBlock[]): number {
  const sizes: number[] = [];
  for (const block of blocks) {
    if (block.table || block.kind === 'figure') continue;
    for (const row of block.rows) for (const segment of row.segments) for (const word of segment.words) for (let i = 0; i < word.text.length; i++) sizes.push(word.fontSize);
  }
  return median(sizes);
}

export function moveColumnFootnotes(blocks: readonly LayoutBlock[]): LayoutBlock[] {
  const body = bodySize(blocks);
  if (body <= 0) return [...blocks];
  const small = (block: LayoutBlock): boolean => MOVABLE_KINDS.has(block.kind) && !block.table && blockFontSize(block) <= FOOTNOTE_SIZE * body;
  const moved = new Set<number>();
  for (let i = 0; i < blocks.length; i++) {
    if (!small(blocks[i])) continue;
    // The run of small-print blocks starting here, and the body block that follows it in reading order.
    let end = i;
    while (end + 1 < blocks.length && (small(blocks[end + 1]) || FURNITURE.has(blocks[end + 1].kind))) end++;
    const next = blocks[end + 1];
    const run = blocks.slice(i, end + 1).filter((block) => !FURNITURE.has(block.kind));
    const runTop = Math.min(...run.map((block) => block.box[1]));
    const runRight = Math.max(...run.map((block) => block.box[2]));
    // Reading goes on higher up and to the right: the next column. The note sits at the foot of the column before it.
    if (next && !next.table && next.box[1] < runTop && next.box[0] >= runRight - 0.05 * (runRight - run[0].box[0])) {
      for (let k = i; k <= end; k++) if (!FURNITURE.has(blocks[k].kind)) moved.add(k);
    }
    i = end;
  }
  if (moved.size === 0) return [...blocks];
  const notes = blocks.filter((_, index) => moved.has(index)).map((block): LayoutBlock => ({ ...block, kind: 'footnote', level: undefined }));
  return [...blocks.filter((_, index) => !moved.has(index)), ...notes];
}

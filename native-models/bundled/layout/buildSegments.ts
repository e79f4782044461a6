/**
 * Words → rows → segments. A row is everything on one baseline; it is cut into segments wherever the gap between two
 * words is much wider than a space, so that a label and its value far to the right, or two columns, stay apart
 * until reading order decides how to join them.
 */
import { boxHeight, median, unionBox, type LayoutWord, type Row, type Segment } from './layoutTypes.js';

/** Gap between words, as a fraction of the row's median word height, beyond which a row is cut. */
const SEGMENT_GAP = 0.8;
/** Vertical overlap (of the smaller height) for two boxes to count as the same row. */
const ROW_OVERLAP = 0.5;
/**
 * Boxes that overlap horizontally by more than this fraction of the smaller height are on different lines. Less is
 * touching, not stacking: a formula's box ends a hundredth of a pixel into the full stop set after it.
 */
const CLASH_SLACK = 0.1;

export function buildSegments(words: readonly LayoutWord[]): Segment[] {
  const segments: Segment[] = [];
  for (const line of groupIntoLines(words)) segments.push(...cutAtGaps(line));
  return segments;
}

/** Lines of words sorted left to right: the source's own lines where it has them (OCR), else rows by overlap. */
function groupIntoLines(words: readonly LayoutWord[]): LayoutWord[][] {
  const keyed = new Map<string, LayoutWord[]>();
  const loose: LayoutWord[] = [];
  for (const word of words) {
    if (word.lineKey === undefined) loose.push(word);
    else keyed.set(word.lineKey, [...(keyed.get(word.lineKey) ?? []), word]);
  }
  const lines = [...keyed.values(), ...clusterRows(loose, (word) => word.box).map((row) => row.items)];
  return lines.map((line) => [...line].sort((a, b) => a.box[0] - b.box[0]));
}

function cutAtGaps(line: readonly LayoutWord[]): Segment[] {
  const gapLimit = SEGMENT_GAP * median(line.map((word) => boxHeight(word.box)));
  const segments: Segment[] = [];
  let current: LayoutWord[] = [];
  for (const word of line) {
    const previous = current.at(-1);
    if (previous && word.box[0] - previous.box[2] > gapLimit) {
      segments.push(toSegment(current));
      current = [];
    }
    current.push(word);
  }
  if (current.length) segments.push(toSegment(current));
  return segments;
}

export function toSegment(words: LayoutWord[]): Segment {
  return {
    words,
    box: unionBox(words.map((word) => word.box)),
    fontSize: median(words.map((word) => word.fontSize)),
  };
}

/** Segments grouped into rows (same height on the page), rows top to bottom, segments left to right. */
export function buildRows(segments: readonly Segment[]): Row[] {
  return clusterRows(segments, (segment) => segment.box).map(({ items }) => {
    const sorted = [...items].sort((a, b) => a.box[0] - b.box[0]);
    return {
      segments: sorted,
      box: unionBox(sorted.map((segment) => segment.box)),
      fontSize: median(sorted.map((segment) => segment.fontSize)),
    };
  });
}

/**
 * Greedy row clustering: items sorted by vertical centre join the row they overlap vertically by at least
 * ROW_OVERLAP of the smaller height, provided they do not overlap an item of that row horizontally (beyond
 * CLASH_SLACK).
 */
function clusterRows<T>(
  items: readonly T[],
  boxOf: (item: T) => readonly [number, number, number, number],
): Array<{ items: T[]; top: number; bottom: number }> {
  const sorted = [...items].sort((a, b) => centreY(boxOf(a)) - centreY(boxOf(b)));
  const rows: Array<{ items: T[]; top: number; bottom: number }> = [];
  for (const item of sorted) {
    const box = boxOf(item);
    // Only the last few rows can still overlap an item that comes later in centre order.
    let joined = false;
    for (let r = rows.length - 1; r >= Math.max(0, rows.length - 4) && !joined; r--) {
      const row = rows[r];
      const overlap = Math.min(row.bottom, box[3]) - Math.max(row.top, box[1]);
      const smaller = Math.min(row.bottom - row.top, box[3] - box[1]);
      const clashes = row.items.some((other) => overlapsOnPage(boxOf(other), box));
      if (smaller > 0 && overlap >= ROW_OVERLAP * smaller && !clashes) {
        row.items.push(item);
        row.top = Math.min(row.top, box[1]);
        row.bottom = Math.max(row.bottom, box[3]);
        joined = true;
      }
    }
    if (!joined) rows.push({ items: [item], top: box[1], bottom: box[3] });
  }
  return rows.sort((a, b) => a.top + a.bottom - (b.top + b.bottom));
}

/** Two boxes that cannot sit side by side on one line: they overlap horizontally beyond touching. */
function overlapsOnPage(a: readonly number[], b: readonly number[]): boolean {
  const overlap = Math.min(a[2], b[2]) - Math.max(a[0], b[0]);
  const height = Math.min(a[3] - a[1], b[3] - b[1]);
  // Boxes with the same top and bottom are one line whose widths were estimated too wide ("Derivat" "ives"), up to
  // half the narrower word.
  const level = Math.abs(a[1] - b[1]) <= CLASH_SLACK * height && Math.abs(a[3] - b[3]) <= CLASH_SLACK * height;
  return overlap > (level ? 0.5 * Math.min(a[2] - a[0], b[2] - b[0]) : CLASH_SLACK * height);
}

const centreY = (box: readonly number[]): number => (box[1] + box[3]) / 2;

/**
 * Reading order by a recursive XY-cut over segments, columns first:
 *  1. if a vertical gutter runs through the whole region and both sides look like columns of text, read the left
 *     side, then the right;
 *  2. else cut the region at wide horizontal gaps and read the bands top to bottom;
 *  3. else, if a gutter runs through the region with a table on one side only, read the side by side: a column of
 *     label/value lines beside a table is one column (its labels stay with their values), and whatever the other side
 *     sets above it (a page title over the table) is read first (splitBesideTable);
 *  4. else, if a gutter runs through the region between two blocks that each stand on their own (an address beside
 *     the invoice's details: sideBySideBlocks), read the left block, then the right;
 *  5. else the region is a leaf, read row by row.
 * Trying columns before bands keeps a two-column page with aligned baselines from being read across the gutter.
 * The column test is strict on purpose: label/value pairs and table columns of invoices are ragged and narrow, and
 * must stay in rows (read like `pdftotext -layout`), not be read one column after the other.
 */
import { boxHeight, boxWidth, median, unionBox, type Segment } from './layoutTypes.js';
import { sidesAreBlocks } from './sideBySideBlocks.js';

/** A horizontal gap at least this many median segment heights tall separates bands. */
const BAND_GAP = 1.2;
/** A gutter must be at least this many median segment heights wide. */
const GUTTER_WIDTH = 1.5;
/**
 * A narrower gutter (set tight, as in a two-column voucher or leaflet) still parts columns when it is clean for many
 * lines: both sides hold at least NARROW_GUTTER_MIN_SEGMENTS lines and pass the column test. Segments are already cut
 * at gaps wider than a word space (buildSegments), so a gap this wide that runs down that many lines is no accident.
 */
const NARROW_GUTTER = 0.5;
const NARROW_GUTTER_MIN_SEGMENTS = 8;
/**
 * Each column must be at least this fraction of the page's width (the extent of all its words) … — prose columns
 * are; an invoice's label and value columns are not, even when their rows look like short columns.
 */
const COLUMN_MIN_SHARE = 0.3;
/** … and its segments must fill on average at least this fraction of the column's width (prose, not a table). */
const COLUMN_MIN_FILL = 0.6;
/** … and hold at least this many segments. */
const COLUMN_MIN_SEGMENTS = 3;

/** A gap of at least this many median segment heights parts a trailer from the block above it (a paragraph gap). */
const TRAILER_GAP = 0.7;
/** … and at least this many times the widest gap between the lines above it on its side. */
const TRAILER_OVER_LINE_GAP = 1.5;

/** A column beside a table has at least this many lines level with the table. */
const BESIDE_MIN_LINES = 2;

/** Leaves of the cut, in reading order; each leaf is read row by row. */
export function orderRegions(segments: readonly Segment[]): Segment[][] {
  if (segments.length === 0) return [];
  const unit = median(segments.map((segment) => boxHeight(segment.box))) || 1;
  const textWidth = boxWidth(unionBox(segments.map((segment) => segment.box)));
  const leaves: Segment[][] = [];
  const visit = (region: Segment[], depth: number): void => {
    if (region.length <= 1 || depth > 32) {
      leaves.push(region);
      return;
    }
    const columns = splitColumns(region, unit, textWidth);
    if (columns) {
      for (const column of columns) visit(column, depth + 1);
      return;
    }
    const bands = splitBands(region, unit);
    if (bands.length > 1) {
      for (const band of bands) visit(band, depth + 1);
      return;
    }
    const sides = splitBesideTable(region, unit) ?? splitBlocks(region, unit);
    if (sides) {
      for (const side of sides) visit(side, depth + 1);
      return;
    }
    leaves.push(region);
  };
  visit([...segments], 0);
  return leaves;
}

/** [left, right] when a gutter splits the region into two text columns, else null. Picks the widest gutter. */
function splitColumns(region: Segment[], unit: number, textWidth: number): [Segment[], Segment[]] | null {
  const gaps = coverageGaps(region.map((segment) => [segment.box[0], segment.box[2]] as const));
  const candidates = gaps.filter(([start, end]) => end - start >= NARROW_GUTTER * unit).sort((a, b) => b[1] - b[0] - (a[1] - a[0]));
  for (const [start, end] of candidates) {
    const left = region.filter((segment) => segment.box[2] <= start);
    const right = region.filter((segment) => segment.box[2] > start);
    const narrow = end - start < GUTTER_WIDTH * unit;
    if (narrow && Math.min(left.length, right.length) < NARROW_GUTTER_MIN_SEGMENTS) continue;
    if (looksLikeColumn(left, textWidth) && looksLikeColumn(right, textWidth)) return [left, right];
  }
  return splitTightColumns(region, unit, textWidth);
}

/**
 * Columns set so tight that the line-builder joined each left line to the right line beside it (the gutter is about
 * a word space and a half): the gutter is found among the words, not the segments, and every segment is cut there.
 */
function splitTightColumns(region: Segment[], unit: number, textWidth: number): [Segment[], Segment[]] | null {
  if (region.some((segment) => segment.table) || region.length < NARROW_GUTTER_MIN_SEGMENTS) return null;
  const words = region.flatMap((segment) => segment.words);
  const gaps = coverageGaps(words.map((word) => [word.box[0], word.box[2]] as const));
  const candidates = gaps.filter(([start, end]) => end - start >= NARROW_GUTTER * unit).sort((a, b) => b[1] - b[0] - (a[1] - a[0]));
  for (const [start] of candidates) {
    const left: Segment[] = [];
    const right: Segment[] = [];
    for (const segment of region) {
      const [l, r] = [segment.words.filter((word) => word.box[2] <= start), segment.words.filter((word) => word.box[2] > start)];
      if (l.length) left.push(segmentOf(l));
      if (r.length) right.push(segmentOf(r));
    }
    if (Math.min(left.length, right.length) < NARROW_GUTTER_MIN_SEGMENTS) continue;
    if (looksLikeColumn(left, textWidth) && looksLikeColumn(right, textWidth)) return [left, right];
  }
  return null;
}

function segmentOf(words: Segment['words']): Segment {
  return { words, box: unionBox(words.map((word) => word.box)), fontSize: median(words.map((word) => word.fontSize)) };
}

function looksLikeColumn(side: Segment[], textWidth: number): boolean {
  if (side.length < COLUMN_MIN_SEGMENTS) return false;
  const width = boxWidth(unionBox(side.map((segment) => segment.box)));
  if (width < COLUMN_MIN_SHARE * textWidth) return false;
  // Character-weighted: the many short fragments of inline math or a figure's labels weigh what their text weighs.
  let chars = 0;
  let filled = 0;
  for (const segment of side) {
    const n = segment.words.reduce((sum, word) => sum + word.text.length, 0);
    chars += n;
    filled += (n * boxWidth(segment.box)) / width;
  }
  return chars > 0 && filled / chars >= COLUMN_MIN_FILL;
}

/**
 * [header, left, right] (empty parts left out) when a gutter splits the region into a side holding a table and a
 * side of text only that sits beside it, else null. Read row by row, the lines beside a table would interleave with
 * it by their tops, and a label whose value starts below the table's top would be parted from it. The header is the
 * run of text that the side starting higher sets above the other side's first line, and the other side's opening
 * lines in heading type above the table: a title over the table is read before the column beside the table, not
 * after it, even when a logo beside the title starts higher.
 */
function splitBesideTable(region: Segment[], unit: number): Segment[][] | null {
  if (!region.some((segment) => segment.table)) return null;
  const gaps = coverageGaps(region.map((segment) => [segment.box[0], segment.box[2]] as const));
  const candidates = gaps.filter(([start, end]) => end - start >= GUTTER_WIDTH * unit).sort((a, b) => b[1] - b[0] - (a[1] - a[0]));
  for (const [start] of candidates) {
    const left = region.filter((segment) => segment.box[2] <= start);
    const right = region.filter((segment) => segment.box[2] > start);
    const tableSide = left.some((segment) => segment.table) ? left : right;
    const textSide = tableSide === left ? right : left;
    if (textSide.some((segment) => segment.table)) continue;
    // Lines of text: a running title set upright in the margin (words taller than wide) is no column of its own.
    if (textSide.some((segment) => segmentChars(segment) >= 3 && boxWidth(segment.box) < boxHeight(segment.box))) continue;
    const tables = tableSide.filter((segment) => segment.table);
    const beside = textSide.filter((text) => tables.some((table) => Math.min(text.box[3], table.box[3]) - Math.max(text.box[1], table.box[1]) > 0));
    if (beside.length < BESIDE_MIN_LINES) continue;
    // Two parts of the header, each read on its own: a logo's words level with the title are not one line with it.
    const { above, headings } = headerAbove(left, right);
    const rest = (side: Segment[]): Segment[] => side.filter((segment) => !above.includes(segment) && !headings.includes(segment));
    return [above, headings, rest(left), rest(right)].filter((part) => part.length > 0);
  }
  return null;
}

/**
 * [left, right, trailer] (an empty trailer left out) when a gutter parts two blocks of text that each stand on their
 * own, else null; widest gutter first. The trailer is what the side reaching lower sets under the other side's last
 * line after a paragraph gap ("Bill to:" under the sender's address, when the invoice's details beside the address
 * end above it): it follows both blocks rather than ending the one.
 */
function splitBlocks(region: Segment[], unit: number): Segment[][] | null {
  if (region.some((segment) => segment.table)) return null;
  const gaps = coverageGaps(region.map((segment) => [segment.box[0], segment.box[2]] as const));
  const candidates = gaps.filter(([start, end]) => end - start >= GUTTER_WIDTH * unit).sort((a, b) => b[1] - b[0] - (a[1] - a[0]));
  for (const [start, end] of candidates) {
    const left = region.filter((segment) => segment.box[2] <= start);
    const right = region.filter((segment) => segment.box[2] > start);
    if (!sidesAreBlocks(left, right, end - start, unit)) continue;
    const trailer = trailerBelow(left, right, unit);
    const rest = (side: Segment[]): Segment[] => side.filter((segment) => !trailer.includes(segment));
    return [rest(left), rest(right), trailer].filter((part) => part.length > 0);
  }
  return null;
}

/**
 * The lines of the side reaching lower from the first one under the other side's end that a gap parts from those
 * above: a paragraph gap, and wider than any between the lines above it (on a page set with airy line spacing every
 * line is a paragraph of its own).
 */
function trailerBelow(left: Segment[], right: Segment[], unit: number): Segment[] {
  const bottom = (side: Segment[]): number => Math.max(...side.map((segment) => segment.box[3]));
  const [lower, other] = bottom(left) >= bottom(right) ? [left, right] : [right, left];
  const otherBottom = bottom(other);
  const sorted = [...lower].sort((a, b) => a.box[1] - b.box[1]);
  let reach = -Infinity;
  let widestGap = 0;
  for (let i = 0; i < sorted.length; i++) {
    const segment = sorted[i];
    const gap = segment.box[1] - reach;
    if (segment.box[1] >= otherBottom && gap > Math.max(TRAILER_GAP * unit, TRAILER_OVER_LINE_GAP * widestGap)) return sorted.slice(i);
    if (i > 0) widestGap = Math.max(widestGap, gap);
    reach = Math.max(reach, segment.box[3]);
  }
  return [];
}

/** The leading text of the side that starts higher, down to the other side's first line (not into a table). */
function headerAbove(left: Segment[], right: Segment[]): { above: Segment[]; headings: Segment[] } {
  const top = (side: Segment[]): number => Math.min(...side.map((segment) => segment.box[1]));
  const [higher, other] = top(left) <= top(right) ? [left, right] : [right, left];
  // The other side's opening lines set in heading type above the table (the page title beside a logo that starts a
  // little higher) are the page's header too: read before the column beside the table, not after it. A heading that
  // opens the side lower down (a chart's title beside the table) stays with its side.
  const body = median([...left, ...right].map((segment) => segment.fontSize));
  const tableTop = Math.min(...[...left, ...right].filter((segment) => segment.table).map((segment) => segment.box[1]));
  const headings: Segment[] = [];
  for (const segment of [...other].sort((a, b) => a.box[1] - b.box[1])) {
    if (segment.table || !(segment.fontSize >= HEADER_HEADING_SIZE * body) || segment.box[3] > tableTop) break;
    headings.push(segment);
  }
  const otherTop = top(other.filter((segment) => !headings.includes(segment)));
  const above: Segment[] = [];
  for (const segment of [...higher].sort((a, b) => a.box[1] - b.box[1])) {
    // Less than half its height reaching the other side's first line: above it, not beside it.
    if (segment.table || segment.box[3] - otherTop > 0.5 * boxHeight(segment.box)) break;
    above.push(segment);
  }
  return { above, headings };
}

/** A line this many times the region's median type size (or more) reads as a heading when it opens a side. */
const HEADER_HEADING_SIZE = 1.3;

const segmentChars = (segment: Segment): number => segment.words.reduce((sum, word) => sum + word.text.length, 0);

/** Bands separated by horizontal gaps of at least BAND_GAP units, top to bottom. */
function splitBands(region: Segment[], unit: number): Segment[][] {
  const sorted = [...region].sort((a, b) => a.box[1] - b.box[1]);
  const bands: Segment[][] = [];
  let bottom = -Infinity;
  for (const segment of sorted) {
    if (bands.length === 0 || segment.box[1] - bottom >= BAND_GAP * unit) bands.push([]);
    bands[bands.length - 1].push(segment);
    bottom = Math.max(bottom, segment.box[3]);
  }
  return bands;
}

/** Uncovered intervals strictly between the leftmost start and the rightmost end of the given intervals. */
export function coverageGaps(intervals: ReadonlyArray<readonly [number, number]>): Array<[number, number]> {
  const sorted = [...intervals].sort((a, b) => a[0] - b[0]);
  const gaps: Array<[number, number]> = [];
  let reach = -Infinity;
  for (const [start, end] of sorted) {
    if (reach !== -Infinity && start > reach) gaps.push([reach, start]);
    reach = Math.max(reach, end);
  }
  return gaps;
}

/**
 * Reading order by a recursive XY-cut over segments, columns first:
 *  1. if a vertical gutter runs through the whole region and both sides look like columns of text, read the left
 *     side, then the right;
 *  2. else cut the region at wide horizontal gaps and read the bands top to bottom;
 *  3. else the region is a leaf, read row by row.
 * Trying columns before bands keeps a two-column page with aligned baselines from being read across the gutter.
 * The column test is strict on purpose: label/value pairs and table columns of invoices are ragged and narrow, and
 * must stay in rows (read like `pdftotext -layout`), not be read one column after the other.
 */
import { boxHeight, boxWidth, median, unionBox, type Segment } from './layoutTypes.js';

/** A horizontal gap at least this many median segment heights tall separates bands. */
const BAND_GAP = 1.2;
/** A gutter must be at least this many median segment heights wide. */
const GUTTER_WIDTH = 1.5;
/**
 * Each column must be at least this fraction of the page's width (the extent of all its words) … — prose columns
 * are; an invoice's label and value columns are not, even when their rows look like short columns.
 */
const COLUMN_MIN_SHARE = 0.3;
/** … and its segments must fill on average at least this fraction of the column's width (prose, not a table). */
const COLUMN_MIN_FILL = 0.6;
/** … and hold at least this many segments. */
const COLUMN_MIN_SEGMENTS = 3;

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
    leaves.push(region);
  };
  visit([...segments], 0);
  return leaves;
}

/** [left, right] when a gutter splits the region into two text columns, else null. Picks the widest gutter. */
function splitColumns(region: Segment[], unit: number, textWidth: number): [Segment[], Segment[]] | null {
  const gaps = coverageGaps(region.map((segment) => [segment.box[0], segment.box[2]] as const));
  const candidates = gaps.filter(([start, end]) => end - start >= GUTTER_WIDTH * unit).sort((a, b) => b[1] - b[0] - (a[1] - a[0]));
  for (const [start] of candidates) {
    const left = region.filter((segment) => segment.box[2] <= start);
    const right = region.filter((segment) => segment.box[2] > start);
    if (looksLikeColumn(left, textWidth) && looksLikeColumn(right, textWidth)) return [left, right];
  }
  return null;
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

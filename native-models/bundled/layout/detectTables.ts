/**
 * Tables of a page, from ruling lines where the PDF draws them and from the alignment of words where it does not.
 * Pure; works on the segments of buildSegments (runs of words cut at wide gaps = candidate cells).
 *
 * How:
 *  1. Ruled grids (latticeTables): frames of horizontal and vertical rules are grids, their cells known from the lines.
 *  2. Regions fenced by horizontal rules only (ruledRegions): the segments between the first and last rule are
 *     one candidate table, whatever their lengths or gaps.
 *  3. Elsewhere, prose lines (many words, wide) are set aside (they still break a run of rows); the other segments are
 *     clustered into page-wide rows, and consecutive rows with ≥ 2 segments (allowing short runs of one-segment rows:
 *     wrapped cells, section labels) and no prose or large gap between them form a candidate.
 *  4. Each candidate is rebuilt, or rejected, from its alignment (alignedTable: columns from gutters, cells with
 *     spans, wrapped rows, header rows), and taken apart where it is two tables set side by side (sideBySideTables).
 * Rotated words take part in steps 2–4 by where their text starts (uprightProxies); the lines of ruled notepaper
 * are no rules (notepaperRules).
 */
import type { Box } from '../../../app/model/extraction.js';
import { buildRows, toSegment } from './buildSegments.js';
import { boxHeight, boxWidth, median, unionBox, type Row, type Segment, type TableLayout, type TableCellLayout } from './layoutTypes.js';
import { buildTable, findColumns } from './alignedTable.js';
import { latticeTables } from './latticeTables.js';
import { withoutNotepaperRules } from './notepaperRules.js';
import { ruledRegions } from './ruledRegions.js';
import { splitSideBySide } from './sideBySideTables.js';
import { inside, overlapX } from './tableGeometry.js';
import { isNumericText, segmentText } from './tableText.js';
import { uprightProxies } from './uprightProxies.js';

export { isNumericText, segmentText };

export type { TableLayout, TableCellLayout };

export interface DetectTablesOptions {
  /** Ruling lines of the page (thin boxes: horizontal or vertical strokes), in page pixels. */
  rulings?: readonly Box[];
}

/** A segment with at least this many words, at least PROSE_WIDTH of the text width, is prose, not a cell. */
const PROSE_WORDS = 6;
const PROSE_WIDTH = 0.35;
/** Rows further apart than this many row heights do not belong to one table. */
const MAX_ROW_GAP = 2.6;
/** At most this many one-segment rows in a row inside a run (wrapped cells, section labels). */
const MAX_SINGLE_ROWS = 2;
/** Rows this close above a ruled region's first rule (in text heights) may be its header. */
const HEADER_ABOVE_RULE = 1.2;

export function detectTables(
  segments: readonly Segment[],
  options: DetectTablesOptions = {},
): { tables: TableLayout[]; rest: Segment[] } {
  const unit = median(segments.map((s) => boxHeight(s.box))) || 1;
  const rulings = withoutNotepaperRules(options.rulings ?? [], segments, unit);
  // 1. Ruled grids first: their cells are known from the lines, whatever the words' alignment.
  const lattice = latticeTables(segments.flatMap((s) => s.words), rulings, unit);
  const left = lattice.used.size === 0 ? [...segments] : segments.flatMap((s) => {
    const free = s.words.filter((w) => !lattice.used.has(w));
    return free.length === s.words.length ? [s] : free.length ? [toSegment(free)] : [];
  });
  const proxies = uprightProxies(left);
  const tables: TableLayout[] = [...lattice.tables];
  const used = new Set<Segment>();
  // 2. Regions between horizontal rules.
  // (Found on the real words: a rotated heading is as tall as it is set, so it leaves no gap above it.)
  for (const region of ruledRegions(rulings, left, unit, lattice.tables.map((t) => t.box))) {
    const { members, headerAbove } = regionMembers(proxies.segments.filter((s) => !used.has(s)), region.box, unit);
    // The header ends at the first rule when it is set above it, else at the first rule inside the region.
    const headerBottom = headerAbove ? region.rules[0] : region.rules.length >= 3 ? region.rules[1] : undefined;
    const table = buildTable(members, unit, rulings, { headerBottom });
    if (!table) continue;
    for (const s of table.segments) used.add(s);
    tables.push(proxies.restoreTable(table));
  }
  // 3–4. Runs of aligned rows elsewhere.
  const found = detectAlignedTables(proxies.segments.filter((s) => !used.has(s)), rulings);
  tables.push(...found.tables.map(proxies.restoreTable));
  return { tables, rest: found.rest.map(proxies.restore) };
}

/** The segments inside a ruled region, and up to two header rows set just above its first rule. */
function regionMembers(segments: readonly Segment[], region: Box, unit: number): { members: Segment[]; headerAbove: boolean } {
  const within = segments.filter((s) => inside(s.box, region, unit * 0.3));
  const above = buildRows(segments.filter((s) => s.box[3] <= region[1] + unit * 0.3 && s.box[3] >= region[1] - 4 * HEADER_ABOVE_RULE * unit && overlapX(s.box, region) > 0)).reverse();
  const columns = within.length ? findColumns(buildRows(within), unionBox(within.map((s) => s.box)), unit) : [];
  let top = region[1];
  let numbers = false;
  for (const row of above.slice(0, 2)) {
    const fits =
      top - row.box[3] <= HEADER_ABOVE_RULE * unit &&
      row.segments.length >= 2 &&
      row.segments.every((s) => s.box[0] >= region[0] - unit && s.box[2] <= region[2] + unit) &&
      linesUpWithColumns(row, columns);
    if (!fits) break;
    within.push(...row.segments);
    top = row.box[1];
    numbers ||= row.segments.some((s) => isNumericText(segmentText(s)));
  }
  // Rows above the first rule are its header unless they hold numbers (a body row the first rule does not cover).
  return { members: within, headerAbove: top < region[1] && !numbers };
}

/**
 * Whether a row set above a ruled region reads as one of its rows: one cell per column of the rows inside the region,
 * and no sentence across columns. A line above the table (a seller's name, an address the OCR cut in two at a wide
 * space) starts two pieces in one column or runs a long phrase over several.
 */
function linesUpWithColumns(row: Row, columns: ReadonlyArray<[number, number]>): boolean {
  const spans = row.segments.map((s) => columns.flatMap(([x1, x2], c) => (Math.min(x2, s.box[2] - 1) - Math.max(x1, s.box[0] + 1) > 0 ? [c] : [])));
  const sentence = row.segments.some((s, i) => s.words.length >= PROSE_WORDS && (columns.length < 2 || spans[i].length >= 2));
  if (sentence) return false;
  if (columns.length < 2) return true;
  const firsts = spans.map((hit) => hit[0]);
  return firsts.every((c) => c !== undefined) && new Set(firsts).size === firsts.length;
}

/** Tables from runs of aligned rows (step 3). */
function detectAlignedTables(segments: readonly Segment[], rulings: readonly Box[]): { tables: TableLayout[]; rest: Segment[] } {
  if (segments.length < 6) return { tables: [], rest: [...segments] };
  const textWidth = boxWidth(unionBox(segments.map((s) => s.box)));
  const unit = median(segments.map((s) => boxHeight(s.box))) || 1;
  const isProse = (s: Segment): boolean => s.words.length >= PROSE_WORDS && boxWidth(s.box) >= PROSE_WIDTH * textWidth;
  const prose = segments.filter(isProse);
  const rows = buildRows(segments.filter((s) => !isProse(s)));

  const tables: TableLayout[] = [];
  const used = new Set<Segment>();
  for (const run of candidateRuns(rows, prose, unit)) {
    let box = unionBox(run.flatMap((row) => row.segments.map((s) => s.box)));
    // Spanning headings above the first full row ("Threshold for releases" over three columns) belong to the table:
    // rows just above, inside the table's width, right of its first column.
    const firstColumnEnd = Math.min(...run.filter((row) => row.segments.length >= 2).map((row) => row.segments[0].box[2]));
    for (let i = rows.indexOf(run[0]) - 1, taken = 0; i >= 0 && taken < 2; i--, taken++) {
      const above = rows[i];
      const fits =
        box[1] - above.box[3] <= 1.2 * unit &&
        above.segments.every((s) => s.box[0] > firstColumnEnd && s.box[2] <= box[2] + unit) &&
        !prose.some((p) => p.box[1] >= above.box[1] && p.box[3] <= box[1] && overlapX(p.box, box) > 0);
      if (!fits) break;
      box = unionBox([box, above.box]);
    }
    // Every segment inside the run's box belongs to it (long description cells were set aside as prose).
    const members = segments.filter((s) => !used.has(s) && inside(s.box, box, unit * 0.3));
    const table = buildTable(members, unit, rulings);
    if (!table) continue;
    for (const part of splitSideBySide(table, unit, (side) => buildTable(side, unit, rulings))) {
      for (const s of part.segments) used.add(s);
      tables.push(part);
    }
  }
  return { tables, rest: segments.filter((s) => !used.has(s)) };
}

/** Runs of consecutive rows that could be a table (step 2). */
function candidateRuns(rows: Row[], prose: Segment[], unit: number): Row[][] {
  const runs: Row[][] = [];
  let current: Row[] = [];
  let singles = 0;
  const close = (): void => {
    // Trailing one-segment rows are not part of the run.
    while (current.length && current.at(-1)!.segments.length < 2) current.pop();
    if (current.filter((row) => row.segments.length >= 2).length >= 3) runs.push(current);
    current = [];
    singles = 0;
  };
  for (const row of rows) {
    const previous = current.at(-1);
    if (previous) {
      const gap = row.box[1] - previous.box[3];
      const between = prose.some(
        (p) => p.box[1] >= previous.box[1] && p.box[3] <= row.box[3] && overlapX(p.box, unionBox([previous.box, row.box])) > 0,
      );
      // A one-segment row in another type size (a section heading between two tables) ends the run.
      const sizes = current.map((r) => r.fontSize);
      const typical = median(sizes);
      const heading = row.segments.length === 1 && typical > 0 && (row.fontSize > 1.15 * typical || row.fontSize < typical / 1.15);
      if (gap > MAX_ROW_GAP * unit || between || heading) close();
    }
    if (row.segments.length >= 2) {
      current.push(row);
      singles = 0;
    } else if (current.length > 0 && singles < MAX_SINGLE_ROWS) {
      current.push(row);
      singles++;
    } else {
      close();
    }
  }
  close();
  return runs;
}


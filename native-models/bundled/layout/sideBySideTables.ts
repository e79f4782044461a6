/**
 * Two unruled tables set next to each other line up row for row, so alignment alone reads them as one wide table.
 * They are taken apart where the evidence is clear:
 *  - a gutter between two columns that no cell crosses, wider (SIDE_GUTTER_RATIO) than every gap between the columns
 *    on either side of it, so that it runs the full height of both;
 *  - each side a table by itself (at least two columns, rebuilt from its own alignment);
 *  - and the sides alike: the same header row repeated, or the same columns (count, and which ones hold numbers).
 * A wide table whose stub or description column stands far from its numbers fails the last test: its sides differ.
 */
import { boxHeight, type Segment, type TableLayout } from './layoutTypes.js';
import { isNumericText, segmentText } from './tableText.js';

/** The gutter between the tables is at least this many times wider than any gap between columns of either side … */
const SIDE_GUTTER_RATIO = 2;
/** … and at least this many text heights wide. */
const SIDE_GUTTER_MIN = 2;
/** A column whose body cells are at least this share numbers is a column of numbers. */
const NUMERIC_COLUMN_SHARE = 0.5;

/** `table`, or the tables it is made of side by side, left to right. `rebuild` builds a table from segments. */
export function splitSideBySide(table: TableLayout, unit: number, rebuild: (members: Segment[]) => TableLayout | null, depth = 0): TableLayout[] {
  if (table.evidence !== 'alignment' || table.colCount < 4 || depth > 3) return [table];
  const extents = columnExtents(table);
  if (!extents) return [table];
  const gaps = extents.slice(1).map((extent, c) => extent[0] - extents[c][1]);
  // Each side keeps at least two columns.
  let best = -1;
  for (let c = 1; c + 2 < table.colCount; c++) if (best < 0 || gaps[c] > gaps[best]) best = c;
  if (best < 0) return [table];
  const others = gaps.filter((_, c) => c !== best);
  const gutter = gaps[best];
  if (gutter < SIDE_GUTTER_MIN * unit || gutter < SIDE_GUTTER_RATIO * Math.max(0, ...others)) return [table];
  if (table.cells.some((cell) => cell.col <= best && cell.col + cell.colspan - 1 > best)) return [table];
  const middle = (extents[best][1] + extents[best + 1][0]) / 2;
  const leftMembers = table.segments.filter((s) => (s.box[0] + s.box[2]) / 2 < middle);
  const rightMembers = table.segments.filter((s) => (s.box[0] + s.box[2]) / 2 >= middle);
  // A segment over the gutter (a caption across both) means one table after all.
  if (table.segments.some((s) => s.box[0] < middle && s.box[2] > middle)) return [table];
  const [left, right] = [rebuild(leftMembers), rebuild(rightMembers)];
  if (!left || !right || left.colCount < 2 || right.colCount < 2) return [table];
  if (!sameHeader(left, right) && !sameColumns(left, right)) return [table];
  // Side by side: level with each other for most of the shorter one's height.
  const overlap = Math.min(left.box[3], right.box[3]) - Math.max(left.box[1], right.box[1]);
  if (overlap < 0.5 * Math.min(boxHeight(left.box), boxHeight(right.box))) return [table];
  return [...splitSideBySide(left, unit, rebuild, depth + 1), ...splitSideBySide(right, unit, rebuild, depth + 1)];
}

/** [x1, x2] of each column from its one-column cells; null when a column has none. */
function columnExtents(table: TableLayout): Array<[number, number]> | null {
  const extents: Array<[number, number] | undefined> = Array.from({ length: table.colCount }, () => undefined);
  for (const cell of table.cells) {
    if (cell.colspan !== 1) continue;
    const extent = extents[cell.col];
    extents[cell.col] = extent ? [Math.min(extent[0], cell.box[0]), Math.max(extent[1], cell.box[2])] : [cell.box[0], cell.box[2]];
  }
  return extents.every((extent) => extent !== undefined) ? (extents as Array<[number, number]>) : null;
}

const cellText = (cell: TableLayout['cells'][number]): string => cell.segments.map(segmentText).join(' ').trim().toLowerCase();

function headerTexts(table: TableLayout): string[] {
  return table.cells.filter((cell) => cell.header).sort((a, b) => a.row - b.row || a.col - b.col).map(cellText);
}

function sameHeader(left: TableLayout, right: TableLayout): boolean {
  const [a, b] = [headerTexts(left), headerTexts(right)];
  return a.length >= 2 && a.join('\u0000') === b.join('\u0000');
}

function sameColumns(left: TableLayout, right: TableLayout): boolean {
  if (left.colCount !== right.colCount || (left.headerRowCount > 0) !== (right.headerRowCount > 0)) return false;
  const profile = (table: TableLayout): boolean[] =>
    Array.from({ length: table.colCount }, (_, c) => {
      const texts = table.cells.filter((cell) => !cell.header && cell.col === c && cell.colspan === 1).map(cellText).filter(Boolean);
      return texts.length > 0 && texts.filter(isNumericText).length >= NUMERIC_COLUMN_SHARE * texts.length;
    });
  const [a, b] = [profile(left), profile(right)];
  return a.every((numeric, c) => numeric === b[c]);
}

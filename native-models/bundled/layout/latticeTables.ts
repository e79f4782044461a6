/**
 * Tables drawn with ruling lines on both axes (a "lattice"): each connected frame of horizontal and vertical lines
 * is a grid (rulingGrid), words go to the grid slot under their centre, slots with no line between them are one
 * spanning cell, and rows or columns the grid has but no text uses (double rules, spacer columns) are dropped.
 * A frame is a table when at least two rows hold two or more filled cells and the cells are not paragraphs
 * (a box around prose, a two-column page framed by rules). Everything the grid does not hold is left to the
 * alignment finder.
 */
import type { Box } from '../../../app/model/extraction.js';
import { buildRows, buildSegments } from './buildSegments.js';
import { type LayoutWord, type Segment, type TableCellLayout, type TableLayout } from './layoutTypes.js';
import { frameGrid, gridCells, mergeRulings, rulingFrames, type GridCell, type RulingGrid } from './rulingGrid.js';
import { splitBandsAtLines, splitSpansAtColumns } from './gridRefinement.js';
import { countHeaderRows } from './tableHeaders.js';

/** Lines closer than this many text heights are one line (a double rule), and a line this close to a slot's edge meets it. */
const LINE_TOLERANCE = 0.3;
/** More merged lines than this either way are a drawing … */
const MAX_LINES = 1500;
/** … and a grid of more slots than this is one too. */
const MAX_SLOTS = 20_000;
/** A ruled "table" whose filled cells average more words than this is framed prose. */
const MAX_MEAN_WORDS_PER_CELL = 30;
/** At least this share of a ruled table's cells hold text … */
const MIN_FILLED_SHARE = 0.4;
/** … and no block of cells spanning rows and columns holds more than this share of its words. */
const MAX_BLOCK_SHARE = 0.2;

export function latticeTables(words: readonly LayoutWord[], rulings: readonly Box[], unit: number): { tables: TableLayout[]; used: Set<LayoutWord> } {
  const used = new Set<LayoutWord>();
  const tables: TableLayout[] = [];
  if (rulings.length < 4 || words.length === 0) return { tables, used };
  const tolerance = Math.max(2, LINE_TOLERANCE * unit);
  const { horizontal, vertical } = mergeRulings(rulings, tolerance);
  // Thousands of lines are a drawing (graph paper, a map), not tables; they would only cost time.
  if (horizontal.length > MAX_LINES || vertical.length > MAX_LINES) return { tables, used };
  const frames = rulingFrames(horizontal, vertical, tolerance)
    .map((frame) => frameGrid(frame, tolerance))
    .filter((grid): grid is RulingGrid => grid !== null && (grid.xs.length - 1) * (grid.ys.length - 1) <= MAX_SLOTS)
    // Smaller frames first: a frame drawn inside another one's cell is its own table.
    .sort((a, b) => area(a.box) - area(b.box));
  for (const grid of frames) {
    const table = tableFromGrid(grid, words.filter((word) => !used.has(word)), unit);
    if (!table) continue;
    for (const cell of table.cells) for (const segment of cell.segments) for (const word of segment.words) used.add(word);
    tables.push(table);
  }
  return { tables, used };
}

const area = (box: Box): number => (box[2] - box[0]) * (box[3] - box[1]);

function slotIndex(bounds: readonly number[], value: number): number {
  if (value < bounds[0] || value > bounds[bounds.length - 1]) return -1;
  for (let i = 0; i + 1 < bounds.length; i++) if (value <= bounds[i + 1]) return i;
  return -1;
}

function tableFromGrid(ruled: RulingGrid, words: readonly LayoutWord[], unit: number): TableLayout | null {
  const inGrid = words.filter((w) => slotIndex(ruled.ys, (w.box[1] + w.box[3]) / 2) >= 0 && slotIndex(ruled.xs, (w.box[0] + w.box[2]) / 2) >= 0);
  if (inGrid.length === 0) return null;
  // Rules the table leaves out (body rows without verticals, body columns without horizontals), from its text.
  const columnsSplit = splitSpansAtColumns(ruled, gridCells(ruled), inGrid);
  const grid = splitBandsAtLines(columnsSplit, gridCells(columnsSplit), inGrid);
  words = inGrid;
  const cells = gridCells(grid);
  const rows = grid.ys.length - 1;
  const cols = grid.xs.length - 1;
  const slotCell: number[][] = Array.from({ length: rows }, () => new Array<number>(cols).fill(-1));
  cells.forEach((cell, i) => {
    for (let r = cell.row; r < cell.row + cell.rowspan; r++) for (let c = cell.col; c < cell.col + cell.colspan; c++) slotCell[r][c] = i;
  });
  const cellWords: LayoutWord[][] = cells.map(() => []);
  const rowUsed = new Array<boolean>(rows).fill(false);
  const colUsed = new Array<boolean>(cols).fill(false);
  for (const word of words) {
    const r = slotIndex(grid.ys, (word.box[1] + word.box[3]) / 2);
    const c = slotIndex(grid.xs, (word.box[0] + word.box[2]) / 2);
    if (r < 0 || c < 0) continue;
    cellWords[slotCell[r][c]].push(word);
    rowUsed[r] = true;
    colUsed[c] = true;
  }
  // Rows and columns with no text (double rules, spacer columns) are dropped; spans over them shrink.
  const rowMap = renumber(rowUsed);
  const colMap = renumber(colUsed);
  const kept: Array<{ cell: GridCell; words: LayoutWord[]; box: Box }> = [];
  cells.forEach((cell, i) => {
    const rowSpan = spanAfter(rowMap, cell.row, cell.rowspan);
    const colSpan = spanAfter(colMap, cell.col, cell.colspan);
    if (!rowSpan || !colSpan) return;
    const box: Box = [grid.xs[cell.col], grid.ys[cell.row], grid.xs[cell.col + cell.colspan], grid.ys[cell.row + cell.rowspan]];
    kept.push({ cell: { row: rowSpan[0], col: colSpan[0], rowspan: rowSpan[1], colspan: colSpan[1] }, words: cellWords[i], box });
  });
  const rowCount = rowUsed.filter(Boolean).length;
  const colCount = colUsed.filter(Boolean).length;
  if (rowCount < 2 || colCount < 2) return null;
  const filled = kept.filter((k) => k.words.length > 0);
  const perRow = new Map<number, number>();
  for (const k of filled) perRow.set(k.cell.row, (perRow.get(k.cell.row) ?? 0) + 1);
  if ([...perRow.values()].filter((n) => n >= 2).length < 2) return null;
  const meanWords = filled.reduce((sum, k) => sum + k.words.length, 0) / filled.length;
  if (meanWords > MAX_MEAN_WORDS_PER_CELL) return null;
  // A form (boxes left blank to be filled in, one box around a whole column of labels) is not a table. Counted on
  // the ruled boxes, before empty rows and columns go: slivers between double rules are no boxes.
  const boxes = cells.map((cell, i) => ({ cell, i })).filter(({ cell }) => grid.xs[cell.col + cell.colspan] - grid.xs[cell.col] >= unit && grid.ys[cell.row + cell.rowspan] - grid.ys[cell.row] >= unit);
  if (boxes.filter(({ i }) => cellWords[i].length > 0).length < MIN_FILLED_SHARE * boxes.length) return null;
  const totalWords = filled.reduce((sum, k) => sum + k.words.length, 0);
  if (filled.some((k) => k.cell.rowspan >= 3 && k.cell.colspan >= 2 && k.words.length > MAX_BLOCK_SHARE * totalWords)) return null;

  // Empty cells are kept only where they span (so the HTML keeps its shape); single empty slots render as empty <td>.
  const emitted = kept.filter((k) => k.words.length > 0 || k.cell.rowspan > 1 || k.cell.colspan > 1);
  const segmentsOf = new Map(emitted.map((k) => [k, orderedSegments(k.words)] as const));
  const byRow = Array.from({ length: rowCount }, (_, r) =>
    emitted
      .filter((k) => k.cell.row === r)
      .map((k) => ({ text: segmentsOf.get(k)!.map((s) => s.words.map((w) => w.text).join(' ')).join(' '), colspan: k.cell.colspan, rowspan: k.cell.rowspan })),
  );
  const headerRowCount = countHeaderRows(byRow);
  const tableCells: TableCellLayout[] = emitted.map((k) => ({
    row: k.cell.row,
    col: k.cell.col,
    rowspan: k.cell.rowspan,
    colspan: k.cell.colspan,
    header: k.cell.row < headerRowCount,
    segments: segmentsOf.get(k)!,
    box: k.box,
  }));
  return {
    rowCount,
    colCount,
    headerRowCount,
    cells: tableCells,
    segments: tableCells.flatMap((cell) => cell.segments),
    box: grid.box,
    evidence: 'ruling-lines',
  };
}

/** Old index → new index for the kept entries, -1 for dropped ones. */
function renumber(keep: readonly boolean[]): number[] {
  let next = 0;
  return keep.map((k) => (k ? next++ : -1));
}

/** The new [start, span] of a span of old indices, or null when none of them is kept. */
function spanAfter(map: readonly number[], start: number, span: number): [number, number] | null {
  const keptIndices = map.slice(start, start + span).filter((i) => i >= 0);
  return keptIndices.length ? [keptIndices[0], keptIndices.length] : null;
}

/** A cell's words as segments (lines), top to bottom, left to right. */
function orderedSegments(words: readonly LayoutWord[]): Segment[] {
  return buildRows(buildSegments(words)).flatMap((row) => row.segments);
}

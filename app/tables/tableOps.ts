/**
 * Edits of an editable table. Every operation returns a new table (the input is never changed), or an `Error` value
 * whose message says why the edit cannot be made (e.g. moving a row across a merged cell); the grid editor shows it.
 * Anything beyond a cell's text marks the table `structureChanged`, so it is written again from the grid.
 */
import { escapeCellText, type EditableTable, type GridCell } from './editableTable.js';

export type TableEdit = EditableTable | Error;

const cloneTable = (table: EditableTable): EditableTable => ({
  ...table,
  cells: table.cells.map((cell) => ({ ...cell })),
  rowOpenTags: [...table.rowOpenTags],
  pipeDelimiters: [...table.pipeDelimiters],
});

const structural = (table: EditableTable): EditableTable => {
  table.cells.sort((a, b) => a.row - b.row || a.col - b.col);
  return { ...table, structureChanged: true };
};

const newCell = (row: number, col: number, header: boolean): GridCell => ({
  row,
  col,
  rowspan: 1,
  colspan: 1,
  tag: header ? 'th' : 'td',
  attrs: [],
  html: '',
  text: '',
  edited: true,
});

const covers = (cell: GridCell, row: number, col: number): boolean =>
  row >= cell.row && row < cell.row + cell.rowspan && col >= cell.col && col < cell.col + cell.colspan;

/** The cell covering slot (row, col), if any. */
export function cellCovering(table: EditableTable, row: number, col: number): GridCell | undefined {
  return table.cells.find((cell) => covers(cell, row, col));
}

/** Sets a cell's text (written escaped, `$` as `&#36;`). Unchanged text is no edit. */
export function setCellText(table: EditableTable, row: number, col: number, text: string): TableEdit {
  const target = cellCovering(table, row, col);
  if (!target) return new Error(`No cell at row ${row + 1}, column ${col + 1}.`);
  const clean = text.replace(/\s*\n\s*/g, ' ');
  if (clean === target.text) return table;
  const next = cloneTable(table);
  const cell = next.cells[table.cells.indexOf(target)]!;
  cell.text = clean;
  cell.html = escapeCellText(clean);
  cell.edited = true;
  // A cell the source never had (a ragged row filled in) has no place to splice into.
  if (!cell.sourceRange) next.structureChanged = true;
  return next;
}

/** Inserts an empty row before row `at` (at = rowCount appends). A merged cell across the gap grows by one row. */
export function insertRow(table: EditableTable, at: number): TableEdit {
  if (at < 0 || at > table.rowCount) return new Error('Row out of range.');
  const next = cloneTable(table);
  const header = at < table.headerRowCount;
  for (const cell of next.cells) {
    if (cell.row >= at) cell.row++;
    else if (cell.row + cell.rowspan > at) cell.rowspan++;
  }
  for (let c = 0; c < next.colCount; c++) if (!cellCovering(next, at, c)) next.cells.push(newCell(at, c, header));
  next.rowCount++;
  next.rowOpenTags.splice(at, 0, '<tr>');
  if (header) next.headerRowCount++;
  return structural(next);
}

/** Removes row `r`; a merged cell starting there moves to the next row, one crossing it shrinks. */
export function removeRow(table: EditableTable, r: number): TableEdit {
  if (r < 0 || r >= table.rowCount) return new Error('Row out of range.');
  if (table.rowCount === 1) return new Error('A table keeps at least one row.');
  const next = cloneTable(table);
  next.cells = next.cells.filter((cell) => !(cell.row === r && cell.rowspan === 1));
  for (const cell of next.cells) {
    if (cell.row > r) cell.row--;
    else if (cell.row + cell.rowspan > r) cell.rowspan--;
  }
  next.rowCount--;
  next.rowOpenTags.splice(r, 1);
  if (r < table.headerRowCount) next.headerRowCount--;
  return structural(next);
}

/** Inserts an empty column before column `at`; a merged cell across the gap grows by one column. */
export function insertColumn(table: EditableTable, at: number): TableEdit {
  if (at < 0 || at > table.colCount) return new Error('Column out of range.');
  const next = cloneTable(table);
  for (const cell of next.cells) {
    if (cell.col >= at) cell.col++;
    else if (cell.col + cell.colspan > at) cell.colspan++;
  }
  for (let r = 0; r < next.rowCount; r++) if (!cellCovering(next, r, at)) next.cells.push(newCell(r, at, r < next.headerRowCount));
  next.colCount++;
  next.pipeDelimiters.splice(at, 0, '---');
  return structural(next);
}

/** Removes column `c`; a merged cell starting there moves right, one crossing it shrinks. */
export function removeColumn(table: EditableTable, c: number): TableEdit {
  if (c < 0 || c >= table.colCount) return new Error('Column out of range.');
  if (table.colCount === 1) return new Error('A table keeps at least one column.');
  const next = cloneTable(table);
  next.cells = next.cells.filter((cell) => !(cell.col === c && cell.colspan === 1));
  for (const cell of next.cells) {
    if (cell.col > c) cell.col--;
    else if (cell.col + cell.colspan > c) cell.colspan--;
  }
  next.colCount--;
  next.pipeDelimiters.splice(c, 1);
  return structural(next);
}

/** A merged cell that covers both line `a` and a line outside it would be torn apart by swapping `a` with `b`. */
function crossesLine(table: EditableTable, axis: 'row' | 'col', line: number): boolean {
  return table.cells.some((cell) => {
    const start = axis === 'row' ? cell.row : cell.col;
    const span = axis === 'row' ? cell.rowspan : cell.colspan;
    return span > 1 && line >= start && line < start + span;
  });
}

/** Swaps row `r` with its neighbour (delta −1 up, +1 down). Refused where a merged cell spans either row. */
export function moveRow(table: EditableTable, r: number, delta: -1 | 1): TableEdit {
  const other = r + delta;
  if (r < 0 || r >= table.rowCount || other < 0 || other >= table.rowCount) return new Error('Row out of range.');
  if (crossesLine(table, 'row', r) || crossesLine(table, 'row', other)) return new Error('Split the merged cells first: a merged cell spans this row.');
  const next = cloneTable(table);
  for (const cell of next.cells) {
    if (cell.row === r) cell.row = other;
    else if (cell.row === other) cell.row = r;
  }
  [next.rowOpenTags[r], next.rowOpenTags[other]] = [next.rowOpenTags[other]!, next.rowOpenTags[r]!];
  return structural(next);
}

/** Swaps column `c` with its neighbour. Refused where a merged cell spans either column. */
export function moveColumn(table: EditableTable, c: number, delta: -1 | 1): TableEdit {
  const other = c + delta;
  if (c < 0 || c >= table.colCount || other < 0 || other >= table.colCount) return new Error('Column out of range.');
  if (crossesLine(table, 'col', c) || crossesLine(table, 'col', other)) return new Error('Split the merged cells first: a merged cell spans this column.');
  const next = cloneTable(table);
  for (const cell of next.cells) {
    if (cell.col === c) cell.col = other;
    else if (cell.col === other) cell.col = c;
  }
  [next.pipeDelimiters[c], next.pipeDelimiters[other]] = [next.pipeDelimiters[other] ?? '---', next.pipeDelimiters[c] ?? '---'];
  return structural(next);
}

export interface SlotRange {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

/**
 * Merges every cell inside the range into its top-left cell (texts joined by a space, in reading order). Refused when
 * a merged cell sticks out of the range: the result would not be a rectangle.
 */
export function mergeCells(table: EditableTable, range: SlotRange): TableEdit {
  const { top, left, bottom, right } = range;
  if (top > bottom || left > right || top < 0 || left < 0 || bottom >= table.rowCount || right >= table.colCount)
    return new Error('Range out of the table.');
  const inside = table.cells.filter((cell) => cell.row + cell.rowspan > top && cell.row <= bottom && cell.col + cell.colspan > left && cell.col <= right);
  if (inside.some((cell) => cell.row < top || cell.col < left || cell.row + cell.rowspan - 1 > bottom || cell.col + cell.colspan - 1 > right))
    return new Error('A merged cell sticks out of the selection; select all of it.');
  if (inside.length < 2) return table;
  const next = cloneTable(table);
  const anchorIndex = table.cells.indexOf(inside.find((cell) => cell.row === top && cell.col === left) ?? inside[0]!);
  const anchor = next.cells[anchorIndex]!;
  const texts = inside.map((cell) => cell.text).filter((text) => text !== '');
  const htmls = inside.map((cell) => cell.html).filter((html) => html.trim() !== '');
  anchor.row = top;
  anchor.col = left;
  anchor.rowspan = bottom - top + 1;
  anchor.colspan = right - left + 1;
  anchor.text = texts.join(' ');
  anchor.html = htmls.join(' ');
  anchor.edited = true;
  const drop = new Set(inside.map((cell) => table.cells.indexOf(cell)).filter((index) => index !== anchorIndex));
  next.cells = next.cells.filter((_, index) => !drop.has(index));
  return structural(next);
}

/** Splits the merged cell at (row, col) into 1×1 cells; its content stays in the top-left one. */
export function splitCell(table: EditableTable, row: number, col: number): TableEdit {
  const target = cellCovering(table, row, col);
  if (!target) return new Error(`No cell at row ${row + 1}, column ${col + 1}.`);
  if (target.rowspan === 1 && target.colspan === 1) return table;
  const next = cloneTable(table);
  const anchor = next.cells[table.cells.indexOf(target)]!;
  for (let r = anchor.row; r < anchor.row + anchor.rowspan; r++)
    for (let c = anchor.col; c < anchor.col + anchor.colspan; c++)
      if (r !== anchor.row || c !== anchor.col) next.cells.push({ ...newCell(r, c, anchor.tag === 'th'), attrs: anchor.attrs.filter((a) => a.name !== 'rowspan' && a.name !== 'colspan') });
  anchor.rowspan = 1;
  anchor.colspan = 1;
  return structural(next);
}

/**
 * Makes the first `count` rows the header rows (`<thead>`, cells `<th>`); rows leaving the header get `<td>` cells.
 * Cells keep their tag where the header status does not change (PubTabNet writes `<td>` inside `<thead>`).
 */
export function setHeaderRows(table: EditableTable, count: number): TableEdit {
  if (count < 0 || count > table.rowCount) return new Error('Header rows out of range.');
  if (count === table.headerRowCount) return table;
  const next = cloneTable(table);
  const low = Math.min(count, table.headerRowCount);
  const high = Math.max(count, table.headerRowCount);
  for (const cell of next.cells) if (cell.row >= low && cell.row < high) cell.tag = cell.row < count ? 'th' : 'td';
  next.headerRowCount = count;
  return structural(next);
}

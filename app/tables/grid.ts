/**
 * The table grid model shared by the HTML and pipe-table parsers, the olmOCR table tests, TEDS-adjacent checks and the
 * ICDAR cell-neighbour metric.
 *
 * A table is a list of cells, each anchored at its top-left slot with row/column spans, plus the slot matrix
 * `slots[row][col]` → index of the cell covering that slot (or -1 where no cell covers it: ragged rows).
 * `toTopLeftGrid` writes each spanning cell's text in its top-left slot only and leaves the covered slots empty,
 * the convention of the ICDAR-2013-derived CSVs in shared/testdata.
 */
export interface TableCell {
  row: number;
  col: number;
  rowspan: number;
  colspan: number;
  /** Whitespace-collapsed cell text. */
  text: string;
  /** True for `<th>` cells and for every cell of a `<thead>` row or a pipe table's header row. */
  header: boolean;
}

export interface TableGrid {
  /** Where the table came from in its source text. */
  source: 'html' | 'pipe';
  rowCount: number;
  colCount: number;
  cells: TableCell[];
  /** [rowCount][colCount] index into `cells`, -1 for an uncovered slot. */
  slots: number[][];
  /** Number of leading rows that are header rows (every cell a header). */
  headerRowCount: number;
}

export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * Places cells given row by row (each row's cells left to right, as in HTML) into slots, honouring rowspans carried
 * down from earlier rows. Returns the grid; `rows[i]` are the cells whose `<tr>` is the i-th row.
 */
export function buildGrid(
  source: TableGrid['source'],
  rows: { text: string; rowspan: number; colspan: number; header: boolean }[][],
  theadRowCount = 0,
): TableGrid {
  const cells: TableCell[] = [];
  const slots: number[][] = [];
  const ensureRow = (r: number): number[] => {
    while (slots.length <= r) slots.push([]);
    return slots[r]!;
  };
  rows.forEach((rowCells, r) => {
    const slotRow = ensureRow(r);
    let c = 0;
    for (const cell of rowCells) {
      while (slotRow[c] !== undefined && slotRow[c]! >= 0) c++;
      const rowspan = Math.max(1, cell.rowspan);
      const colspan = Math.max(1, cell.colspan);
      const index = cells.length;
      cells.push({ row: r, col: c, rowspan, colspan, text: cell.text, header: cell.header || r < theadRowCount });
      // A rowspan may not reach beyond the last row (HTML clamps it); clamp to the rows present.
      const lastRow = Math.min(r + rowspan, rows.length) - 1;
      for (let rr = r; rr <= lastRow; rr++) {
        const target = ensureRow(rr);
        for (let cc = c; cc < c + colspan; cc++) if (target[cc] === undefined || target[cc]! < 0) target[cc] = index;
      }
      cells[index]!.rowspan = lastRow - r + 1;
      c += colspan;
    }
  });
  const rowCount = rows.length;
  const colCount = slots.reduce((max, row) => Math.max(max, row.length), 0);
  const dense = Array.from({ length: rowCount }, (_, r) =>
    Array.from({ length: colCount }, (_, c) => slots[r]?.[c] ?? -1).map((v) => (v === undefined ? -1 : v)),
  );
  let headerRowCount = 0;
  for (let r = 0; r < rowCount; r++) {
    const rowCellIndexes = dense[r]!.filter((i) => i >= 0);
    if (rowCellIndexes.length > 0 && rowCellIndexes.every((i) => cells[i]!.header)) headerRowCount = r + 1;
    else break;
  }
  return { source, rowCount, colCount, cells, slots: dense, headerRowCount };
}

/** The cell covering slot (row, col), or undefined outside the table or on an uncovered slot. */
export function cellAt(grid: TableGrid, row: number, col: number): TableCell | undefined {
  const index = grid.slots[row]?.[col];
  return index === undefined || index < 0 ? undefined : grid.cells[index];
}

/** [rowCount][colCount] texts with spanning text in the top-left slot only (ICDAR-derived CSV convention). */
export function toTopLeftGrid(grid: TableGrid): string[][] {
  const out = Array.from({ length: grid.rowCount }, () => Array.from({ length: grid.colCount }, () => ''));
  for (const cell of grid.cells) out[cell.row]![cell.col] = cell.text;
  return out;
}

/** Builds a grid from a top-left CSV-style matrix (each non-empty slot one 1×1 cell, unless spans are given). */
export function gridFromTopLeft(
  matrix: string[][],
  spans: { row: number; col: number; rowspan: number; colspan: number }[] = [],
): TableGrid {
  const spanAt = new Map(spans.map((s) => [`${s.row},${s.col}`, s]));
  const covered = new Set<string>();
  for (const s of spans)
    for (let r = s.row; r < s.row + s.rowspan; r++)
      for (let c = s.col; c < s.col + s.colspan; c++) if (r !== s.row || c !== s.col) covered.add(`${r},${c}`);
  const rows = matrix.map((row, r) =>
    row.flatMap((text, c) => {
      if (covered.has(`${r},${c}`)) return [];
      const span = spanAt.get(`${r},${c}`);
      return [{ text: collapseWhitespace(text), rowspan: span?.rowspan ?? 1, colspan: span?.colspan ?? 1, header: false }];
    }),
  );
  return buildGrid('html', rows);
}

const escapeHtml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Renders a grid as an HTML table with its spans; header rows go in `<thead>` with `<th>` cells. */
export function gridToHtml(grid: TableGrid): string {
  const row = (r: number): string => {
    const cells = grid.cells
      .filter((c) => c.row === r)
      .sort((a, b) => a.col - b.col)
      .map((c) => {
        const tag = r < grid.headerRowCount ? 'th' : 'td';
        const spans = `${c.rowspan > 1 ? ` rowspan="${c.rowspan}"` : ''}${c.colspan > 1 ? ` colspan="${c.colspan}"` : ''}`;
        return `<${tag}${spans}>${escapeHtml(c.text)}</${tag}>`;
      });
    return `<tr>${cells.join('')}</tr>`;
  };
  const head = Array.from({ length: grid.headerRowCount }, (_, r) => row(r)).join('');
  const body = Array.from({ length: grid.rowCount - grid.headerRowCount }, (_, i) => row(i + grid.headerRowCount)).join('');
  return `<table>${head ? `<thead>${head}</thead>` : ''}<tbody>${body}</tbody></table>`;
}

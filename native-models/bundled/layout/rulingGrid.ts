/**
 * Ruling lines → grids. The thin boxes a PDF draws (cell borders, rules) are turned into merged horizontal and
 * vertical lines, lines that cross or touch are grouped into connected frames, and each frame with at least two
 * lines each way becomes a grid: the distinct x of its verticals and y of its horizontals, with, for every inner
 * border between two neighbouring slots, whether a line is really drawn there (a missing border = a spanning cell).
 * Pure geometry; words are placed in the grid by latticeTables.
 */
import type { Box } from '../../../app/model/extraction.js';

/** A merged ruling: horizontal (`pos` = y, from `start` to `end` in x) or vertical (`pos` = x, along y). */
export interface RulingLine {
  pos: number;
  start: number;
  end: number;
}

export interface RulingGrid {
  /** Column boundaries, left to right (≥ 3 for two columns). */
  xs: number[];
  /** Row boundaries, top to bottom. */
  ys: number[];
  /** vBorder[r][c]: a line is drawn between slot (r, c) and (r, c + 1). */
  vBorder: boolean[][];
  /** hBorder[r][c]: a line is drawn between slot (r, c) and (r + 1, c). */
  hBorder: boolean[][];
  box: Box;
}

/** Share of a border's length a drawn line must cover for the border to count. */
const BORDER_COVER = 0.5;

/** Horizontal and vertical lines of the rulings, collinear pieces merged (tables often draw each cell's edge). */
export function mergeRulings(rulings: readonly Box[], tolerance: number): { horizontal: RulingLine[]; vertical: RulingLine[] } {
  const horizontal: RulingLine[] = [];
  const vertical: RulingLine[] = [];
  for (const [x1, y1, x2, y2] of rulings) {
    if (!(x2 >= x1 && y2 >= y1)) continue;
    if (x2 - x1 >= y2 - y1) horizontal.push({ pos: (y1 + y2) / 2, start: x1, end: x2 });
    else vertical.push({ pos: (x1 + x2) / 2, start: y1, end: y2 });
  }
  return { horizontal: mergeCollinear(horizontal, tolerance), vertical: mergeCollinear(vertical, tolerance) };
}

/** Lines at (almost) the same position whose extents touch or overlap become one line. */
function mergeCollinear(lines: RulingLine[], tolerance: number): RulingLine[] {
  const sorted = [...lines].sort((a, b) => a.pos - b.pos || a.start - b.start);
  // Bands of lines at the same position (a double rule two points apart stays two lines only if wider than tolerance).
  const bands: RulingLine[][] = [];
  for (const line of sorted) {
    const band = bands.at(-1);
    if (band && line.pos - band[band.length - 1].pos <= tolerance) band.push(line);
    else bands.push([line]);
  }
  const merged: RulingLine[] = [];
  for (const band of bands) {
    const pos = band.reduce((sum, line) => sum + line.pos, 0) / band.length;
    const pieces = [...band].sort((a, b) => a.start - b.start);
    let current: RulingLine | null = null;
    for (const piece of pieces) {
      if (current && piece.start <= current.end + tolerance) current.end = Math.max(current.end, piece.end);
      else {
        if (current) merged.push(current);
        current = { pos, start: piece.start, end: piece.end };
      }
    }
    if (current) merged.push(current);
  }
  return merged;
}

const crosses = (h: RulingLine, v: RulingLine, tolerance: number): boolean =>
  v.pos >= h.start - tolerance && v.pos <= h.end + tolerance && h.pos >= v.start - tolerance && h.pos <= v.end + tolerance;

/** Connected frames: horizontal and vertical lines linked by crossing or touching, with ≥ 2 of each. */
export function rulingFrames(
  horizontal: readonly RulingLine[],
  vertical: readonly RulingLine[],
  tolerance: number,
): Array<{ horizontal: RulingLine[]; vertical: RulingLine[] }> {
  const parent = Array.from({ length: horizontal.length + vertical.length }, (_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]];
    return i;
  };
  horizontal.forEach((h, i) =>
    vertical.forEach((v, j) => {
      if (crosses(h, v, tolerance)) parent[find(i)] = find(horizontal.length + j);
    }),
  );
  const groups = new Map<number, { horizontal: RulingLine[]; vertical: RulingLine[] }>();
  const group = (i: number): { horizontal: RulingLine[]; vertical: RulingLine[] } => {
    const root = find(i);
    let found = groups.get(root);
    if (!found) groups.set(root, (found = { horizontal: [], vertical: [] }));
    return found;
  };
  horizontal.forEach((h, i) => group(i).horizontal.push(h));
  vertical.forEach((v, j) => group(horizontal.length + j).vertical.push(v));
  return [...groups.values()].filter((g) => g.horizontal.length >= 2 && g.vertical.length >= 2);
}

/**
 * The grid of one frame. Sides the frame leaves open (horizontal rules running past the outer verticals, a table
 * with no left or right border) are closed at the lines' extent, so the outer cells still have a boundary.
 */
export function frameGrid(frame: { horizontal: RulingLine[]; vertical: RulingLine[] }, tolerance: number): RulingGrid | null {
  const left = Math.min(...frame.horizontal.map((h) => h.start), ...frame.vertical.map((v) => v.pos));
  const right = Math.max(...frame.horizontal.map((h) => h.end), ...frame.vertical.map((v) => v.pos));
  const top = Math.min(...frame.vertical.map((v) => v.start), ...frame.horizontal.map((h) => h.pos));
  const bottom = Math.max(...frame.vertical.map((v) => v.end), ...frame.horizontal.map((h) => h.pos));
  const xs = distinct([left, right, ...frame.vertical.map((v) => v.pos)], tolerance);
  const ys = distinct([top, bottom, ...frame.horizontal.map((h) => h.pos)], tolerance);
  if (xs.length < 3 || ys.length < 3) return null;
  const covered = (lines: readonly RulingLine[], pos: number, from: number, to: number): boolean => {
    const pieces = lines.filter((line) => Math.abs(line.pos - pos) <= tolerance).map((line) => [Math.max(from, line.start), Math.min(to, line.end)] as const);
    let length = 0;
    for (const [a, b] of pieces) if (b > a) length += b - a;
    return length >= BORDER_COVER * (to - from);
  };
  const vBorder = ys.slice(1).map((_, r) => xs.slice(1, -1).map((x) => covered(frame.vertical, x, ys[r], ys[r + 1])));
  const hBorder = ys.slice(1, -1).map((y) => xs.slice(1).map((_, c) => covered(frame.horizontal, y, xs[c], xs[c + 1])));
  return { xs, ys, vBorder, hBorder, box: [left, top, right, bottom] };
}

/** Sorted positions with those closer than `tolerance` merged (to their mean). */
function distinct(values: readonly number[], tolerance: number): number[] {
  const sorted = [...values].sort((a, b) => a - b);
  const groups: number[][] = [];
  for (const value of sorted) {
    const group = groups.at(-1);
    if (group && value - group[group.length - 1] <= tolerance) group.push(value);
    else groups.push([value]);
  }
  return groups.map((group) => group.reduce((a, b) => a + b, 0) / group.length);
}

/** A grid cell: slots [row, row + rowspan) × [col, col + colspan). */
export interface GridCell {
  row: number;
  col: number;
  rowspan: number;
  colspan: number;
}

/**
 * Cells of a grid: slots joined where no border is drawn between them, each group widened to its bounding rectangle
 * (and rectangles that then overlap joined) so that every cell is a rectangle of slots.
 */
export function gridCells(grid: RulingGrid): GridCell[] {
  const rows = grid.ys.length - 1;
  const cols = grid.xs.length - 1;
  const parent = Array.from({ length: rows * cols }, (_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]];
    return i;
  };
  const join = (a: number, b: number): void => {
    parent[find(a)] = find(b);
  };
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < cols; c++) {
      if (c + 1 < cols && !grid.vBorder[r][c]) join(r * cols + c, r * cols + c + 1);
      if (r + 1 < rows && !grid.hBorder[r][c]) join(r * cols + c, (r + 1) * cols + c);
    }
  for (let changed = true; changed; ) {
    changed = false;
    const bounds = new Map<number, [number, number, number, number]>();
    for (let i = 0; i < rows * cols; i++) {
      const root = find(i);
      const [r, c] = [Math.floor(i / cols), i % cols];
      const b = bounds.get(root);
      if (b) bounds.set(root, [Math.min(b[0], r), Math.min(b[1], c), Math.max(b[2], r), Math.max(b[3], c)]);
      else bounds.set(root, [r, c, r, c]);
    }
    for (const [root, [r1, c1, r2, c2]] of bounds)
      for (let r = r1; r <= r2; r++)
        for (let c = c1; c <= c2; c++)
          if (find(r * cols + c) !== find(root)) {
            join(r * cols + c, root);
            changed = true;
          }
  }
  const cells = new Map<number, GridCell>();
  for (let i = 0; i < rows * cols; i++) {
    const root = find(i);
    const [r, c] = [Math.floor(i / cols), i % cols];
    const cell = cells.get(root);
    if (!cell) cells.set(root, { row: r, col: c, rowspan: 1, colspan: 1 });
    else {
      cell.rowspan = Math.max(cell.rowspan, r - cell.row + 1);
      cell.colspan = Math.max(cell.colspan, c - cell.col + 1);
    }
  }
  return [...cells.values()].sort((a, b) => a.row - b.row || a.col - b.col);
}

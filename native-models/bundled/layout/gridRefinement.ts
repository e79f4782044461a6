/**
 * Ruled grids whose rules are only partly drawn: many tables rule their header fully but leave the body with only
 * horizontal rules (a body row is then one cell across the table) or with only vertical rules (a body column is then
 * one cell of many lines). The text shows where the missing lines are:
 *  - a cell spanning columns whose words fall apart at the grid's column boundaries, with no word across them and
 *    text in at least two columns, is really one cell per column (when it spans the table, or three or more columns:
 *    a heading spanning two columns can split between two words by chance);
 *  - a row band whose cells hold several lines, where some column holds one number per line, is really one row per
 *    line (a wrapped label is words; a stack of numbers is a column of values).
 * Both return a new grid with the missing borders drawn in, or the same grid when nothing is missing.
 */
import { median, type LayoutWord } from './layoutTypes.js';
import type { GridCell, RulingGrid } from './rulingGrid.js';
import { isNumericText } from './tableText.js';

const centreX = (word: LayoutWord): number => (word.box[0] + word.box[2]) / 2;
const centreY = (word: LayoutWord): number => (word.box[1] + word.box[3]) / 2;

function wordsIn(words: readonly LayoutWord[], x1: number, y1: number, x2: number, y2: number): LayoutWord[] {
  return words.filter((w) => centreX(w) >= x1 && centreX(w) <= x2 && centreY(w) >= y1 && centreY(w) <= y2);
}

/** Vertical borders added where a spanning cell's words fall apart at the column boundaries. */
export function splitSpansAtColumns(grid: RulingGrid, cells: readonly GridCell[], words: readonly LayoutWord[]): RulingGrid {
  const cols = grid.xs.length - 1;
  let vBorder: boolean[][] | null = null;
  for (const cell of cells) {
    if (cell.colspan < 2 || !(cell.colspan >= 3 || cell.colspan === cols)) continue;
    const inside = wordsIn(words, grid.xs[cell.col], grid.ys[cell.row], grid.xs[cell.col + cell.colspan], grid.ys[cell.row + cell.rowspan]);
    if (inside.length < 2) continue;
    const boundaries = grid.xs.slice(cell.col + 1, cell.col + cell.colspan);
    const free = boundaries.map((x) => !inside.some((w) => w.box[0] < x && w.box[2] > x));
    // Columns of the span that get text once it is cut at the free boundaries.
    const pieces = new Set<number>();
    for (const word of inside) {
      let piece = 0;
      boundaries.forEach((x, i) => {
        if (free[i] && centreX(word) > x) piece = i + 1;
      });
      pieces.add(piece);
    }
    if (pieces.size < 2) continue;
    vBorder ??= grid.vBorder.map((row) => [...row]);
    for (let r = cell.row; r < cell.row + cell.rowspan; r++) boundaries.forEach((_, i) => free[i] && (vBorder![r][cell.col + i] = true));
  }
  return vBorder ? { ...grid, vBorder } : grid;
}

/** A line of words in one cell: its vertical extent and whether its text is a number. */
interface CellLine {
  top: number;
  bottom: number;
  numeric: boolean;
}

/** Lines of words by vertical overlap, top to bottom. */
function linesOf(words: readonly LayoutWord[]): Array<{ top: number; bottom: number; words: LayoutWord[] }> {
  const lines: Array<{ top: number; bottom: number; words: LayoutWord[] }> = [];
  for (const word of [...words].sort((a, b) => centreY(a) - centreY(b))) {
    const line = lines.at(-1);
    if (line && centreY(word) < line.bottom && centreY(word) > line.top) {
      line.words.push(word);
      line.top = Math.min(line.top, word.box[1]);
      line.bottom = Math.max(line.bottom, word.box[3]);
    } else lines.push({ top: word.box[1], bottom: word.box[3], words: [word] });
  }
  return lines;
}

/** Words this many times taller than the band's typical word have a box taller than their text … */
const TALL_BOX = 1.5;

/**
 * … (OCR gives the first word of a line a box reaching into the next line now and then): they are taken as tall as
 * the typical word, about their centre, so that they do not join two lines into one.
 */
function levelOutliers(words: readonly LayoutWord[]): LayoutWord[] {
  const typical = median(words.map((w) => w.box[3] - w.box[1]));
  if (!(typical > 0)) return [...words];
  return words.map((w) => {
    if (w.box[3] - w.box[1] <= TALL_BOX * typical) return w;
    const y = centreY(w);
    return { ...w, box: [w.box[0], y - typical / 2, w.box[2], y + typical / 2] };
  });
}

/** Horizontal borders added between the lines of row bands that stack one value per line. */
export function splitBandsAtLines(grid: RulingGrid, cells: readonly GridCell[], words: readonly LayoutWord[]): RulingGrid {
  const rows = grid.ys.length - 1;
  const ys: number[] = [grid.ys[0]];
  const vBorder: boolean[][] = [];
  const hBorder: boolean[][] = [];
  let changed = false;
  for (let r = 0; r < rows; r++) {
    const band = cells.filter((cell) => cell.row <= r && cell.row + cell.rowspan > r);
    const cuts = band.every((cell) => cell.rowspan === 1) ? bandCuts(grid, band, words) : [];
    for (const cut of cuts) {
      ys.push(cut);
      vBorder.push([...grid.vBorder[r]]);
      hBorder.push(grid.xs.slice(1).map(() => true));
    }
    changed ||= cuts.length > 0;
    ys.push(grid.ys[r + 1]);
    vBorder.push([...grid.vBorder[r]]);
    if (r + 1 < rows) hBorder.push([...grid.hBorder[r]]);
  }
  return changed ? { ...grid, ys, vBorder, hBorder } : grid;
}

/** Where to cut one band: between the line clusters of its cells, when some cell stacks two or more numbers. */
function bandCuts(grid: RulingGrid, band: readonly GridCell[], words: readonly LayoutWord[]): number[] {
  const inBand = wordsIn(words, grid.xs[0], grid.ys[band[0]?.row ?? 0], grid.xs[grid.xs.length - 1], grid.ys[(band[0]?.row ?? 0) + 1]);
  const levelled = levelOutliers(inBand);
  const cellLines: CellLine[][] = band.map((cell) =>
    linesOf(wordsIn(levelled, grid.xs[cell.col], grid.ys[cell.row], grid.xs[cell.col + cell.colspan], grid.ys[cell.row + 1])).map((line) => ({
      top: line.top,
      bottom: line.bottom,
      numeric: isNumericText(line.words.map((w) => w.text).join(' ')),
    })),
  );
  const stacked = cellLines.some((lines) => lines.length >= 2 && lines.filter((l) => l.numeric).length >= Math.max(2, (2 / 3) * lines.length));
  if (!stacked) return [];
  // Line clusters across the band's cells: lines that overlap vertically are one table row.
  const all = cellLines.flat().sort((a, b) => a.top - b.top);
  const clusters: Array<{ top: number; bottom: number }> = [];
  for (const line of all) {
    const last = clusters.at(-1);
    const overlap = last ? Math.min(last.bottom, line.bottom) - Math.max(last.top, line.top) : -1;
    if (last && overlap > 0.3 * Math.min(last.bottom - last.top, line.bottom - line.top)) last.bottom = Math.max(last.bottom, line.bottom);
    else clusters.push({ top: line.top, bottom: line.bottom });
  }
  const cuts: number[] = [];
  for (let i = 1; i < clusters.length; i++) {
    if (clusters[i].top > clusters[i - 1].bottom) cuts.push((clusters[i].top + clusters[i - 1].bottom) / 2);
  }
  return cuts;
}

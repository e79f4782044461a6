/**
 * Where on a scanned page the print is, for pages that are mostly empty: a till receipt laid on a flatbed and scanned
 * as a whole A4 page (often at 600 dpi, 4961 × 7016 px), its paper speckled with dust and JPEG noise all over. Read
 * whole, tesseract's page layout takes the speckle for marks and the receipt's middle for a picture: it reads the
 * header and the footer and drops the lines between them (the total, the date), and tesseract's own CLI does the same
 * on such a page. Read as the region its print covers (with a margin), the same pixels read line by line. The region
 * is found on a small copy of the page, where a speck is a pixel or two and a line of print a long run of them:
 * print is what forms components of a word's size or more; specks stay alone. Only pages whose print covers at most
 * MAX_PRINT_SHARE of the page are cropped: a page of print (an invoice, a letter) is read as it is.
 */
import type { Box } from '../../app/model/extraction.js';
import type { GreyImage } from './greyLevels.js';


/** The page is searched for print on a copy this wide (ocrImage.ts makes it): a till's line of print stays a run of dark cells. */
export const PRINT_SEARCH_WIDTH = 600;
/** Side of a cell of the search grid, in pixels of that copy. */
const CELL = 4;
/** A cell is inked where at least this many of its pixels are at or under the copy's Otsu threshold. */
const INKED_PIXELS = 3;
/** Inked cells this close (cells across, cells down) belong to one component: letters of a word, words of a line. */
const REACH_ACROSS = 2;
const REACH_DOWN = 1;
/** A component is print when it has this many inked cells and spans this many cells across: a short word's size. */
const MIN_PRINT_CELLS = 8;
const MIN_PRINT_SPAN = 4;
/** Pages whose print region covers more than this share of the page are read whole. */
const MAX_PRINT_SHARE = 0.5;
/** The region grows by this many cells on each side (~2 % of an A4 page's width): descenders, a faint edge letter. */
const MARGIN_CELLS = 3;

/**
 * The box (in pixels of the `width` × `height` page) the page's print covers, with a margin, where that is at most
 * MAX_PRINT_SHARE of the page; null where the page is mostly print, or has none to find (a blank page is read whole).
 * `copy`: the page at PRINT_SEARCH_WIDTH; `inkLevel`: its grey level at or under which a pixel is ink (Otsu's).
 */
export function printRegion(copy: GreyImage, inkLevel: number, width: number, height: number): Box | null {
  const inked = inkedCells(copy, inkLevel);
  const cells = printComponents(inked.grid, inked.across, inked.down);
  if (!cells) return null;
  const [x0, y0, x1, y1] = [
    Math.max(0, cells[0] - MARGIN_CELLS),
    Math.max(0, cells[1] - MARGIN_CELLS),
    Math.min(inked.across, cells[2] + 1 + MARGIN_CELLS),
    Math.min(inked.down, cells[3] + 1 + MARGIN_CELLS),
  ];
  if ((x1 - x0) * (y1 - y0) > MAX_PRINT_SHARE * inked.across * inked.down) return null;
  const [sx, sy] = [(CELL * width) / copy.width, (CELL * height) / copy.height];
  return [Math.floor(x0 * sx), Math.floor(y0 * sy), Math.min(width, Math.ceil(x1 * sx)), Math.min(height, Math.ceil(y1 * sy))];
}

/** The copy's grid of CELL × CELL cells, 1 where a cell holds INKED_PIXELS or more pixels of ink (≤ `inkLevel`). */
export function inkedCells(copy: GreyImage, inkLevel: number): { grid: Uint8Array; across: number; down: number } {
  const [across, down] = [Math.ceil(copy.width / CELL), Math.ceil(copy.height / CELL)];
  const counts = new Uint16Array(across * down);
  for (let y = 0; y < copy.height; y++) {
    const row = y * copy.width;
    const cellRow = Math.floor(y / CELL) * across;
    for (let x = 0; x < copy.width; x++) if (copy.data[row + x]! <= inkLevel) counts[cellRow + Math.floor(x / CELL)]++;
  }
  const grid = new Uint8Array(across * down);
  for (let i = 0; i < grid.length; i++) grid[i] = counts[i]! >= INKED_PIXELS ? 1 : 0;
  return { grid, across, down };
}

/**
 * The cell box [x0, y0, x1, y1] (inclusive) around every component of inked cells that is print (MIN_PRINT_CELLS,
 * MIN_PRINT_SPAN), or null where none is. Components join cells within REACH_ACROSS / REACH_DOWN (union–find).
 */
export function printComponents(grid: Uint8Array, across: number, down: number): Box | null {
  const parent = new Int32Array(grid.length).map((_, i) => i);
  const root = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  for (let y = 0; y < down; y++) {
    for (let x = 0; x < across; x++) {
      const i = y * across + x;
      if (!grid[i]) continue;
      // Earlier neighbours only (rows above within reach, and this row to the left): each pair is joined once.
      for (let dy = -REACH_DOWN; dy <= 0; dy++) {
        const ny = y + dy;
        if (ny < 0) continue;
        for (let dx = -REACH_ACROSS; dx <= REACH_ACROSS; dx++) {
          const nx = x + dx;
          if (nx < 0 || nx >= across || (dy === 0 && dx >= 0)) continue;
          const j = ny * across + nx;
          if (grid[j]) parent[root(i)] = root(j);
        }
      }
    }
  }
  const stats = new Map<number, { cells: number; box: [number, number, number, number] }>();
  for (let i = 0; i < grid.length; i++) {
    if (!grid[i]) continue;
    const [x, y, r] = [i % across, Math.floor(i / across), root(i)];
    const s = stats.get(r);
    if (!s) stats.set(r, { cells: 1, box: [x, y, x, y] });
    else {
      s.cells++;
      s.box = [Math.min(s.box[0], x), Math.min(s.box[1], y), Math.max(s.box[2], x), Math.max(s.box[3], y)];
    }
  }
  let region: Box | null = null;
  for (const { cells, box } of stats.values()) {
    if (cells < MIN_PRINT_CELLS || box[2] - box[0] + 1 < MIN_PRINT_SPAN) continue;
    region = region ? [Math.min(region[0], box[0]), Math.min(region[1], box[1]), Math.max(region[2], box[2]), Math.max(region[3], box[3])] : box;
  }
  return region;
}

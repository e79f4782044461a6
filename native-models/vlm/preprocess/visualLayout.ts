/**
 * Visual embeddings in DeepSeek-OCR's order: tiles (as one grid of rows, each row closed by the newline embedding),
 * then the global view (each row closed by the newline embedding), then the view separator.
 */
import type { CropGrid } from './imageModes.js';

export interface VisualFeatures {
  /** [q, q, H] of the global view. */
  global: { data: Float32Array; side: number };
  /** [n, qt, qt, H] of the tiles, row-major over the grid; null without tiles. */
  tiles: { data: Float32Array; side: number } | null;
  grid: CropGrid;
  /** [H] */
  newline: Float32Array;
  /** [H] */
  separator: Float32Array;
  hidden: number;
}

/** Returns [count × H] rows, count = imageTokenCount(mode, grid). */
export function layoutVisualEmbeddings(f: VisualFeatures): Float32Array {
  const H = f.hidden;
  const rows: Float32Array[] = [];
  if (f.tiles) {
    const [cols, gridRows] = f.grid;
    const q = f.tiles.side;
    // local_features.view(rows, cols, q, q, H).permute(0, 2, 1, 3, 4): row y of the big grid walks tiles left to right.
    for (let tileRow = 0; tileRow < gridRows; tileRow++) {
      for (let y = 0; y < q; y++) {
        for (let tileCol = 0; tileCol < cols; tileCol++) {
          const tile = tileRow * cols + tileCol;
          const start = ((tile * q + y) * q) * H;
          rows.push(f.tiles.data.subarray(start, start + q * H));
        }
        rows.push(f.newline);
      }
    }
  }
  const q = f.global.side;
  for (let y = 0; y < q; y++) {
    rows.push(f.global.data.subarray(y * q * H, (y + 1) * q * H));
    rows.push(f.newline);
  }
  rows.push(f.separator);
  const total = rows.reduce((n, r) => n + r.length, 0);
  const out = new Float32Array(total);
  let offset = 0;
  for (const r of rows) {
    out.set(r, offset);
    offset += r.length;
  }
  return out;
}

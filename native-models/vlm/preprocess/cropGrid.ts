/**
 * DeepSeek-OCR's dynamic_preprocess grid rule (from InternVL): among grids of 2–9 tiles, the one whose aspect ratio is
 * closest to the page's; on a tie, the larger grid when the page has more than half its pixel area. Pages that fit in
 * one 640 px tile are not cropped.
 */
import type { CropGrid } from './imageModes.js';

export const MIN_CROPS = 2;
export const MAX_CROPS = 9;

/** Candidate [cols, rows] grids, sorted by tile count (Python's sorted over a set: stable by i·j, then set order). */
export function candidateGrids(minNum = MIN_CROPS, maxNum = MAX_CROPS): CropGrid[] {
  const grids: [number, number][] = [];
  for (let n = minNum; n <= maxNum; n++) {
    for (let i = 1; i <= n; i++) {
      for (let j = 1; j <= n; j++) {
        if (i * j <= maxNum && i * j >= minNum && !grids.some(([a, b]) => a === i && b === j)) grids.push([i, j]);
      }
    }
  }
  return grids.sort((a, b) => a[0] * a[1] - b[0] * b[1]);
}

export function closestGrid(width: number, height: number, tileSize: number, grids = candidateGrids()): CropGrid {
  const aspect = width / height;
  const area = width * height;
  let bestDiff = Number.POSITIVE_INFINITY;
  let best: CropGrid = [1, 1];
  for (const grid of grids) {
    const diff = Math.abs(aspect - grid[0] / grid[1]);
    if (diff < bestDiff) {
      bestDiff = diff;
      best = grid;
    } else if (diff === bestDiff && area > 0.5 * tileSize * tileSize * grid[0] * grid[1]) {
      best = grid;
    }
  }
  return best;
}

/** The grid Gundam mode uses for a page of this size. */
export function cropGridFor(width: number, height: number, tileSize: number): CropGrid {
  if (width <= tileSize && height <= tileSize) return [1, 1];
  return closestGrid(width, height, tileSize);
}

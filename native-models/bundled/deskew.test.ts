import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { estimateSkew, straighten } from './deskew.js';
import { loadOcrPage } from './ocrImage.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** A binary page of dashed text lines turned by `degrees` (positive: descending to the right). */
function linesAt(degrees: number, width = 400, height = 500): Uint8Array {
  const ink = new Uint8Array(width * height);
  const slope = Math.tan((degrees * Math.PI) / 180);
  for (let line = 40; line < height - 60; line += 24) {
    for (let x = 30; x < width - 30; x++) {
      if (x % 9 === 0) continue; // gaps between letters
      const y = Math.round(line + x * slope);
      for (let dy = 0; dy < 3; dy++) if (y + dy >= 0 && y + dy < height) ink[(y + dy) * width + x] = 1;
    }
  }
  return ink;
}

describe('estimateSkew', () => {
  it('finds the angle of lines of text within a tenth of a degree', () => {
    for (const degrees of [-3, -1.2, 0, 0.7, 2.5]) expect(Math.abs(estimateSkew(linesAt(degrees), 400, 500) - degrees)).toBeLessThanOrEqual(0.15);
  });

  it('says 0 for an empty page', () => {
    expect(estimateSkew(new Uint8Array(400 * 500), 400, 500)).toBe(0);
  });
});

describe('straighten', () => {
  it('turns the sample scan (printed 1.1° askew) straight and maps boxes back onto the page', async () => {
    const file = path.join(repoRoot, 'resources', 'samples', 'northwind-invoice-scan.png');
    const info = await sharp(file).metadata();
    const page = await loadOcrPage(file);
    const result = await straighten(page.image, page.thumbnail);
    expect(Math.abs(Math.abs(result.skew) - 1.1)).toBeLessThanOrEqual(0.3);
    expect(result.image.data.length).toBe(result.image.width * result.image.height);
    // The page centre maps onto itself; a box stays on the page.
    const meta = result.image;
    const centre = result.toPage([meta.width / 2, meta.height / 2, meta.width / 2, meta.height / 2]);
    expect(Math.abs(centre[0] - info.width! / 2)).toBeLessThan(1);
    expect(Math.abs(centre[1] - info.height! / 2)).toBeLessThan(1);
    const corner = result.toPage([0, 0, meta.width, meta.height]);
    expect(corner).toEqual([0, 0, info.width, info.height]);
  });
});

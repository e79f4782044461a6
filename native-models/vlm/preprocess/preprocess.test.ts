import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { candidateGrids, closestGrid, cropGridFor } from './cropGrid.js';
import { imageModes, imageTokenCount, queriesPerSide } from './imageModes.js';
import { PAD_COLOUR, padGeometry, prepareViews } from './pageImage.js';
import { layoutVisualEmbeddings } from './visualLayout.js';

describe('image token counts (DeepSeek-OCR)', () => {
  it('pins the count per mode', () => {
    expect(imageTokenCount(imageModes.tiny)).toBe(8 * 9 + 1); // 73
    expect(imageTokenCount(imageModes.small)).toBe(10 * 11 + 1); // 111
    expect(imageTokenCount(imageModes.base)).toBe(16 * 17 + 1); // 273
    expect(imageTokenCount(imageModes.large)).toBe(20 * 21 + 1); // 421
    expect(imageTokenCount(imageModes.gundam, [1, 1])).toBe(16 * 17 + 1);
    expect(imageTokenCount(imageModes.gundam, [3, 2])).toBe(16 * 17 + 1 + (10 * 3 + 1) * (10 * 2)); // 893
    expect(queriesPerSide(640)).toBe(10);
  });
});

describe('crop grid rule', () => {
  it('lists the 2–9 tile grids by tile count', () => {
    const grids = candidateGrids();
    expect(grids[0]![0] * grids[0]![1]).toBe(2);
    expect(grids.every(([c, r]) => c * r >= 2 && c * r <= 9)).toBe(true);
    expect(grids.length).toBe(new Set(grids.map((g) => g.join('x'))).size);
  });
  it('picks the grid closest to the aspect ratio', () => {
    expect(closestGrid(909, 615, 640)).toEqual([3, 2]); // 1.48 → 3:2
    expect(closestGrid(1240, 1754, 640)).toEqual([2, 3]); // A4 portrait 0.707 → 2:3 (0.667)
    expect(closestGrid(2000, 500, 640)).toEqual([4, 1]);
  });
  it('prefers the larger grid on a tie when the page is large', () => {
    // square page: 1:1 is not a candidate; (2,2) and (3,3) tie at 0 — the later, larger one wins if area is large
    expect(closestGrid(1000, 1000, 640)).toEqual([2, 2]);
    expect(closestGrid(2000, 2000, 640)).toEqual([3, 3]);
  });
  it('does not crop a page that fits in one tile', () => {
    expect(cropGridFor(600, 640, 640)).toEqual([1, 1]);
    expect(cropGridFor(641, 640, 640)).not.toEqual([1, 1]);
  });
});

describe('page views', () => {
  const dir = mkdtempSync(join(tmpdir(), 'recto-preprocess-'));
  const page = async (name: string, width: number, height: number) => {
    const path = join(dir, name);
    writeFileSync(path, await sharp({ create: { width, height, channels: 3, background: '#ffffff' } }).png().toBuffer());
    return path;
  };
  const padValue = (PAD_COLOUR / 255 - 0.5) / 0.5;

  it('pads Base to a square with the mean colour, centred, normalised with 0.5 / 0.5', async () => {
    const views = await prepareViews(await page('wide.png', 800, 400), imageModes.base);
    const S = 1024;
    expect(views.global.size).toBe(S);
    expect(views.global.data.length).toBe(3 * S * S);
    expect(padGeometry(800, 400, S)).toEqual({ width: 1024, height: 512, left: 0, top: 256 });
    expect(views.global.data[0]).toBeCloseTo(padValue, 5); // top-left: padding
    expect(views.global.data[512 * S + 512]).toBeCloseTo(1, 5); // centre: white page
    expect(views.global.data[2 * S * S + 1023 * S + 1023]).toBeCloseTo(padValue, 5); // bottom-right, blue plane
    expect(views.tiles).toBeNull();
  });

  it('stretches Tiny to 512 × 512 without padding', async () => {
    const views = await prepareViews(await page('tall.png', 300, 900), imageModes.tiny);
    expect(views.global.size).toBe(512);
    expect(views.global.data[0]).toBeCloseTo(1, 5);
  });

  it('makes Gundam tiles by the grid rule, row-major, 640 px each', async () => {
    const views = await prepareViews(await page('a4.png', 1240, 1754), imageModes.gundam);
    expect(views.grid).toEqual([2, 3]);
    expect(views.tiles?.count).toBe(6);
    expect(views.tiles?.data.length).toBe(6 * 3 * 640 * 640);
    expect(views.global.size).toBe(1024);
  });

  it('names the file when the image cannot be read', async () => {
    const bad = join(dir, 'broken.png');
    writeFileSync(bad, 'not an image');
    await expect(prepareViews(bad, imageModes.base)).rejects.toThrow(/broken\.png: cannot read the page image/);
  });
});

describe('visual layout', () => {
  it('orders tiles, global view, newlines and separator as DeepSeek-OCR', () => {
    const H = 1;
    // global 2×2 with values 10..13; tiles grid 2 cols × 1 row of 1×1 features: 20, 21; newline 0, separator 99
    const out = layoutVisualEmbeddings({
      global: { data: new Float32Array([10, 11, 12, 13]), side: 2 },
      tiles: { data: new Float32Array([20, 21]), side: 1 },
      grid: [2, 1],
      newline: new Float32Array([0]),
      separator: new Float32Array([99]),
      hidden: H,
    });
    expect([...out]).toEqual([20, 21, 0, 10, 11, 0, 12, 13, 0, 99]);
    expect(out.length).toBe(2 * 3 + 1 + (1 * 2 + 1) * 1);
  });
  it('matches imageTokenCount for Base', () => {
    const H = 2;
    const out = layoutVisualEmbeddings({
      global: { data: new Float32Array(16 * 16 * H), side: 16 },
      tiles: null,
      grid: [1, 1],
      newline: new Float32Array(H),
      separator: new Float32Array(H),
      hidden: H,
    });
    expect(out.length / H).toBe(imageTokenCount(imageModes.base));
  });
});

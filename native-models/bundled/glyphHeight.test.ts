import { describe, expect, it } from 'vitest';
import { medianGlyphHeight } from './glyphHeight.js';
import { readableTextFactor } from './tesseractPool.js';
import type { GreyImage } from './ocrImage.js';

/** A white page with `rows` lines of `perRow` glyph blocks `h` px tall (one in four taller: ascenders), and a long rule. */
function page(h: number, rows = 10, perRow = 12): GreyImage {
  const [width, height] = [perRow * (h + 4) + 20, rows * h * 3 + 40];
  const data = new Uint8Array(width * height).fill(255);
  const fill = (x0: number, y0: number, w: number, hh: number): void => {
    for (let y = y0; y < y0 + hh; y++) for (let x = x0; x < x0 + w; x++) data[y * width + x] = 0;
  };
  for (let r = 0; r < rows; r++) {
    for (let g = 0; g < perRow; g++) {
      const rise = g % 4 === 0 ? Math.round(h * 0.4) : 0;
      fill(10 + g * (h + 4), 20 + r * h * 3 + h - rise, Math.max(1, h - 2), h + rise);
    }
  }
  fill(5, height - 10, width - 10, 2); // a rule: not a glyph
  return { data, width, height };
}

describe('medianGlyphHeight', () => {
  it('is the height of the commonest glyphs, ascenders and rules aside', () => {
    expect(medianGlyphHeight(page(9))).toBe(9);
    expect(medianGlyphHeight(page(24))).toBe(24);
  });

  it('says nothing where there is too little text', () => {
    expect(medianGlyphHeight(page(9, 2, 10))).toBeNull();
    expect(medianGlyphHeight({ data: new Uint8Array(100 * 100).fill(255), width: 100, height: 100 })).toBeNull();
  });
});

describe('readableTextFactor', () => {
  it('enlarges print under 8 px to a 10 px x-height, at most twice and within the pixel budget', () => {
    expect(readableTextFactor(5, 1_000_000)).toBe(2);
    expect(readableTextFactor(7, 1_000_000)).toBeCloseTo(10 / 7);
    expect(readableTextFactor(5, 8_000_000)).toBeCloseTo(Math.sqrt(9 / 8));
    expect(readableTextFactor(5, 9_000_000)).toBe(1);
  });

  it('shrinks print over 45 px to a 30 px x-height, at most by half, and leaves the band between alone', () => {
    expect(readableTextFactor(60, 4_000_000)).toBe(0.5);
    expect(readableTextFactor(50, 4_000_000)).toBeCloseTo(0.6);
    for (const h of [8, 10, 20, 30, 45]) expect(readableTextFactor(h, 4_000_000)).toBe(1);
  });
});

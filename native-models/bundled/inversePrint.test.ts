import { describe, expect, it } from 'vitest';
import { hasDarkPanel, mayHoldInversePrint } from './inversePrint.js';
import type { GreyImage } from './ocrImage.js';

/** A white page of `rows` lines of 10 px glyph blocks (bold: touching in pairs), with a ruling under each line. */
function textPage(rows = 8): GreyImage {
  const [width, height] = [400, rows * 40 + 40];
  const data = new Uint8Array(width * height).fill(255);
  const fill = (x0: number, y0: number, w: number, h: number, value = 0): void => {
    for (let y = y0; y < y0 + h; y++) for (let x = x0; x < x0 + w; x++) data[y * width + x] = value;
  };
  for (let r = 0; r < rows; r++) {
    for (let g = 0; g < 30; g++) fill(10 + g * 12, 20 + r * 40, g % 2 ? 12 : 8, 10); // letters, some run together
    fill(5, 34 + r * 40, 390, 2); // a ruling 2 px thick
  }
  return { data, width, height };
}

/** `page` with rows [top, top + h) of columns [left, left + w) turned to light print on a dark panel. */
function withPanel(page: GreyImage, left: number, top: number, w: number, h: number): GreyImage {
  const data = page.data.slice();
  for (let y = top; y < top + h; y++) for (let x = left; x < left + w; x++) data[y * page.width + x] = 255 - data[y * page.width + x]!;
  return { ...page, data };
}

describe('mayHoldInversePrint', () => {
  it('is false on dark print on a light page, rulings and letters run together included', () => {
    expect(mayHoldInversePrint(textPage())).toBe(false);
  });

  it('is true where a line of print is light on a dark bar across the page or a short label', () => {
    const page = textPage();
    expect(mayHoldInversePrint(withPanel(page, 0, 55, page.width, 20))).toBe(true);
    expect(mayHoldInversePrint(withPanel(page, 100, 135, 70, 20))).toBe(true);
  });

  it('is true where the print cannot be sized (too few glyphs to know what a panel is)', () => {
    expect(mayHoldInversePrint({ data: new Uint8Array(100 * 100).fill(255), width: 100, height: 100 })).toBe(true);
  });
});

describe('hasDarkPanel', () => {
  it('needs half a glyph height of rows dark across four glyphs, and at least three rows', () => {
    const page = { data: new Uint8Array(200 * 50).fill(255), width: 200, height: 50 };
    const bar = (w: number, h: number): GreyImage => withPanel(page, 10, 10, w, h);
    expect(hasDarkPanel(bar(40, 5), 10)).toBe(true);
    expect(hasDarkPanel(bar(39, 5), 10)).toBe(false); // narrower than four glyphs
    expect(hasDarkPanel(bar(40, 4), 10)).toBe(false); // fewer rows than half a glyph
    expect(hasDarkPanel(bar(40, 2), 2)).toBe(false); // a ruling: fewer than three rows
    expect(hasDarkPanel(bar(40, 3), 2)).toBe(true);
  });
});

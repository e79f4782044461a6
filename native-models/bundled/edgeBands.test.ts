/**
 * A band of shaded paper at a page's edge (a scanner's grey edge) evened out, on synthetic grey pages: lines of dark
 * "glyphs" running from the band into the paper. Not touched: a page without one, a dark ground, a grey panel holding
 * light print, a shade over more than a third of the page.
 */
import { describe, expect, it } from 'vitest';
import type { GreyImage } from './greyLevels.js';
import { edgeBandsEvened } from './edgeBands.js';

const [W, H] = [400, 300];
const PAPER = 230;
const INK = 30;

/** A page of paper `paperAt(x)` with lines of glyphs (8 px squares every 14 px, grey `glyphAt(x)`) across it, every 30 rows. */
function page(paperAt: (x: number) => number, glyphAt: (x: number) => number = (x) => Math.round((INK * paperAt(x)) / PAPER)): GreyImage {
  const data = new Uint8Array(W * H);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const glyph = y % 30 >= 10 && y % 30 < 18 && x % 14 >= 3 && x % 14 < 11;
      data[y * W + x] = glyph ? glyphAt(x) : paperAt(x);
    }
  return { width: W, height: H, data };
}
const at = (image: GreyImage, x: number, y: number): number => image.data[y * W + x]!;

describe('a band of shaded paper at the edge', () => {
  it('is brightened to the paper next to it, its soft edge too, and its print stays print', () => {
    // Left 60 columns at 0.55 of the paper, fading to the paper over 4 columns.
    const shaded = page((x) => (x < 60 ? 127 : x < 64 ? Math.round(127 + ((x - 59) * (PAPER - 127)) / 5) : PAPER));
    const { image, columns } = edgeBandsEvened(shaded);
    expect(columns).toBeGreaterThanOrEqual(60);
    expect(at(image, 20, 2)).toBeGreaterThanOrEqual(PAPER - 3); // the band's paper
    expect(at(image, 61, 2)).toBeGreaterThanOrEqual(PAPER - 3); // its soft edge
    expect(at(image, 20, 12)).toBeLessThan(80); // a glyph in the band: still dark
    expect(at(image, 200, 2)).toBe(PAPER); // the paper beyond it untouched
    // At the right edge as well.
    expect(edgeBandsEvened(page((x) => (x >= W - 50 ? 140 : PAPER))).columns).toBeGreaterThanOrEqual(50);
  });

  it('leaves alone a page without one, a dark ground, light print on a grey panel and a shade over most of the page', () => {
    const even = page(() => PAPER);
    expect(edgeBandsEvened(even)).toEqual({ image: even, columns: 0 });
    const ground = page((x) => (x < 60 ? 40 : PAPER), (x) => (x < 60 ? 40 : INK));
    expect(edgeBandsEvened(ground).columns).toBe(0);
    // White print on a grey panel: evened, the print would be as light as the paper.
    const panel = page((x) => (x < 60 ? 130 : PAPER), (x) => (x < 60 ? 250 : INK));
    expect(edgeBandsEvened(panel).columns).toBe(0);
    const halfShaded = page((x) => (x < W / 2 ? 130 : PAPER));
    expect(edgeBandsEvened(halfShaded).columns).toBe(0);
  });
});

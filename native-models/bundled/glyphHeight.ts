/**
 * The size of a page's print, measured on its image: the first pass that tells the OCR how large the text is where
 * no text layer says it (scans, photographed pages, image files). Pieces of ink (8-connected) are measured; the ones
 * shaped like glyphs are kept, and the median of their heights is the page's typical glyph height. Lower-case letters
 * without ascenders or descenders are the commonest glyphs of running text, so that median sits at the x-height or a
 * little above it (ascenders, capitals and digits pull it up, never down): an estimate that errs towards large.
 */
import type { GreyImage } from './ocrImage.js';

/** Grey below this is ink (the OCR image is contrast-stretched: print is near 0). */
const INK_LEVEL = 128;
/** Pieces shorter than this (pixels) are specks and i-dots; taller than this share of the page, rules and pictures. */
const MIN_GLYPH_PX = 3;
const MAX_GLYPH_PAGE_SHARE = 0.05;
/** A glyph is at most this many times as wide as it is tall (letters touching in a word stay under it). */
const MAX_GLYPH_ASPECT = 4;
/** Fewer glyph-shaped pieces than this is not running text: no estimate. */
const MIN_GLYPHS = 50;

/** Median height (pixels of `image`) of its glyph-shaped pieces of ink, or null where there are too few. */
export function medianGlyphHeight(image: GreyImage): number | null {
  const { data, width, height } = image;
  const maxHeight = Math.max(MIN_GLYPH_PX, MAX_GLYPH_PAGE_SHARE * Math.max(width, height));
  const seen = new Uint8Array(width * height);
  const stack = new Int32Array(width * height);
  const heights: number[] = [];
  for (let start = 0; start < data.length; start++) {
    if (seen[start] || data[start]! >= INK_LEVEL) continue;
    let top = 0;
    stack[top++] = start;
    seen[start] = 1;
    let [left, right, upper, lower] = [width, 0, height, 0];
    while (top > 0) {
      const at = stack[--top]!;
      const x = at % width;
      const y = (at - x) / width;
      if (x < left) left = x;
      if (x > right) right = x;
      if (y < upper) upper = y;
      if (y > lower) lower = y;
      for (let ny = Math.max(0, y - 1); ny <= Math.min(height - 1, y + 1); ny++) {
        for (let nx = Math.max(0, x - 1); nx <= Math.min(width - 1, x + 1); nx++) {
          const next = ny * width + nx;
          if (seen[next] || data[next]! >= INK_LEVEL) continue;
          seen[next] = 1;
          stack[top++] = next;
        }
      }
    }
    const [w, h] = [right - left + 1, lower - upper + 1];
    if (h >= MIN_GLYPH_PX && h <= maxHeight && w <= MAX_GLYPH_ASPECT * h) heights.push(h);
  }
  if (heights.length < MIN_GLYPHS) return null;
  heights.sort((a, b) => a - b);
  return heights[Math.floor(heights.length / 2)]!;
}

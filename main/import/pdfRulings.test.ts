import { describe, expect, it } from 'vitest';
import { rulesOfPath, subpathsOf } from './pdfRulings.js';
import type { Matrix } from './affine.js';

// pdf.js path codes: moveTo 0, lineTo 1, curveTo 2, closePath 4.
const rect = (x: number, y: number, w: number, h: number): number[] => [0, x, y, 1, x + w, y, 1, x + w, y + h, 1, x, y + h, 4];
const identity: Matrix = [1, 0, 0, 1, 0, 0];
/** PDF space (y up, 72 dpi) to a 150-dpi image 1000 px tall. */
const viewport: Matrix = [150 / 72, 0, 0, -150 / 72, 0, 1000];

describe('ruling lines from PDF paths', () => {
  it('splits a path into its subpaths, marking closed and curved ones', () => {
    const subpaths = subpathsOf([...rect(0, 0, 10, 10), 0, 0, 20, 1, 50, 20, 2, 1, 1, 2, 2, 3, 3]);
    expect(subpaths.map((s) => [s.points.length, s.closed, s.curved])).toEqual([
      [4, true, false],
      [3, false, true],
    ]);
  });

  it('takes every thin filled subpath of one path as a rule: all the borders of a table drawn at once', () => {
    const borders = [...rect(10, 10, 200, 1), ...rect(10, 40, 200, 1), ...rect(10, 10, 1, 31), ...rect(60, 60, 40, 40)];
    const rules = rulesOfPath(subpathsOf(borders), identity, { fill: true, stroke: false, closeStroke: false, lineWidthPx: 1 });
    // Two horizontal rules and one vertical; the 40 × 40 square is a filled box, not a rule.
    expect(rules).toEqual([
      [10, 10, 210, 11],
      [10, 40, 210, 41],
      [10, 10, 11, 41],
    ]);
  });

  it('takes the four sides of a stroked rectangle and the straight strokes of a path, in image pixels', () => {
    const path = [...rect(72, 72, 144, 72), 0, 72, 300, 1, 216, 300, 0, 72, 320, 1, 216, 420];
    const rules = rulesOfPath(subpathsOf(path), viewport, { fill: false, stroke: true, closeStroke: false, lineWidthPx: 2 });
    // Rectangle 150..450 × 700..850 px: four sides; the horizontal stroke at 375 px; the diagonal is no rule.
    expect(rules).toHaveLength(5);
    expect(rules[0].map(Math.round)).toEqual([150, 849, 450, 851]);
    expect(rules.some((r) => r[1] < 375 && r[3] > 375 && Math.round(r[2] - r[0]) === 300)).toBe(true);
  });

  it('takes no rule from curves or from lines stroked as wide as a bar', () => {
    const curve = [0, 0, 0, 2, 50, 0, 100, 0, 150, 0];
    expect(rulesOfPath(subpathsOf(curve), identity, { fill: false, stroke: true, closeStroke: false, lineWidthPx: 1 })).toEqual([]);
    expect(rulesOfPath(subpathsOf([0, 0, 0, 1, 200, 0]), identity, { fill: false, stroke: true, closeStroke: false, lineWidthPx: 30 })).toEqual([]);
  });
});

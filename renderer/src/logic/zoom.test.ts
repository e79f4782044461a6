import { describe, expect, it } from 'vitest';
import { effectiveScale, fieldMaxScale, formatScale, maxScale, minScale, scaleForBox, scrollToCentre, unionBox, zoomedIn, zoomedOut } from './zoom.js';

describe('zoom', () => {
  it('fits the image width to the pane', () => {
    expect(effectiveScale({ mode: 'fit' }, 1700, 850)).toBe(0.5);
    expect(effectiveScale({ mode: 'scale', scale: 2 }, 1700, 850)).toBe(2);
    expect(effectiveScale({ mode: 'fit' }, 0, 850)).toBe(1);
  });
  it('steps by 25 % within limits', () => {
    expect(zoomedIn(1)).toEqual({ mode: 'scale', scale: 1.25 });
    expect(zoomedOut(1)).toEqual({ mode: 'scale', scale: 0.8 });
    expect(zoomedIn(7.9)).toEqual({ mode: 'scale', scale: maxScale });
    expect(zoomedOut(0.11)).toEqual({ mode: 'scale', scale: minScale });
    expect(formatScale(0.5)).toBe('50 %');
  });
});

describe('fit page and zoom to a field', () => {
  it('fits the whole page: the smaller of the width and height fits', () => {
    // A 1240×1754 A4 page in a 700×500 pane: the height decides.
    expect(effectiveScale({ mode: 'fit-page' }, 1240, 700, 1754, 500)).toBeCloseTo(500 / 1754);
    // A wide page in a tall pane: the width decides, as fit width.
    expect(effectiveScale({ mode: 'fit-page' }, 2000, 700, 500, 900)).toBeCloseTo(700 / 2000);
  });
  it('draws a field\'s box large enough to read, within bounds, never below fit width', () => {
    const pane = { width: 600, height: 500 };
    // An invoice number box of 200×30 image px: 60 % of the pane's width → 1.8.
    expect(scaleForBox([100, 100, 300, 130], 1240, pane)).toBe(1.8);
    // A tiny box is not blown up past 200 %.
    expect(scaleForBox([100, 100, 110, 108], 1240, pane)).toBe(fieldMaxScale);
    // A box as wide as the page stays at fit width.
    expect(scaleForBox([0, 100, 1240, 160], 1240, pane)).toBeCloseTo(600 / 1240, 3);
  });
  it('centres the box in the pane, never scrolling before the page\'s start', () => {
    expect(scrollToCentre([100, 1000, 300, 1030], 2, { width: 600, height: 500 })).toEqual({ left: 100, top: 1780 });
    expect(scrollToCentre([0, 0, 10, 10], 1, { width: 600, height: 500 })).toEqual({ left: 0, top: 0 });
  });
  it('joins a field\'s boxes', () => {
    expect(unionBox([[10, 20, 30, 40], [5, 50, 25, 60]])).toEqual([5, 20, 30, 60]);
    expect(unionBox([])).toBeNull();
  });
});

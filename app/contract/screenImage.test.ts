import { describe, expect, it } from 'vitest';
import { parseScreenImageWidth, screenCopyWidthsFor, screenImageWidthFor, withScreenImageWidth } from './screenImage.js';

describe('screen copies of page images', () => {
  it('asks for the smallest copy at least as wide as the drawn page in device pixels, the page image past the widest', () => {
    expect(screenImageWidthFor(600)).toBe(768);
    expect(screenImageWidthFor(768)).toBe(768);
    expect(screenImageWidthFor(769)).toBe(1536);
    expect(screenImageWidthFor(1400)).toBe(1536);
    expect(screenImageWidthFor(1537)).toBeNull();
    expect(screenImageWidthFor(0)).toBeNull();
    expect(screenImageWidthFor(Number.NaN)).toBeNull();
  });

  it('makes a copy only for a page well wider than it: a 150 dpi A4 page gets one, a 300 dpi scan two, a small image none', () => {
    expect(screenCopyWidthsFor(1240)).toEqual([768]);
    expect(screenCopyWidthsFor(2480)).toEqual([768, 1536]);
    expect(screenCopyWidthsFor(900)).toEqual([]);
  });

  it('adds the width to the URL beside its other parameters, and leaves it alone for the page image', () => {
    expect(withScreenImageWidth('/api/page-image/p1?token=abc', 768)).toBe('/api/page-image/p1?token=abc&w=768');
    expect(withScreenImageWidth('recto://app/page-image/p1', 1536)).toBe('recto://app/page-image/p1?w=1536');
    expect(withScreenImageWidth('/api/page-image/p1?token=abc', null)).toBe('/api/page-image/p1?token=abc');
  });

  it('reads only the widths copies are made at from a request; anything else means the page image', () => {
    expect(parseScreenImageWidth('768')).toBe(768);
    expect(parseScreenImageWidth('1536')).toBe(1536);
    for (const value of [null, '', '100', '768.0', '-768', '0x300', '99999999999', '768&w=1536']) expect(parseScreenImageWidth(value)).toBeNull();
  });
});

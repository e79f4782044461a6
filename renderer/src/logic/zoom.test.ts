import { describe, expect, it } from 'vitest';
import { effectiveScale, formatScale, maxScale, minScale, zoomedIn, zoomedOut } from './zoom.js';

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

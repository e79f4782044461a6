import { describe, expect, it } from 'vitest';
import { formatPercent, formatScore, linearScale, niceStep, niceTicks } from './scale.js';

describe('linearScale', () => {
  it('maps the domain onto the range, flipped for SVG y', () => {
    const y = linearScale([0, 10], [100, 0]);
    expect(y(0)).toBe(100);
    expect(y(10)).toBe(0);
    expect(y(2.5)).toBe(75);
  });
  it('puts everything in the middle of an empty domain instead of dividing by zero', () => {
    expect(linearScale([3, 3], [0, 50])(3)).toBe(25);
  });
});

describe('niceTicks', () => {
  it('covers the data with round steps', () => {
    expect(niceTicks(0, 1, 6)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
    expect(niceTicks(0, 13, 5)).toEqual([0, 5, 10, 15]);
    expect(niceTicks(0, 100, 5)).toEqual([0, 25, 50, 75, 100]);
  });
  it('never shows floating-point noise', () => {
    for (const tick of niceTicks(0, 0.7, 8)) expect(String(tick).length).toBeLessThanOrEqual(4);
  });
  it('gives whole steps for counts', () => {
    expect(niceTicks(0, 3, 6, true)).toEqual([0, 1, 2, 3]);
    expect(niceTicks(0, 1, 5, true)).toEqual([0, 1]);
  });
  it('gives an axis even when every value is the same or zero', () => {
    expect(niceTicks(0, 0, 5, true)).toEqual([0, 1]);
    expect(niceTicks(4, 4, 5).length).toBeGreaterThan(1);
  });
  it('stays within the tick budget', () => {
    for (const max of [7, 19, 123, 999, 12345]) expect(niceTicks(0, max, 6).length).toBeLessThanOrEqual(7);
  });
});

describe('niceStep', () => {
  it('steps through 1, 2, 2.5, 5 times powers of ten', () => {
    expect(niceStep(10, 11)).toBe(1);
    expect(niceStep(10, 6)).toBe(2);
    expect(niceStep(1, 5)).toBe(0.25);
    expect(niceStep(0, 5)).toBe(1);
  });
});

describe('formatting', () => {
  it('shows scores with two decimals and a dash where a check does not apply', () => {
    expect(formatScore(0.876)).toBe('0.88');
    expect(formatScore(null)).toBe('–');
  });
  it('shows small percentages with a decimal', () => {
    expect(formatPercent(0.25)).toBe('25 %');
    expect(formatPercent(0.025)).toBe('2.5 %');
    expect(formatPercent(0)).toBe('0 %');
  });
});

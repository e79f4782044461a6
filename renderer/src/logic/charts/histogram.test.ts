import { describe, expect, it } from 'vitest';
import { binLabel, binScores, completeHistogram } from './histogram.js';

const counts = (bins: { count: number }[]) => bins.map((bin) => bin.count);

describe('binScores', () => {
  it('puts each score in the bin of its lower edge, and 1 in the last bin', () => {
    const bins = binScores([0, 0.05, 0.1, 0.55, 0.99, 1]);
    expect(counts(bins)).toEqual([2, 1, 0, 0, 0, 1, 0, 0, 0, 2]);
    expect(bins[0]).toMatchObject({ from: 0, to: 0.1 });
    expect(bins[9]).toMatchObject({ from: 0.9, to: 1 });
  });
  it('keeps 0.3 in the 0.3 bin despite floating point (0.1 * 3 = 0.30000000000000004)', () => {
    expect(counts(binScores([0.1 * 3, 0.7]))).toEqual([0, 0, 0, 1, 0, 0, 0, 1, 0, 0]);
  });
  it('clamps out-of-range scores and drops NaN', () => {
    expect(counts(binScores([-0.5, 1.5, Number.NaN], 4))).toEqual([1, 0, 0, 1]);
  });
});

describe('completeHistogram', () => {
  it('fills missing bins with zero and orders them', () => {
    const bins = completeHistogram([
      { from: 0.9, to: 1, count: 4 },
      { from: 0.2, to: 0.3, count: 1 },
    ]);
    expect(counts(bins)).toEqual([0, 0, 1, 0, 0, 0, 0, 0, 0, 4]);
  });
  it('agrees with binScores on the main side convention', () => {
    const scores = [0.12, 0.5, 0.51, 0.97, 1, 0.0];
    expect(completeHistogram(binScores(scores))).toEqual(binScores(scores));
  });
});

describe('binLabel', () => {
  it('names the range', () => {
    expect(binLabel({ from: 0.9, to: 1, count: 3 })).toBe('0.9–1.0');
  });
});

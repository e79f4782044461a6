import { describe, expect, it } from 'vitest';
import { partialRatio, partialRatioIsFull, ratio } from './fuzzRatio.js';

// Each expected score printed by rapidfuzz 3.14.6 (`fuzz.partial_ratio(a, b)`, `fuzz.ratio(a, b)`).
const cases: [string, string, number, number][] = [
  ['', '', 100, 100],
  ['a', '', 0, 0],
  ['', 'a', 0, 0],
  ['abc', 'abc', 100, 100],
  ['Total amount due', 'Total', 100, 47.61904761904761],
  ['Total', 'Total amount due', 100, 47.61904761904761],
  ['abcd', 'xabcy', 75, 66.66666666666667],
  ['abcd', 'xabdy', 75, 66.66666666666667],
  ['abcd', 'cdxx', 66.66666666666667, 50],
  ['hello world', 'worl', 100, 53.333333333333336],
  ['abc', 'bca', 80, 66.66666666666667],
  ['ab', 'ba', 66.66666666666667, 50],
  [`${'x'.repeat(69)}a`, `a${'y'.repeat(200)}`, 2.8169014084507005, 0.7380073800738007],
  [`${'x'.repeat(9)}a`, `a${'y'.repeat(200)}`, 18.181818181818176, 0.9478672985781991],
];

describe("rapidfuzz's ratio and partial_ratio", () => {
  it.each(cases)('%j against %j', (a, b, partial, full) => {
    expect(partialRatio(a, b)).toBeCloseTo(partial, 9);
    expect(ratio(a, b)).toBeCloseTo(full, 9);
    expect(partialRatioIsFull(a, b)).toBe(partial === 100);
  });
});

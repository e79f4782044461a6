import { describe, expect, it } from 'vitest';
import { describeCorrections } from './correctionCount.js';

describe('describeCorrections', () => {
  it('counts field corrections as corrections', () => {
    expect(describeCorrections(0, 0)).toBe('No corrections yet');
    expect(describeCorrections(0, 2)).toBe('2 fields corrected');
    expect(describeCorrections(1, 1)).toBe('1 revision · 1 field corrected');
    expect(describeCorrections(3, 0)).toBe('3 revisions');
  });
});

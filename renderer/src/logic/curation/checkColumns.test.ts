import { describe, expect, it } from 'vitest';
import { checkColumns, shownScore } from './checkColumns.js';

const scores = { score: 0, text: 1, structure: 0.5, tables: 1, tablesStructure: 1, formulas: null, repetition: 0.8, unitTests: null };

describe('shownScore', () => {
  it('shows no combined score and no engine-vs-correction check for an uncorrected page', () => {
    const uncorrected = { hasRevision: false, scores };
    expect(shownScore(uncorrected, 'score')).toBeNull();
    expect(shownScore(uncorrected, 'text')).toBeNull();
    expect(shownScore(uncorrected, 'tables')).toBeNull();
    // The reference-free checks mean something before any correction.
    expect(shownScore(uncorrected, 'structure')).toBe(0.5);
    expect(shownScore(uncorrected, 'repetition')).toBe(0.8);
  });
  it('shows every score once the page is corrected', () => {
    const corrected = { hasRevision: true, scores };
    expect(shownScore(corrected, 'score')).toBe(0);
    for (const column of checkColumns) expect(shownScore(corrected, column.key)).toBe(scores[column.key]);
  });
});

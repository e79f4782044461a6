/**
 * A combined page score for curation, mirroring the shape of Jina-OCR-v1's training reward: graded terms multiplied,
 * each term floored so one bad aspect does not zero the page — 0.2 for the structure, unit-test and format terms,
 * 0.1 for the table term — except repetition, which has no floor (a looping output is worthless).
 *
 * This is a CURATION score: it orders pages for review (worst first) and summarises a corpus. It is not the paper's
 * exact reward (whose weights and terms we do not reproduce) and not a benchmark figure. Terms that do not apply to a
 * page (no tables, no unit tests) are left out rather than counted as 1 or 0.
 */
export interface PageScoreTerms {
  /** 1 − normalised edit distance of the text against the reference (e.g. the corrected Markdown). */
  text?: number;
  /** Structural validity (checkStructure().score). */
  structure?: number;
  /** olmOCR-style unit-test pass rate. */
  unitTests?: number;
  /** Formatting / formula term (e.g. share of formulas that match and render). */
  format?: number;
  /** Mean TEDS of the page's tables. */
  tables?: number;
  /** Repetition score (repetitionReport().score). */
  repetition?: number;
}

export const pageScoreFloors: Readonly<Record<keyof PageScoreTerms, number>> = {
  text: 0,
  structure: 0.2,
  unitTests: 0.2,
  format: 0.2,
  tables: 0.1,
  repetition: 0,
};

export interface PageScore {
  score: number;
  /** Each present term after clamping to [floor, 1]. */
  applied: Partial<Record<keyof PageScoreTerms, number>>;
}

export function combinedPageScore(terms: PageScoreTerms): PageScore {
  const applied: Partial<Record<keyof PageScoreTerms, number>> = {};
  let score = 1;
  for (const key of Object.keys(pageScoreFloors) as (keyof PageScoreTerms)[]) {
    const value = terms[key];
    if (value === undefined || !Number.isFinite(value)) continue;
    const clamped = Math.min(1, Math.max(pageScoreFloors[key], value));
    applied[key] = clamped;
    score *= clamped;
  }
  return { score, applied };
}

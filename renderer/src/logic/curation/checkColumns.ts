/** The per-check columns of the curation list: which score, its short header, and its tooltip. */
import type { CheckScores } from '../../../../app/contract/curation.js';

export type CheckKey = Exclude<keyof CheckScores, 'score'>;

export const checkColumns: { key: CheckKey; short: string; title: string }[] = [
  { key: 'text', short: 'Text', title: 'Normalised edit distance of the text, reading-order aware' },
  { key: 'structure', short: 'Struct', title: 'Structural validity: balanced tables, row widths, valid Markdown' },
  { key: 'tables', short: 'TEDS', title: 'Table tree edit distance similarity (content and structure)' },
  { key: 'tablesStructure', short: 'TEDS-S', title: 'Table tree edit distance similarity, structure only' },
  { key: 'formulas', short: 'Math', title: 'Formula match (normalised LaTeX, renders with KaTeX)' },
  { key: 'repetition', short: 'Rep', title: 'Repetition: n-gram loops and runaway length' },
  { key: 'unitTests', short: 'Tests', title: 'olmOCR-Bench unit tests derived from the correction' },
];

/** A colour band for a score, for the bars: bad below 0.5, doubtful below 0.9, fine above. */
export function scoreBand(score: number | null): 'none' | 'bad' | 'fair' | 'good' {
  if (score === null || Number.isNaN(score)) return 'none';
  if (score < 0.5) return 'bad';
  if (score < 0.9) return 'fair';
  return 'good';
}

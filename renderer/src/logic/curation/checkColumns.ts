/** The per-check columns of the curation list: which score, its short header, and its tooltip. */
import type { CheckScores } from '../../../../app/contract/curation.js';

export type CheckKey = Exclude<keyof CheckScores, 'score'>;

/** `againstCorrection`: the check compares the engine's text with the analyst's, so it says nothing before a correction. */
export const checkColumns: { key: CheckKey; short: string; title: string; againstCorrection: boolean }[] = [
  { key: 'text', short: 'Text', title: 'Normalised edit distance of the text, reading-order aware', againstCorrection: true },
  { key: 'structure', short: 'Struct', title: 'Structural validity: balanced tables, row widths, valid Markdown', againstCorrection: false },
  { key: 'tables', short: 'TEDS', title: 'Table tree edit distance similarity (content and structure)', againstCorrection: true },
  { key: 'tablesStructure', short: 'TEDS-S', title: 'Table tree edit distance similarity, structure only', againstCorrection: true },
  { key: 'formulas', short: 'Math', title: 'Formula match (normalised LaTeX, renders with KaTeX)', againstCorrection: true },
  { key: 'repetition', short: 'Rep', title: 'Repetition: n-gram loops and runaway length', againstCorrection: false },
  { key: 'unitTests', short: 'Tests', title: 'olmOCR-Bench unit tests derived from the correction', againstCorrection: true },
];

/**
 * The score a queue row shows for a check (or the combined score, `score`): none for a page without a text
 * correction where the check needs one — its 1.00 or 0.00 would be an artefact of comparing the engine with itself
 * (the row shows its needs-attention signals instead). The reference-free checks show always.
 */
export function shownScore(item: { hasRevision: boolean; scores: CheckScores }, key: CheckKey | 'score'): number | null {
  const needsCorrection = key === 'score' || checkColumns.find((column) => column.key === key)?.againstCorrection === true;
  return needsCorrection && !item.hasRevision ? null : item.scores[key];
}

/** A colour band for a score, for the bars: bad below 0.5, doubtful below 0.9, fine above. */
export function scoreBand(score: number | null): 'none' | 'bad' | 'fair' | 'good' {
  if (score === null || Number.isNaN(score)) return 'none';
  if (score < 0.5) return 'bad';
  if (score < 0.9) return 'fair';
  return 'good';
}

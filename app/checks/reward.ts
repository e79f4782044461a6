/**
 * The reward of one prediction against a reference: the same combined check score that ranks pages in the curation
 * view (terms multiplied, each clamped to its floor — see pageScore.ts), exposed as a library call for training and
 * evaluation loops. `terms` are the terms after clamping (what was multiplied); `raw` the terms before it, so a
 * caller can see how far below its floor a term fell.
 */
import type { BenchTest } from './olmocr/schema.js';
import { runPageChecks } from './pageChecks.js';
import type { PageScoreTerms } from './pageScore.js';

export interface Reward {
  /** The product of the applied terms, in [0, 1]; 1 = the prediction is as good as the reference. */
  score: number;
  /** Each applicable term after clamping to [floor, 1]. Terms that do not apply to the pair are absent. */
  terms: Partial<Record<keyof PageScoreTerms, number>>;
  /** The same terms before clamping. */
  raw: Partial<Record<keyof PageScoreTerms, number>>;
}

export interface RewardOptions {
  /** olmOCR-style unit tests the prediction should pass (the unitTests term). */
  tests?: readonly BenchTest[];
}

export function reward(reference: string, predicted: string, options: RewardOptions = {}): Reward {
  const results = runPageChecks(predicted, reference, { tests: options.tests });
  const raw: Partial<Record<keyof PageScoreTerms, number>> = {
    text: 1 - results.text.ned,
    structure: results.structure.score,
    repetition: results.repetition.score,
  };
  if (results.tables) raw.tables = results.tables.teds;
  if (results.formulas) raw.format = results.formulas.score;
  if (results.unitTests) raw.unitTests = results.unitTests.passed / results.unitTests.total;
  return { score: results.combined.score, terms: results.combined.applied, raw };
}

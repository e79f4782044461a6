/**
 * All checks of one page at once: the engine's Markdown against the analyst's corrected Markdown (the reference),
 * plus optional olmOCR-style unit tests. This is what a store recomputes when a revision is saved and what the
 * curation view sorts by. Every term is in [0, 1], 1 = engine output as good as the reference; a term is absent when
 * it does not apply (no tables, no formulas, no tests).
 */
import { gridToHtml } from '../tables/grid.js';
import { parsePipeTables } from '../tables/pipeTables.js';
import { extractMath, markdownContainsFormula, rendersWithKatex } from './formula.js';
import { runBenchTest } from './olmocr/runTest.js';
import type { BenchTest } from './olmocr/schema.js';
import { combinedPageScore, type PageScore } from './pageScore.js';
import { repetitionReport } from './repetition.js';
import { sharedHtmlTables } from './sharedTables.js';
import { checkStructure } from './structure.js';
import { tedsAndStructure } from './teds.js';
import { readingOrderDistance, type ReadingOrderDistance } from './textDistance.js';

export interface PageCheckResults {
  text: ReadingOrderDistance;
  structure: { score: number; problems: string[] };
  /** Tables paired in order; TEDS of a reference table without a counterpart is 0. */
  tables?: { reference: number; predicted: number; teds: number; tedsStructure: number };
  /** Share of the reference's formulas found in the output, and of the output's formulas that KaTeX renders. */
  formulas?: { reference: number; matched: number; predicted: number; rendering: number; score: number };
  repetition: { score: number; loopRepeats: number };
  unitTests?: { passed: number; total: number; failed: { id: string; reason: string }[] };
  /**
   * Where the document carries an e-invoice: the fields and line amounts the page prints otherwise than its XML
   * states ("total: page 1.589,80 — XML 119.00"). Any of them makes the page's score 0 (checkPage), so the curation
   * queue, worst first, shows it first.
   */
  einvoice?: { disagreements: { field: string; page: string | null; xml: string | null }[]; messages: string[] };
  combined: PageScore;
}

/** Every table of the Markdown as HTML: HTML tables as written, pipe tables rendered from their grid. */
export function tablesAsHtml(markdown: string): string[] {
  const html = [...markdown.matchAll(/<table[\s>][\s\S]*?<\/table>/gi)].map((m) => m[0]);
  // Nested tables make the lazy match stop early; fall back to rendering grids in that case.
  const parsed = sharedHtmlTables(markdown);
  const nested = html.length !== parsed.length;
  return [...(nested ? parsed.map(gridToHtml) : html), ...parsePipeTables(markdown).map(gridToHtml)];
}

export function runPageChecks(predicted: string, reference: string, options: { tests?: readonly BenchTest[] } = {}): PageCheckResults {
  const text = readingOrderDistance(predicted, reference);
  const structure = checkStructure(predicted);
  const repetition = repetitionReport(predicted, { maxLength: Math.max(2000, reference.length * 3) });

  let tables: PageCheckResults['tables'];
  const referenceTables = tablesAsHtml(reference);
  const predictedTables = tablesAsHtml(predicted);
  if (referenceTables.length > 0 || predictedTables.length > 0) {
    const count = Math.max(referenceTables.length, predictedTables.length);
    let content = 0;
    let shape = 0;
    for (let i = 0; i < count; i++) {
      const p = predictedTables[i] ?? '';
      const r = referenceTables[i] ?? '';
      const pair = tedsAndStructure(p, r);
      content += pair.teds;
      shape += pair.tedsStructure;
    }
    tables = { reference: referenceTables.length, predicted: predictedTables.length, teds: content / count, tedsStructure: shape / count };
  }

  let formulas: PageCheckResults['formulas'];
  const referenceFormulas = extractMath(reference);
  const predictedFormulas = extractMath(predicted);
  if (referenceFormulas.length > 0 || predictedFormulas.length > 0) {
    const matched = referenceFormulas.filter((f) => markdownContainsFormula(predicted, f)).length;
    const rendering = predictedFormulas.filter((f) => rendersWithKatex(f)).length;
    const parts: number[] = [];
    if (referenceFormulas.length > 0) parts.push(matched / referenceFormulas.length);
    if (predictedFormulas.length > 0) parts.push(rendering / predictedFormulas.length);
    formulas = {
      reference: referenceFormulas.length,
      matched,
      predicted: predictedFormulas.length,
      rendering,
      score: parts.reduce((a, b) => a + b, 0) / parts.length,
    };
  }

  let unitTests: PageCheckResults['unitTests'];
  if (options.tests && options.tests.length > 0) {
    const outcomes = options.tests.map((test) => ({ test, ...runBenchTest(test, predicted) }));
    unitTests = {
      passed: outcomes.filter((o) => o.passed).length,
      total: outcomes.length,
      failed: outcomes.filter((o) => !o.passed).map((o) => ({ id: o.test.id, reason: o.reason })),
    };
  }

  const combined = combinedPageScore({
    text: 1 - text.ned,
    structure: structure.score,
    unitTests: unitTests ? unitTests.passed / unitTests.total : undefined,
    format: formulas?.score,
    tables: tables?.teds,
    repetition: repetition.score,
  });
  return {
    text,
    structure: { score: structure.score, problems: structure.problems },
    tables,
    formulas,
    repetition: { score: repetition.score, loopRepeats: repetition.loop?.repeats ?? 0 },
    unitTests,
    combined,
  };
}

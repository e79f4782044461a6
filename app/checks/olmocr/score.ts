/**
 * olmOCR-Bench scoring, as upstream's benchmark.py: each test is run on the Markdown of its page; a page whose output
 * is missing fails all its tests. The headline figure is the mean over test files (JSONL files; upstream adds an
 * implicit `baseline` group) of each file's pass rate — "pass rate of the tests per file, averaged". Also reported:
 * - `byType`: pass rate per test type;
 * - `perFile`: pass rate per test file, `overall` = their mean;
 * - `perPdf`: pass rate per PDF;
 * - `testPassRate`: passed / total over all tests, unweighted by file.
 */
import { runBenchTest, type TestOutcome } from './runTest.js';
import type { BenchTest, BenchTestType } from './schema.js';

export interface TestResult extends TestOutcome {
  test: BenchTest;
  file: string;
}

export interface PassRate {
  passed: number;
  total: number;
  rate: number;
}

export interface BenchScore {
  results: TestResult[];
  byType: Partial<Record<BenchTestType, PassRate>>;
  perFile: Record<string, PassRate>;
  perPdf: Record<string, PassRate>;
  overall: number;
  testPassRate: number;
}

function rate(passed: number, total: number): PassRate {
  return { passed, total, rate: total === 0 ? 0 : passed / total };
}

/**
 * `pageMarkdown(pdf, page)` returns the page's Markdown, or undefined when the engine produced nothing.
 * `fileOf(test)` names the test file a test came from (default: all in one file, so `overall` = `testPassRate`).
 */
export function scoreBenchTests(
  tests: readonly BenchTest[],
  pageMarkdown: (pdf: string, page: number) => string | undefined,
  fileOf: (test: BenchTest) => string = () => 'tests',
): BenchScore {
  const results: TestResult[] = tests.map((test) => {
    const markdown = pageMarkdown(test.pdf, test.page);
    if (markdown === undefined) return { test, file: fileOf(test), passed: false, reason: 'no output for this page' };
    return { test, file: fileOf(test), ...runBenchTest(test, markdown) };
  });
  const tally = <K extends string>(key: (r: TestResult) => K): Record<K, PassRate> => {
    const groups = new Map<K, { passed: number; total: number }>();
    for (const r of results) {
      const g = groups.get(key(r)) ?? { passed: 0, total: 0 };
      g.total++;
      if (r.passed) g.passed++;
      groups.set(key(r), g);
    }
    return Object.fromEntries([...groups].map(([k, g]) => [k, rate(g.passed, g.total)])) as Record<K, PassRate>;
  };
  const perFile = tally((r) => r.file);
  const fileRates = Object.values(perFile).map((p) => p.rate);
  const passed = results.filter((r) => r.passed).length;
  return {
    results,
    byType: tally((r) => r.test.type),
    perFile,
    perPdf: tally((r) => r.test.pdf),
    overall: fileRates.length === 0 ? 0 : fileRates.reduce((a, b) => a + b, 0) / fileRates.length,
    testPassRate: results.length === 0 ? 0 : passed / results.length,
  };
}

/**
 * Upstream adds a plain baseline test (page 1: some text, no runaway repetition, no disallowed characters) for every
 * PDF that has none, in a file of its own named `baseline`.
 */
export function implicitBaselineTests(pdfs: readonly string[], tests: readonly BenchTest[]): BenchTest[] {
  const withBaseline = new Set(tests.filter((t) => t.type === 'baseline').map((t) => t.pdf));
  return pdfs
    .filter((pdf) => !withBaseline.has(pdf))
    .map((pdf) => ({ pdf, page: 1, id: `${pdf}_baseline`, type: 'baseline', max_diffs: 0, max_repeats: 30, check_disallowed_characters: true }));
}

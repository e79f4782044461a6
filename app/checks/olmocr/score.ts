/**
 * olmOCR-Bench scoring. Each test is run on the Markdown of its page; a page whose output is missing fails all its
 * tests (upstream behaviour). Reported:
 * - `byType`: pass rate per test type;
 * - `perPdf`: pass rate per PDF, and `overall` = their mean ("pass rate of the tests per file, averaged");
 * - `testPassRate`: passed / total over all tests (unweighted by file), for reference.
 */
import { runBenchTest, type TestOutcome } from './runTest.js';
import type { BenchTest, BenchTestType } from './schema.js';

export interface TestResult extends TestOutcome {
  test: BenchTest;
}

export interface PassRate {
  passed: number;
  total: number;
  rate: number;
}

export interface BenchScore {
  results: TestResult[];
  byType: Partial<Record<BenchTestType, PassRate>>;
  perPdf: Record<string, PassRate>;
  overall: number;
  testPassRate: number;
}

function rate(passed: number, total: number): PassRate {
  return { passed, total, rate: total === 0 ? 0 : passed / total };
}

/** `pageMarkdown(pdf, page)` returns the page's Markdown, or undefined when the engine produced nothing. */
export function scoreBenchTests(
  tests: readonly BenchTest[],
  pageMarkdown: (pdf: string, page: number) => string | undefined,
): BenchScore {
  const results: TestResult[] = tests.map((test) => {
    const markdown = pageMarkdown(test.pdf, test.page);
    if (markdown === undefined) return { test, passed: false, reason: 'no output for this page' };
    return { test, ...runBenchTest(test, markdown) };
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
  const perPdf = tally((r) => r.test.pdf);
  const pdfRates = Object.values(perPdf).map((p) => p.rate);
  const passed = results.filter((r) => r.passed).length;
  return {
    results,
    byType: tally((r) => r.test.type),
    perPdf,
    overall: pdfRates.length === 0 ? 0 : pdfRates.reduce((a, b) => a + b, 0) / pdfRates.length,
    testPassRate: results.length === 0 ? 0 : passed / results.length,
  };
}

/**
 * The reading dataset (`bench/reading/dataset.jsonl`): olmOCR-Bench tests (`present`, `absent`, `order`, same schema
 * and scorer as the olmOCR sample) written by hand on real public pages of the shared test set — the tracemonkey
 * paper and the other pdf.js files, the camelot/tabula PDFs, the ICDAR documents — each tagged with the reading rule
 * it exercises (`rule`: hyphenation, paragraph, title, column-order, furniture, image-text, small-page). `pdf` is a
 * path under the test-data root. Reports pass rates by rule and by test type, so the figures can be read beside
 * olmOCR-Bench's (reported by type). See docs/reading.md.
 */
import path from 'node:path';
import { parseBenchTests, scoreBenchTests, type BenchTest, type PassRate } from '../../app/checks/olmocr/index.js';
import type { ReadPage } from './olmocrBench.js';
import { readTextFile, repoRoot } from '../../testing/testdataPaths.js';

export const readingDatasetPath = path.join(repoRoot, 'bench', 'reading', 'dataset.jsonl');

/** The rules the dataset's tests are tagged with (docs/reading.md describes each). */
export const readingRules = ['hyphenation', 'paragraph', 'title', 'column-order', 'furniture', 'image-text', 'text-region', 'small-page'] as const;

export interface ReadingBenchResult {
  tests: number;
  pages: number;
  passed: number;
  rate: number;
  byRule: Record<string, PassRate>;
  byType: Record<string, PassRate>;
  /** By the test's `split`: `held-out` (written after the rules were done, never tuned on) or `dev`. */
  bySplit: Record<string, PassRate>;
  failures: { id: string; rule: string; type: string; reason: string }[];
  /** Bad test lines, tests without a known rule, and pages the engine failed on. */
  errors: string[];
}

/** The test's `rule` tag (an extra key, kept by the schema's passthrough). */
export function ruleOf(test: BenchTest): string {
  const rule: unknown = (test as Record<string, unknown>).rule;
  return typeof rule === 'string' ? rule : 'untagged';
}

export async function loadReadingTests(file = readingDatasetPath): Promise<{ tests: BenchTest[]; errors: string[] }> {
  const parsed = parseBenchTests(await readTextFile(file), path.basename(file));
  const errors = [...parsed.errors];
  for (const test of parsed.tests) {
    if (!(readingRules as readonly string[]).includes(ruleOf(test))) errors.push(`${test.id}: rule "${ruleOf(test)}" is not one of ${readingRules.join(', ')}`);
  }
  return { tests: parsed.tests, errors };
}

/** The test's `split` tag: `held-out`, or `dev` when absent. */
export function splitOf(test: BenchTest): string {
  const split: unknown = (test as Record<string, unknown>).split;
  return typeof split === 'string' ? split : 'dev';
}

/** Pages the tests ask for, in file order (for prefetching). */
export function readingPages(tests: readonly BenchTest[], testdataRoot: string): { filePath: string; pageNumber: number }[] {
  const keys = [...new Set(tests.map((t) => `${t.pdf}\u0000${t.page}`))];
  return keys.map((key) => {
    const [pdf, page] = key.split('\u0000') as [string, string];
    return { filePath: path.join(testdataRoot, pdf), pageNumber: Number(page) };
  });
}

export async function runReadingBench(readPage: ReadPage, options: { testdataRoot: string; datasetFile?: string }): Promise<ReadingBenchResult> {
  const { tests, errors } = await loadReadingTests(options.datasetFile);
  const markdownByPage = new Map<string, string | undefined>();
  const pages = readingPages(tests, options.testdataRoot);
  for (const { filePath, pageNumber } of pages) {
    const key = `${path.relative(options.testdataRoot, filePath).split(path.sep).join('/')}\u0000${pageNumber}`;
    try {
      markdownByPage.set(key, await readPage(filePath, pageNumber));
    } catch (error) {
      errors.push(`${filePath} page ${pageNumber}: ${(error as Error).message}`);
      markdownByPage.set(key, undefined);
    }
  }
  const score = scoreBenchTests(tests, (pdf, page) => markdownByPage.get(`${pdf}\u0000${page}`));
  const tally = (key: (test: BenchTest) => string): Record<string, PassRate> => {
    const groups: Record<string, PassRate> = {};
    for (const r of score.results) {
      const g = (groups[key(r.test)] ??= { passed: 0, total: 0, rate: 0 });
      g.total++;
      if (r.passed) g.passed++;
      g.rate = g.passed / g.total;
    }
    return groups;
  };
  const passed = score.results.filter((r) => r.passed).length;
  return {
    tests: tests.length,
    pages: pages.length,
    passed,
    rate: tests.length ? passed / tests.length : 0,
    byRule: tally(ruleOf),
    byType: tally((t) => t.type),
    bySplit: tally(splitOf),
    failures: score.results.filter((r) => !r.passed).map((r) => ({ id: r.test.id, rule: ruleOf(r.test), type: r.test.type, reason: r.reason })),
    errors,
  };
}

export function formatReadingBench(result: ReadingBenchResult): string {
  const line = (name: string, r: PassRate): string => `  ${name.padEnd(13)} ${String(r.passed).padStart(3)}/${String(r.total).padEnd(3)} ${(100 * r.rate).toFixed(1)}%`;
  return [
    `Reading dataset (bench/reading): ${result.passed}/${result.tests} = ${(100 * result.rate).toFixed(1)}% on ${result.pages} pages`,
    '  by rule:',
    ...Object.entries(result.byRule).map(([rule, r]) => line(rule, r)),
    '  by type:',
    ...Object.entries(result.byType).map(([type, r]) => line(type, r)),
    '  by split:',
    ...Object.entries(result.bySplit).map(([split, r]) => line(split, r)),
    ...result.errors.map((e) => `  error: ${e}`),
  ].join('\n');
}

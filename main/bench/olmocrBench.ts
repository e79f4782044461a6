/**
 * olmOCR-Bench on the public sample (shared/testdata/olmocr/…/sample_data): loads `dataset.jsonl` (and
 * `blanks.jsonl`), asks the engine for each page's Markdown once, scores with app/checks/olmocr, and returns pass
 * rates by test type and overall. The engine is a callback so this harness knows nothing of engines.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseBenchTests, scoreBenchTests, type BenchScore, type BenchTest, type PassRate } from '../../app/checks/olmocr/index.js';
import { defaultTestdataRoot, readTextFile, testdataPath } from './testdataPaths.js';

/** Returns the page's Markdown; `pdfPath` is absolute, `pageNumber` 1-based. */
export type ReadPage = (pdfPath: string, pageNumber: number) => Promise<string>;

export interface OlmocrBenchOptions {
  testdataRoot?: string;
  /** JSONL files under sample_data to score; default both that exist of dataset.jsonl and blanks.jsonl. */
  testFiles?: string[];
  /** Called after each page with progress (pages done, pages total). */
  onProgress?: (done: number, total: number) => void;
}

export interface OlmocrBenchResult {
  byType: BenchScore['byType'];
  /** Mean over PDFs of each PDF's pass rate (the bench's headline figure). */
  overall: number;
  /** Passed / total over all tests. */
  testPassRate: number;
  perPdf: Record<string, PassRate>;
  failures: { id: string; type: string; reason: string }[];
  /** Bad test lines and pages the engine failed on. */
  errors: string[];
  tests: number;
  pages: number;
}

export async function runOlmocrBench(readPage: ReadPage, options: OlmocrBenchOptions = {}): Promise<OlmocrBenchResult> {
  const sampleDir = testdataPath(options.testdataRoot ?? defaultTestdataRoot, 'olmocrSample');
  const files = options.testFiles ?? ['dataset.jsonl', 'blanks.jsonl'].filter((f) => existsSync(path.join(sampleDir, f)));
  const tests: BenchTest[] = [];
  const errors: string[] = [];
  for (const file of files) {
    const parsed = parseBenchTests(await readTextFile(path.join(sampleDir, file)), file);
    tests.push(...parsed.tests);
    errors.push(...parsed.errors);
  }
  const pageKeys = [...new Set(tests.map((t) => `${t.pdf}\u0000${t.page}`))];
  const markdownByPage = new Map<string, string | undefined>();
  let done = 0;
  for (const key of pageKeys) {
    const [pdf, page] = key.split('\u0000') as [string, string];
    const pdfPath = path.join(sampleDir, 'pdfs', pdf);
    try {
      markdownByPage.set(key, await readPage(pdfPath, Number(page)));
    } catch (error) {
      errors.push(`${pdfPath} page ${page}: ${(error as Error).message}`);
      markdownByPage.set(key, undefined);
    }
    options.onProgress?.(++done, pageKeys.length);
  }
  const score = scoreBenchTests(tests, (pdf, page) => markdownByPage.get(`${pdf}\u0000${page}`));
  return {
    byType: score.byType,
    overall: score.overall,
    testPassRate: score.testPassRate,
    perPdf: score.perPdf,
    failures: score.results.filter((r) => !r.passed).map((r) => ({ id: r.test.id, type: r.test.type, reason: r.reason })),
    errors,
    tests: tests.length,
    pages: pageKeys.length,
  };
}

/**
 * The bench's own reference outputs (`olmocr_pipeline/<pdf stem>_pg<page>_repeat1.md`, one published model's output)
 * as an engine: for checking the harness and as the scale against which engines are read.
 */
export function olmocrPipelineOutputs(testdataRoot = defaultTestdataRoot): ReadPage {
  const sampleDir = testdataPath(testdataRoot, 'olmocrSample');
  return async (pdfPath, pageNumber) => {
    const relative = path.relative(path.join(sampleDir, 'pdfs'), pdfPath).replace(/\.pdf$/i, '');
    return readTextFile(path.join(sampleDir, 'olmocr_pipeline', `${relative}_pg${pageNumber}_repeat1.md`));
  };
}

/** Plain-text table of a result, for the CLI. */
export function formatOlmocrBench(result: OlmocrBenchResult): string {
  const rows = Object.entries(result.byType).map(([type, r]) => `  ${type.padEnd(10)} ${String(r.passed).padStart(3)}/${String(r.total).padEnd(3)} ${(100 * r.rate).toFixed(1)}%`);
  return [
    `olmOCR-Bench sample: ${result.tests} tests on ${result.pages} pages`,
    ...rows,
    `  overall (mean per PDF) ${(100 * result.overall).toFixed(1)}%   all tests ${(100 * result.testPassRate).toFixed(1)}%`,
    ...result.errors.map((e) => `  error: ${e}`),
  ].join('\n');
}

/**
 * olmOCR-Bench on the public sample (shared/testdata/olmocr/…/sample_data): loads `dataset.jsonl` (and
 * `blanks.jsonl`), asks the engine for each page's Markdown once, scores with app/checks/olmocr, and returns pass
 * rates by test type and overall. The engine is a callback so this harness knows nothing of engines.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { implicitBaselineTests, parseBenchTests, scoreBenchTests, type BenchScore, type BenchTest, type PassRate } from '../../app/checks/olmocr/index.js';
import { defaultTestdataRoot, readTextFile, testdataPath } from '../../testing/testdataPaths.js';

/** Returns the page's Markdown; `pdfPath` is absolute, `pageNumber` 1-based. */
export type ReadPage = (pdfPath: string, pageNumber: number) => Promise<string>;

export interface OlmocrBenchOptions {
  testdataRoot?: string;
  /** JSONL files under sample_data to score; default both that exist of dataset.jsonl and blanks.jsonl. */
  testFiles?: string[];
  /** Add upstream's implicit baseline test for every PDF under pdfs/ without one (default true). */
  implicitBaselines?: boolean;
  /** Called after each page with progress (pages done, pages total). */
  onProgress?: (done: number, total: number) => void;
}

export interface OlmocrBenchResult {
  byType: BenchScore['byType'];
  /** Mean over test files of each file's pass rate (the bench's headline figure, as upstream). */
  overall: number;
  perFile: Record<string, PassRate>;
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
  const fileOf = new Map<BenchTest, string>();
  const errors: string[] = [];
  for (const file of files) {
    const parsed = parseBenchTests(await readTextFile(path.join(sampleDir, file)), file);
    for (const test of parsed.tests) fileOf.set(test, file);
    tests.push(...parsed.tests);
    errors.push(...parsed.errors);
  }
  if (options.implicitBaselines ?? true) {
    for (const test of implicitBaselineTests(listPdfs(path.join(sampleDir, 'pdfs')), tests)) {
      fileOf.set(test, 'baseline');
      tests.push(test);
    }
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
  const score = scoreBenchTests(tests, (pdf, page) => markdownByPage.get(`${pdf}\u0000${page}`), (t) => fileOf.get(t) ?? 'tests');
  return {
    byType: score.byType,
    overall: score.overall,
    perFile: score.perFile,
    testPassRate: score.testPassRate,
    perPdf: score.perPdf,
    failures: score.results.filter((r) => !r.passed).map((r) => ({ id: r.test.id, type: r.test.type, reason: r.reason })),
    errors,
    tests: tests.length,
    pages: pageKeys.length,
  };
}

/** PDF paths relative to `dir`, recursively, with `/` separators (the bench's `pdf` field). */
function listPdfs(dir: string, prefix = ''): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory()
        ? listPdfs(path.join(dir, entry.name), `${prefix}${entry.name}/`)
        : entry.name.toLowerCase().endsWith('.pdf')
          ? [`${prefix}${entry.name}`]
          : [],
    )
    .sort();
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
    ...Object.entries(result.perFile).map(([file, r]) => `  file ${file.padEnd(14)} ${r.passed}/${r.total} ${(100 * r.rate).toFixed(1)}%`),
    `  overall (mean per test file) ${(100 * result.overall).toFixed(1)}%   all tests ${(100 * result.testPassRate).toFixed(1)}%`,
    ...result.errors.map((e) => `  error: ${e}`),
  ].join('\n');
}

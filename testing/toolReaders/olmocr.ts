/**
 * What olmOCR's tools require of a folder, as their code reads it (no Python here; each function follows the named
 * upstream code, it does not copy it):
 * - `benchRunnerInputs` — olmOCR-Bench's runner, allenai/olmocr `olmocr/bench/benchmark.py` main(): `--dir` given a
 *   tests file, the PDFs are `<dir>/pdfs/**\/*.pdf` (none: "No PDF files found", exit 1), named relative to `pdfs/`;
 *   only the PDFs the file's tests name are scored; every page of each must have a test (a baseline test is added for
 *   page 1 of each PDF), and a test whose PDF is not there can only fail ("missing MD files"). A candidate's answer
 *   for a page is `<candidate>/<pdf without .pdf>_pg<page>_repeat<n>.md`.
 * - `trainerSamples` — olmOCR's trainer data loader, `olmocr/train/dataloader.py` (BaseMarkdownPDFDataset): every
 *   `.md` under the root with YAML front matter and a `<stem>.pdf` beside it is a sample; an `.md` without its PDF is
 *   skipped silently.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';

function filesUnder(root: string, suffix: string): string[] {
  if (!fs.existsSync(root)) return [];
  return (fs.readdirSync(root, { recursive: true }) as string[]).filter((name) => name.endsWith(suffix)).sort();
}

export interface BenchTest {
  id: string;
  pdf: string;
  page: number;
  type: string;
  [key: string]: unknown;
}

/** The runner's view of `<dir>/tests.jsonl`: the tests and PDFs it would score, or the error it stops with. */
export async function benchRunnerInputs(testsFile: string): Promise<{ tests: BenchTest[]; pdfs: string[] }> {
  const dir = path.dirname(testsFile);
  const pdfFolder = path.join(dir, 'pdfs');
  if (!fs.existsSync(pdfFolder)) throw new Error('Error: /pdfs folder must exist in your data directory.');
  const all = filesUnder(pdfFolder, '.pdf');
  if (all.length === 0) throw new Error(`Error: No PDF files found in ${pdfFolder}`);
  const tests = fs
    .readFileSync(testsFile, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as BenchTest);
  if (tests.length === 0) throw new Error('No valid tests found. Exiting.');
  const referenced = new Set(tests.map((t) => t.pdf));
  const pdfs = all.filter((name) => referenced.has(name));
  for (const test of tests) {
    if (!pdfs.includes(test.pdf)) throw new Error(`test ${test.id}: no ${test.pdf} in ${pdfFolder} (the runner scores it as missing)`);
  }
  for (const pdf of pdfs) {
    const pages = (await PDFDocument.load(fs.readFileSync(path.join(pdfFolder, pdf)))).getPageCount();
    for (let page = 2; page <= pages; page++) {
      if (!tests.some((t) => t.pdf === pdf && t.page === page)) throw new Error(`No dataset entry found for pdf ${pdf} page ${page}`);
    }
  }
  return { tests, pdfs };
}

/** The file a candidate writes for a test's page (first repeat). */
export const candidateFileOf = (test: Pick<BenchTest, 'pdf' | 'page'>): string => `${test.pdf.replace(/\.pdf$/, '')}_pg${test.page}_repeat1.md`;

/** The trainer's samples under `root`: each `.md` with front matter and its PDF. */
export function trainerSamples(root: string): { md: string; pdf: string; frontMatter: Record<string, string>; text: string }[] {
  return filesUnder(root, '.md').flatMap((md) => {
    const pdf = md.replace(/\.md$/, '.pdf');
    if (!fs.existsSync(path.join(root, pdf))) return [];
    const match = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(fs.readFileSync(path.join(root, md), 'utf8'));
    if (!match) return [];
    const frontMatter = Object.fromEntries(match[1]!.split('\n').map((line) => line.split(': ') as [string, string]));
    return [{ md, pdf, frontMatter, text: match[2]! }];
  });
}

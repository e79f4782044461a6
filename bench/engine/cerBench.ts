/**
 * Character error rate of an engine's page text against the pdf.js test PDFs' pdftotext layers
 * (shared/testdata/pdfjs/groundtruth_pdftotext/<name>.raw.txt, pages separated by form feeds). Intended for pages the
 * engine OCRs from rendered images; Markdown syntax is stripped before comparing (see `markdownToPlainText`).
 */
import path from 'node:path';
import { readdirSync } from 'node:fs';
import { characterErrorRate } from '../../app/checks/textDistance.js';
import type { ReadPage } from './olmocrBench.js';
import { defaultTestdataRoot, readTextFile, testdataPath } from '../../testing/testdataPaths.js';

export { characterErrorRate };

/**
 * Markdown → plain text for CER: drops heading hashes, emphasis, table pipes and delimiter rows, HTML tags, and decodes
 * the character references HTML table cells carry (`&#36;` for `$` — until 2026-11-30 it was left in, costing every
 * dollar amount in a table four characters of "error").
 */
export function markdownToPlainText(markdown: string): string {
  return markdown
    .replace(/<[^>]+>/g, ' ')
    .replace(/^\s*\|?\s*:?-{3,}.*$/gm, ' ')
    .replace(/\|/g, ' ')
    .replace(/^\s{0,3}#{1,6}\s+/gm, '')
    .replace(/(\*\*|__|\*|`)/g, '')
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&#x([0-9a-f]+);/gi, (_, code: string) => String.fromCodePoint(Number.parseInt(code, 16)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

export interface CerPage {
  pdfPath: string;
  page: number;
  reference: string;
}

export async function loadPdfjsCerPages(testdataRoot = defaultTestdataRoot, documents?: string[]): Promise<CerPage[]> {
  const truthDir = testdataPath(testdataRoot, 'pdfjs', 'groundtruth_pdftotext');
  const names = documents ?? readdirSync(truthDir).filter((f) => f.endsWith('.raw.txt')).map((f) => f.replace(/\.raw\.txt$/, '')).sort();
  const pages: CerPage[] = [];
  for (const name of names) {
    const text = await readTextFile(path.join(truthDir, `${name}.raw.txt`));
    const pageTexts = text.split('\f');
    if (pageTexts.length > 1 && pageTexts[pageTexts.length - 1]!.trim() === '') pageTexts.pop();
    pageTexts.forEach((reference, i) =>
      pages.push({ pdfPath: testdataPath(testdataRoot, 'pdfjs', 'test', 'pdfs', `${name}.pdf`), page: i + 1, reference }),
    );
  }
  return pages;
}

export interface CerBenchResult {
  pages: { pdfPath: string; page: number; cer: number; referenceChars: number }[];
  /** Total edits / total reference characters. */
  cer: number;
  errors: string[];
}

export async function runCerBench(readPage: ReadPage, pages: CerPage[]): Promise<CerBenchResult> {
  const results: CerBenchResult['pages'] = [];
  const errors: string[] = [];
  let edits = 0;
  let chars = 0;
  for (const p of pages) {
    let hypothesis: string;
    try {
      hypothesis = markdownToPlainText(await readPage(p.pdfPath, p.page));
    } catch (error) {
      errors.push(`${p.pdfPath} page ${p.page}: ${(error as Error).message}`);
      hypothesis = '';
    }
    const referenceChars = p.reference.replace(/\s+/g, ' ').trim().length;
    const cer = characterErrorRate(hypothesis, p.reference);
    edits += cer * referenceChars;
    chars += referenceChars;
    results.push({ pdfPath: p.pdfPath, page: p.page, cer, referenceChars });
  }
  return { pages: results, cer: chars === 0 ? 0 : edits / chars, errors };
}

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

/** Symbols whose presence outside an HTML table drops a page (the trainer's list, `_contains_math_symbols`). */
const FILTERED_MATH_SYMBOLS = [...'∈∉⊂⊃⊆⊇∅∪∩∀∃¬⊕⊗⊙∂∇∆∫∬∭∮∏∑√∛∜⊥∠∡⊤⊢⊣∴∵∶∷∝≅≆≇≊≋⊖⊘⊚⊛⊜⊝'];
/** LaTeX commands that drop a page when written outside math (`_contains_latex_formatting_outside_math`). */
const FILTERED_LATEX_COMMANDS = [
  '\\begin{itemize}', '\\begin{enumerate}', '\\item', '\\begin{figure}', '\\includegraphics', '\\caption', '\\label', '\\ref',
  '\\eqref', '\\begin{table}', '\\begin{tabular}', '\\textit', '\\textbb', '\\begin{equation}', '\\begin{align}', '\\frac',
  '\\sum', '\\int', '\\sqrt', '\\prod', '\\lim', '\\binom', '\\mathbb', '\\mathcal', '\\to', '\\varphi', '\\cdot', '\\langle',
  '\\rangle', '\\cite',
];
/** The math the trainer recognises (`$…$` is not among them). */
const MATH_PATTERNS = [/\$\$([\s\S]+?)\$\$/g, /\\\(([\s\S]+?)\\\)/g, /\\\[([\s\S]+?)\\\]/g];
const HTML_TABLE = /<table\b[^>]*>[\s\S]*?<\/table>/gi;

/** Tags of an HTML table closed in order (the trainer's `TableValidator`: an end tag may close inner open tags). */
function tableTagsBalance(table: string): boolean {
  const stack: string[] = [];
  for (const match of table.matchAll(/<(\/?)([a-zA-Z][a-zA-Z0-9]*)\b[^>]*?(\/?)>/g)) {
    const [, closing, name, selfClosing] = match;
    const tag = name!.toLowerCase();
    if (selfClosing) continue;
    if (!closing) {
      stack.push(tag);
      continue;
    }
    if (!stack.includes(tag)) return false;
    while (stack.at(-1) !== tag) stack.pop();
    stack.pop();
  }
  // A tag left open at the end (a `<br>` after the last cell end) fails, as in upstream's parser.
  return stack.length === 0;
}

/**
 * Why olmOCR's trainer drops a page's text, or null when it keeps it: `DatasetTextRuleFilter` in
 * allenai/olmocr `olmocr/train/dataloader.py`, its checks in its order — a Markdown pipe table; an HTML table whose
 * tags do not balance; an equation (`$$…$$`, `\(…\)`, `\[…\]`) that KaTeX cannot render (`renders` stands in for
 * olmocr/bench/katex's renderer); a math symbol outside HTML tables; a LaTeX command outside those equations; a LaTeX
 * table environment.
 */
export function olmocrTextRuleFilter(text: string, renders: (latex: string) => boolean): string | null {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (!(line.startsWith('|') && line.endsWith('|') && line.split('|').length - 1 >= 3)) continue;
    const separator = (other: string | undefined) => other !== undefined && other.trim().startsWith('|') && other.includes('-');
    if (separator(lines[i + 1]) || (i > 0 && separator(lines[i - 1]))) return `a Markdown table: ${line.slice(0, 60)}`;
  }
  if (/<table/i.test(text)) {
    const opened = text.match(/<table\b[^>]*>/gi)?.length ?? 0;
    const closed = text.match(/<\/table>/gi)?.length ?? 0;
    if (opened !== closed) return `unbalanced <table> tags (${opened} opened, ${closed} closed)`;
    for (const table of text.match(HTML_TABLE) ?? []) if (!tableTagsBalance(table)) return `a malformed HTML table: ${table.slice(0, 60)}`;
  }
  for (const pattern of MATH_PATTERNS)
    for (const match of text.matchAll(pattern)) {
      const equation = match[1]!.trim();
      if (equation && !renders(equation)) return `an equation KaTeX cannot render: ${equation.slice(0, 60)}`;
    }
  const withoutTables = text.replace(HTML_TABLE, '');
  const symbol = FILTERED_MATH_SYMBOLS.find((s) => withoutTables.includes(s));
  if (symbol) return `a math symbol outside tables: ${symbol}`;
  let withoutMath = text;
  for (const pattern of MATH_PATTERNS) withoutMath = withoutMath.replace(pattern, '');
  const command = FILTERED_LATEX_COMMANDS.find((c) => withoutMath.includes(c));
  if (command) return `a LaTeX command outside math: ${command}`;
  if (/\\begin\{(?:table|tabular)\}/i.test(text)) return 'a LaTeX table environment';
  return null;
}

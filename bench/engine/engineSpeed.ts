/**
 * `npm run bench:engine [-- --json FILE] [--processes N] [--repeat N] [--testdata DIR] [--cache DIR] [--no-line-reread]`: pages per second of the
 * bundled engine against tesseract's own CLI in its best configuration here (one single-threaded process per core,
 * see tesseractCli.ts), on the same rendered pages in the same run — once on a mixed set (born-digital and scanned
 * pages of the shared test set and resources/samples) and once on the scanned pages only (the pages the bundled
 * engine reads by OCR) — with the CER of both against ground-truth text where a page has one.
 *
 * Timing starts after import (both read the same cached PNGs; rendering is the same cost for both and is printed
 * separately) and includes each engine's start (tesseract.js workers; tesseract processes loading their model).
 * Both read the same language(s) (BENCH_LANGUAGES). Each set is run `--repeat N` times per engine, the engines taking
 * turns (Recto, tesseract, Recto, …), and each engine's fastest run counts: on a shared machine other processes only
 * ever slow a run down, so best-of-N is the figure least disturbed by them (every run's time is printed). Default
 * N: 3 on the scanned set (a few seconds a run), 1 on the mixed set (minutes a run).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Extraction } from '../../app/model/extraction.js';
import { BundledEngine } from '../../native-models/bundled/index.js';
import { importDocument, type ImportedPage } from '../../main/import/index.js';
import { markdownToPlainText } from './cerBench.js';
import { pageInputOf, unescapeMarkdown } from './engineReaders.js';
import { formatSpeedTable, setFigures, speedReport, type EngineRun, type SetDetail } from './speedReport.js';
import { childCpuSeconds, ensureTesseract, tesseractTexts } from './tesseractCli.js';
import { defaultTestdataRoot, repoRoot, testdataPath } from '../../testing/testdataPaths.js';

/** The OCR languages of both engines: the bundled engine's default, and tesseract's `-l`. */
const BENCH_LANGUAGES = ['eng'];
/** `--no-line-reread`: the engine without its second reader of weak lines (an A/B on the same machine). */
let withoutLineReread = false;

interface BenchPage {
  file: string;
  page: ImportedPage;
  reference: string | null;
}

/** Reference texts shorter than this are not ground truth of the page image (e.g. a scan's stamped label). */
const MIN_REFERENCE_CHARS = 50;
const usable = (text: string | undefined): string | null => (text !== undefined && text.replace(/\s+/g, '').length >= MIN_REFERENCE_CHARS ? text : null);
const formFeedPages = (file: string): string[] => (existsSync(file) ? readFileSync(file, 'utf8').split('\f') : []);
const listFiles = (dir: string, pattern: RegExp): string[] =>
  existsSync(dir) ? readdirSync(dir).filter((f) => pattern.test(f)).sort().map((f) => path.join(dir, f)) : [];

/** Every document of the mixed set with a function giving each page's ground-truth text (or null). */
function documents(testdataRoot: string): { file: string; reference: (pageNumber: number) => string | null }[] {
  const docs: { file: string; reference: (pageNumber: number) => string | null }[] = [];
  const pdfjsTruth = testdataPath(testdataRoot, 'pdfjs', 'groundtruth_pdftotext');
  for (const file of listFiles(testdataPath(testdataRoot, 'pdfjs', 'test', 'pdfs'), /\.pdf$/i)) {
    const pages = formFeedPages(path.join(pdfjsTruth, `${path.basename(file, '.pdf')}.raw.txt`));
    docs.push({ file, reference: (n) => usable(pages[n - 1]) });
  }
  const invoiceTruth = testdataPath(testdataRoot, 'invoice2data', 'groundtruth_pdftotext');
  // PDFs and their PNG renders (page 1) share the PDF's pdftotext layer.
  for (const file of listFiles(testdataPath(testdataRoot, 'invoice2data', 'tests', 'compare'), /\.(pdf|png)$/i)) {
    const pages = formFeedPages(path.join(invoiceTruth, `${path.basename(file).replace(/\.(pdf|png)$/i, '')}.layout.txt`));
    docs.push({ file, reference: (n) => usable(pages[n - 1]) });
  }
  const sampleDir = testdataPath(testdataRoot, 'olmocrSample', 'pdfs');
  for (const file of [...listFiles(sampleDir, /\.pdf$/i), ...listFiles(path.join(sampleDir, 'headers_footers'), /\.pdf$/i)]) {
    docs.push({ file, reference: () => null }); // olmOCR samples: unit tests, no full-text ground truth
  }
  for (const file of listFiles(path.join(repoRoot, 'resources', 'samples'), /\.(pdf|png)$/i)) {
    const truthFile = file.replace(/\.(pdf|png)$/i, '.truth.json');
    const text = existsSync(truthFile) ? (JSON.parse(readFileSync(truthFile, 'utf8')) as { text?: string }).text : undefined;
    docs.push({ file, reference: (n) => (n === 1 ? usable(text) : null) });
  }
  return docs;
}


async function runRecto(pages: readonly BenchPage[], workers: number): Promise<EngineRun & { extractions: Extraction[] }> {
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const engine = new BundledEngine({ ocrWorkers: workers, languages: BENCH_LANGUAGES, ...(withoutLineReread ? { lineReread: false } : {}) });
  try {
    // All pages at once: OCR pages queue for the workers while text-layer pages are laid out on this thread.
    const extractions = await Promise.all(pages.map((p) => engine.read(pageInputOf(p.page, p.file))));
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    return {
      seconds,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
      texts: extractions.map((e, i) => ({ text: markdownToPlainText(unescapeMarkdown(e.markdown)), reference: pages[i]!.reference })),
      extractions,
    };
  } finally {
    await engine.dispose();
  }
}

async function runTesseract(pages: readonly BenchPage[], processes: number): Promise<EngineRun> {
  const cpuBefore = childCpuSeconds();
  const started = performance.now();
  const texts = await tesseractTexts(pages.map((p) => ({ imagePath: p.page.imagePath, dpi: p.page.dpi })), processes, BENCH_LANGUAGES);
  const seconds = (performance.now() - started) / 1000;
  const cpuAfter = childCpuSeconds();
  return {
    seconds,
    cpuSeconds: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore,
    texts: texts.map((text, i) => ({ text, reference: pages[i]!.reference })),
  };
}

/** The run with the fewest seconds (runs of one engine over the same pages). */
function fastest<T extends EngineRun>(runs: readonly T[]): T {
  return runs.reduce((best, run) => (run.seconds < best.seconds ? run : best));
}

async function runSet(name: SetDetail['name'], pages: BenchPage[], processes: number, ocrPages: number, repeat: number): Promise<SetDetail & { extractions: Extraction[] }> {
  const rectoRuns: Array<EngineRun & { extractions: Extraction[] }> = [];
  const tesseractRuns: EngineRun[] = [];
  for (let k = 1; k <= repeat; k++) {
    const of = repeat > 1 ? ` (run ${k} of ${repeat})` : '';
    console.error(`${name}: ${pages.length} pages — Recto${of}…`);
    rectoRuns.push(await runRecto(pages, processes));
    console.error(`${name}: Recto ${rectoRuns.at(-1)!.seconds.toFixed(1)} s — tesseract CLI${of}…`);
    tesseractRuns.push(await runTesseract(pages, processes));
    console.error(`${name}: tesseract ${tesseractRuns.at(-1)!.seconds.toFixed(1)} s`);
  }
  const [recto, tesseract] = [fastest(rectoRuns), fastest(tesseractRuns)];
  if (repeat > 1) {
    const times = (runs: readonly EngineRun[]): string => runs.map((run) => run.seconds.toFixed(1)).join(', ');
    console.error(`${name}: fastest of ${repeat} runs counts — Recto ${times(rectoRuns)} s; tesseract ${times(tesseractRuns)} s`);
  }
  const figures = setFigures(pages.length, recto, tesseract);
  return { name, pages: pages.length, ocrPages, cerPages: pages.filter((p) => p.reference !== null).length, recto, tesseract, figures, extractions: recto.extractions };
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: { json: { type: 'string' }, processes: { type: 'string' }, testdata: { type: 'string' }, cache: { type: 'string' }, repeat: { type: 'string' }, 'no-line-reread': { type: 'boolean' } },
  });
  withoutLineReread = values['no-line-reread'] === true;
  const testdataRoot = path.resolve(values.testdata ?? defaultTestdataRoot);
  if (!existsSync(testdataRoot)) {
    console.error(`bench:engine: the public test set is not at ${testdataRoot}; give its folder with --testdata DIR (see shared/testdata/MANIFEST.md)`);
    return 2;
  }
  const processes = values.processes ? Number(values.processes) : os.availableParallelism();
  if (!Number.isInteger(processes) || processes < 1) {
    console.error(`bench:engine: --processes: not a positive whole number: ${values.processes}`);
    return 2;
  }
  const repeat = values.repeat === undefined ? null : Number(values.repeat);
  if (repeat !== null && (!Number.isInteger(repeat) || repeat < 1)) {
    console.error(`bench:engine: --repeat: not a positive whole number: ${values.repeat}`);
    return 2;
  }
  let tesseract;
  try {
    tesseract = ensureTesseract((line) => console.error(line));
  } catch (error) {
    console.error(`bench:engine: ${(error as Error).message}`);
    return 2;
  }
  const cacheDir = path.resolve(values.cache ?? path.join(os.tmpdir(), 'recto-bench-cache'));
  await mkdir(cacheDir, { recursive: true });

  const importStarted = performance.now();
  const pages: BenchPage[] = [];
  for (const doc of documents(testdataRoot)) {
    try {
      const imported = await importDocument(doc.file, cacheDir);
      for (const page of imported.pages) pages.push({ file: doc.file, page, reference: doc.reference(page.pageNumber) });
    } catch (error) {
      console.error(`bench:engine: ${(error as Error).message} (left out)`);
    }
  }
  console.error(`imported ${pages.length} pages in ${((performance.now() - importStarted) / 1000).toFixed(1)} s (cached in ${cacheDir}; not timed)`);
  console.error(`${tesseract.version}, data ${tesseract.dataDir}; Recto bundled engine with ${processes} OCR worker(s)`);

  const mixed = await runSet('mixed', pages, processes, 0, repeat ?? 1);
  // Scans: the pages the bundled engine had to OCR (images, PDF pages without a usable text layer).
  const scanPages = pages.filter((_, i) => mixed.extractions[i]!.engine.provider === 'tesseract');
  mixed.ocrPages = scanPages.length;
  if (scanPages.length === 0) {
    console.error('bench:engine: no scanned pages found in the set');
    return 1;
  }
  const scans = await runSet('scans', scanPages, processes, scanPages.length, repeat ?? 3);

  console.log(formatSpeedTable([mixed, scans], processes));
  console.log(`scanned pages: ${scanPages.map((p) => `${path.basename(p.file)} p${p.page.pageNumber}`).join(', ')}`);
  const report = speedReport({ mixed: { pages: mixed.pages, figures: mixed.figures }, scans: { pages: scans.pages, figures: scans.figures } });
  if (values.json) {
    await writeFile(path.resolve(values.json), `${JSON.stringify(report, null, 2)}\n`);
    console.log(`wrote ${path.resolve(values.json)}`);
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`bench:engine: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);

/**
 * Measures the bundled engine page by page: seconds per page from the PDF text layer and by OCR, and word recall
 * against a known text where there is one (`<name>.truth.json` next to a sample, or a pdftotext `.layout.txt`).
 *
 *   npx tsx bench/engine/measureBundledEngine.ts [FILE…] [--json OUT.json]
 *
 * Without files: the samples and, where ../shared/testdata exists, a few real invoices. Speed is only measured
 * here, never asserted in tests.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { importDocument } from '../../main/import/index.js';
import { plainWords, wordRecall } from '../../testing/extractionChecks.js';
import { BundledEngine } from '../../native-models/bundled/index.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const samples = path.join(repoRoot, 'resources', 'samples');
const invoices = path.resolve(repoRoot, '..', 'shared', 'testdata', 'invoice2data');

interface Row {
  file: string;
  page: number;
  mode: 'auto' | 'ocr';
  provider: string;
  seconds: number;
  recall: number | null;
}

async function truthWords(file: string): Promise<string[] | null> {
  const truth = file.replace(/\.(pdf|png|jpe?g|tiff?)$/iu, '.truth.json');
  if (existsSync(truth) && truth !== file) return plainWords(JSON.parse(await readFile(truth, 'utf8')).text);
  const layout = path.join(invoices, 'groundtruth_pdftotext', `${path.basename(file).replace(/\.pdf$/iu, '')}.layout.txt`);
  if (existsSync(layout)) return (await readFile(layout, 'utf8')).split(/\s+/u).filter(Boolean);
  return null;
}

function defaultFiles(): string[] {
  const files = ['northwind-invoice.pdf', 'brightline-invoice.pdf', 'northwind-invoice-scan.png', 'brightline-invoice-scan.png'].map((f) =>
    path.join(samples, f),
  );
  for (const name of ['AmazonWebServices.pdf', 'FlipkartInvoice.pdf', 'oyo.pdf']) {
    const file = path.join(invoices, 'tests', 'compare', name);
    if (existsSync(file)) files.push(file);
  }
  return files;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const jsonAt = args.indexOf('--json');
  const jsonOut = jsonAt >= 0 ? args.splice(jsonAt, 2)[1] : null;
  const files = args.length ? args : defaultFiles();
  const cache = await mkdtemp(path.join(os.tmpdir(), 'recto-measure-'));
  const engines = { auto: new BundledEngine(), ocr: new BundledEngine({ forceOcr: true }) };
  const rows: Row[] = [];
  try {
    // Start the OCR worker before timing: its start-up (~1–3 s) is paid once per engine, not per page.
    const started = performance.now();
    const warm = await importDocument(path.join(samples, 'northwind-invoice-scan.png'), cache);
    await engines.ocr.read({ ...warm.pages[0], label: 'warm-up' });
    console.log(`OCR worker start + first page: ${((performance.now() - started) / 1000).toFixed(2)} s`);
    for (const file of files) {
      const document = await importDocument(file, cache);
      const truth = await truthWords(file);
      for (const page of document.pages) {
        for (const mode of ['auto', 'ocr'] as const) {
          if (mode === 'ocr' && !page.textLayer) continue; // the auto run already was OCR
          const t0 = performance.now();
          const extraction = await engines[mode].read({ ...page, label: `${path.basename(file)} p${page.pageNumber}` });
          const seconds = (performance.now() - t0) / 1000;
          const recall = truth && document.pages.length === 1 ? wordRecall(truth, plainWords(extraction.markdown)) : null;
          rows.push({ file: path.basename(file), page: page.pageNumber, mode, provider: extraction.engine.provider ?? '', seconds, recall });
        }
      }
    }
  } finally {
    await Promise.all(Object.values(engines).map((engine) => engine.dispose()));
    await rm(cache, { recursive: true, force: true });
  }
  console.log(['file', 'page', 'provider', 's/page', 'word recall'].join('\t'));
  for (const row of rows) {
    const recall = row.recall === null ? '-' : `${(100 * row.recall).toFixed(1)}%`;
    console.log([row.file, row.page, row.provider, row.seconds.toFixed(2), recall].join('\t'));
  }
  if (jsonOut) await writeFile(jsonOut, JSON.stringify({ rows }, null, 2));
}

await main();

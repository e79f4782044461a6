/**
 * Prints the measurement layer's figures with reference "engines" that need no model: the olmOCR bench's published
 * pipeline outputs, the invoices' pdftotext layers, the ICDAR true grids (a harness self-check, F1 must be 1) and the
 * PubTabNet sample predictions (TEDS). Run: `npx tsx bench/engine/referenceFigures.ts [--json FILE]`.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { teds, tedsStructure } from '../../app/checks/teds.js';
import { formatInvoiceFieldBench, runInvoiceFieldBench, pdftotextLayerReader } from './invoiceFieldBench.js';
import { formatIcdarTableBench, gridToHtml, loadIcdarTruth, runIcdarTableBench } from './icdarTableBench.js';
import { formatOlmocrBench, olmocrPipelineOutputs, runOlmocrBench } from './olmocrBench.js';
import { defaultTestdataRoot, readTextFile } from '../../testing/testdataPaths.js';

async function main(): Promise<void> {
  const olmocr = await runOlmocrBench(olmocrPipelineOutputs());
  console.log(formatOlmocrBench(olmocr));
  const invoices = await runInvoiceFieldBench(pdftotextLayerReader());
  console.log(formatInvoiceFieldBench(invoices));
  const truth = await loadIcdarTruth();
  const icdar = await runIcdarTableBench(async (pdf, page) =>
    truth.filter((t) => t.pdfPath === pdf && t.page === page).map((t) => gridToHtml(t.grid)).join('\n\n'),
  );
  console.log(formatIcdarTableBench(icdar) + '  (true grids as engine: harness self-check)');
  const src = path.join(defaultTestdataRoot, 'pubtabnet', 'src');
  const gt = JSON.parse(await readTextFile(path.join(src, 'sample_gt.json'))) as Record<string, { html: string }>;
  const pred = JSON.parse(await readTextFile(path.join(src, 'sample_pred.json'))) as Record<string, string>;
  const pairs = Object.entries(gt).map(([name, t]) => ({ name, teds: teds(pred[name] ?? '', t.html), tedsStructure: tedsStructure(pred[name] ?? '', t.html) }));
  const mean = (k: 'teds' | 'tedsStructure'): number => pairs.reduce((a, p) => a + p[k], 0) / pairs.length;
  console.log(`PubTabNet sample pairs: ${pairs.length}, mean TEDS ${mean('teds').toFixed(4)}, mean TEDS-structure ${mean('tedsStructure').toFixed(4)}`);
  const jsonAt = process.argv.indexOf('--json');
  if (jsonAt > 0 && process.argv[jsonAt + 1]) {
    await writeFile(
      process.argv[jsonAt + 1]!,
      JSON.stringify({ olmocr: { overall: olmocr.overall, testPassRate: olmocr.testPassRate, byType: olmocr.byType, perFile: olmocr.perFile }, invoices: { accuracy: invoices.accuracy, byField: invoices.byField, lineItems: invoices.lineItems }, icdarSelfCheckF1: icdar.micro.f1, pubtabnet: { meanTeds: mean('teds'), meanTedsStructure: mean('tedsStructure'), pairs } }, null, 2),
    );
  }
}

main().catch((error: unknown) => {
  console.error((error as Error).message);
  process.exitCode = 1;
});

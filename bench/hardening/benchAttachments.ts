/**
 * `npm run bench:attachments [-- --json FILE] [-- --runs N]`: how long finding a PDF's e-invoice XML takes
 * (findEmbeddedEInvoiceXml: the object pass, object streams, the pick, inflating the XML; on the calling thread),
 * per file and per MB, on every real e-invoice PDF of ../shared/testdata as stored and re-saved with object streams
 * (pdf-lib), and on /EF-marker PDFs of 1-8 MiB, to show the time grows with the size and no faster. Beside it, in the
 * same run, what the libraries would take: pdf-lib's PDFDocument.load (parses every object, inflates object streams
 * without a cap) and pdf.js's getAttachments (inflates every attachment).
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { PDFDocument } from 'pdf-lib';
import { findEmbeddedEInvoiceXml } from '../../main/import/pdfAttachments.js';
import { loadPdfjs, pdfjsNodeParameters } from '../../main/import/pdfjsNode.js';
import { efMarkerPdf } from '../../testing/hostilePdfs.js';
import { withPdfLibObjectStreams } from '../../testing/pdfVariants.js';
import { defaultTestdataRoot } from '../../testing/testdataPaths.js';

const { values } = parseArgs({ options: { json: { type: 'string' }, runs: { type: 'string' } } });
const runs = Number(values.runs ?? 5);

async function medianMs(task: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await task();
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}

const inputs: { name: string; bytes: Uint8Array }[] = [];
for (const folder of ['einvoices', 'einvoice-corpus']) {
  const dir = path.join(defaultTestdataRoot, folder, 'pdfs');
  if (!fs.existsSync(dir)) {
    console.error(`skipped ${dir}: absent`);
    continue;
  }
  for (const name of fs.readdirSync(dir).sort()) inputs.push({ name, bytes: new Uint8Array(fs.readFileSync(path.join(dir, name))) });
}
for (const input of [...inputs]) inputs.push({ name: `${input.name} (object streams)`, bytes: await withPdfLibObjectStreams(input.bytes) });
for (const mib of [1, 2, 4, 8]) inputs.push({ name: `/EF markers ${mib} MiB`, bytes: efMarkerPdf(mib << 20) });

const pdfjs = await loadPdfjs();
const rows: { name: string; kb: number; found: string; ms: number; msPerMb: number; pdfLibMs: number | null; pdfjsMs: number | null }[] = [];
for (const { name, bytes } of inputs) {
  const result = await findEmbeddedEInvoiceXml(bytes);
  const ms = await medianMs(() => findEmbeddedEInvoiceXml(bytes));
  const pdfLibMs = await medianMs(() => PDFDocument.load(bytes, { updateMetadata: false })).catch(() => null);
  const pdfjsMs = await medianMs(async () => {
    const document = await pdfjs.getDocument({ ...pdfjsNodeParameters, data: bytes.slice() }).promise;
    await document.getAttachments();
    await document.destroy();
  }).catch(() => null);
  rows.push({ name, kb: bytes.byteLength / 1024, found: result.status === 'found' ? result.fileName : result.status, ms, msPerMb: ms / (bytes.byteLength / 1024 / 1024), pdfLibMs, pdfjsMs });
  console.error(`${name}: ${ms.toFixed(1)} ms`);
}

const fmt = (ms: number | null): string => (ms === null ? 'failed' : ms.toFixed(1));
console.log(`| PDF | KB | e-invoice found | ms (median of ${runs}) | ms per MB | pdf-lib load ms | pdf.js getAttachments ms |`);
console.log('|---|---:|---|---:|---:|---:|---:|');
for (const r of rows) console.log(`| ${r.name} | ${r.kb.toFixed(0)} | ${r.found} | ${r.ms.toFixed(1)} | ${r.msPerMb.toFixed(1)} | ${fmt(r.pdfLibMs)} | ${fmt(r.pdfjsMs)} |`);
const total = (pick: (r: (typeof rows)[number]) => number | null): string => fmt(rows.reduce((sum, r) => sum + (pick(r) ?? 0), 0));
console.log(`| all ${rows.length} | ${rows.reduce((s, r) => s + r.kb, 0).toFixed(0)} | ${rows.filter((r) => r.found !== 'none').length} found | ${total((r) => r.ms)} | | ${total((r) => r.pdfLibMs)} | ${total((r) => r.pdfjsMs)} |`);
if (values.json) fs.writeFileSync(path.resolve(values.json), `${JSON.stringify(rows, null, 2)}\n`);

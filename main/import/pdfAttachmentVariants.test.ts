/**
 * Every real e-invoice PDF yields the same XML bytes however it is saved (issue 36): with object streams and a
 * cross-reference stream (pdf-lib; qpdf where installed), linearized (qpdf), with an incremental update that moves the
 * catalog, with 70 decoy attachments listed before the real one, and with the cross-reference data broken.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { haveQpdf, withBrokenCrossReference, withDecoys, withIncrementalUpdate, withPdfLibObjectStreams, withQpdf } from '../../testing/pdfVariants.js';
import { defaultTestdataRoot } from '../../testing/testdataPaths.js';
import { findEmbeddedEInvoiceXml } from './pdfAttachments.js';

interface TruthEntry {
  embedded_xml: string | null;
}

const carriers: { folder: string; name: string; xml: string }[] = [];
for (const folder of ['einvoices', 'einvoice-corpus']) {
  const dir = path.join(defaultTestdataRoot, folder);
  if (!existsSync(path.join(dir, 'truth.json'))) {
    console.log(`SKIPPED: e-invoice PDFs re-saved other ways: ${dir} is absent`);
    continue;
  }
  const truth = JSON.parse(readFileSync(path.join(dir, 'truth.json'), 'utf8')) as Record<string, TruthEntry>;
  for (const [name, entry] of Object.entries(truth)) if (entry.embedded_xml) carriers.push({ folder: dir, name, xml: entry.embedded_xml });
}
const qpdf = haveQpdf();
if (!qpdf) console.log('SKIPPED: qpdf re-saves (object streams, linearized): qpdf is not installed');

const variants: [string, (bytes: Uint8Array) => Promise<Uint8Array> | Uint8Array, boolean][] = [
  ['pdf-lib object streams', withPdfLibObjectStreams, true],
  ['qpdf object streams', (bytes) => withQpdf(bytes, ['--object-streams=generate']), qpdf],
  ['qpdf linearized', (bytes) => withQpdf(bytes, ['--linearize']), qpdf],
  ['incremental update', withIncrementalUpdate, true],
  ['70 decoys', withDecoys, true],
  // Without cross-reference data the objects are found by a pass over the file (pdfObjectTable.ts's fallback).
  ['cross-reference broken', withBrokenCrossReference, true],
  ['object streams, cross-reference broken', async (bytes) => withBrokenCrossReference(await withPdfLibObjectStreams(bytes)), true],
  ['70 decoys, cross-reference broken', async (bytes) => withBrokenCrossReference(await withDecoys(bytes)), true],
  ['incremental update, cross-reference broken', async (bytes) => withBrokenCrossReference(await withIncrementalUpdate(bytes)), true],
];

describe.skipIf(carriers.length === 0)('embedded e-invoices of the real PDFs, however saved', () => {
  it.each(carriers)('$name', async ({ folder, name, xml }) => {
    const original = new Uint8Array(readFileSync(path.join(folder, 'pdfs', name)));
    const expected = await findEmbeddedEInvoiceXml(original);
    expect(expected).toMatchObject({ status: 'found', fileName: xml });
    if (expected.status !== 'found') return;
    const failures: string[] = [];
    for (const [variant, make, available] of variants) {
      if (!available) continue;
      const found = await findEmbeddedEInvoiceXml(await make(original));
      if (found.status !== 'found') failures.push(`${variant}: ${found.status}`);
      else if (found.fileName !== xml) failures.push(`${variant}: picked ${found.fileName}`);
      else if (!Buffer.from(found.bytes).equals(Buffer.from(expected.bytes))) failures.push(`${variant}: other bytes`);
    }
    expect(failures).toEqual([]);
  });
});

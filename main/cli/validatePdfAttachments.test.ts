/**
 * `recto validate` on e-invoice PDFs however they are saved (issue 36): the verdict for a PDF re-saved with object
 * streams, or with 70 decoy attachments, is the stored PDF's — never "the PDF has no embedded e-invoice".
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { withDecoys, withPdfLibObjectStreams } from '../../testing/pdfVariants.js';
import { defaultTestdataRoot } from '../../testing/testdataPaths.js';
import { validateCommand } from './validateCommand.js';

const pdfDir = path.join(defaultTestdataRoot, 'einvoice-corpus', 'pdfs');
const samples = ['correct-intarsys-EN16931__zugferd_2p0_EN16931_Miete.pdf', 'XML-Rechnung-FX__XRECHNUNG_Elektron.pdf', 'correct-Intarsys__ZUGFeRD_1p0_BASIC_Rechnungskorrektur.pdf'];
const have = samples.every((name) => fs.existsSync(path.join(pdfDir, name)));
if (!have) console.log(`SKIPPED: recto validate on re-saved e-invoice PDFs: ${pdfDir} is absent`);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-validate-pdf-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function verdict(file: string): Promise<{ code: number; report: string }> {
  const stdout = new PassThrough();
  const out: string[] = [];
  stdout.on('data', (chunk) => out.push(String(chunk)));
  const code = await validateCommand([file], stdout, new PassThrough());
  // The report without the file name, which differs between the copies, and without the line saying why the attachment
  // was chosen (with decoys there are other candidates to beat: the reason differs, the attachment and verdict not).
  return { code, report: out.join('').replaceAll(file, 'FILE').replace(/^(  attachment: \S+) \(.*\)$/m, '$1') };
}

/** The text report as written (the reason of the attachment line kept). */
async function rawReport(file: string): Promise<string> {
  const stdout = new PassThrough();
  const out: string[] = [];
  stdout.on('data', (chunk) => out.push(String(chunk)));
  await validateCommand([file], stdout, new PassThrough());
  return out.join('');
}

const minimalUbl = `<?xml version="1.0" encoding="UTF-8"?>
<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"><cbc:ID>ALT-1</cbc:ID></Invoice>
`;

describe.skipIf(!have)('recto validate on re-saved e-invoice PDFs', () => {
  it.each(samples)('%s: same verdict stored, with object streams and with 70 decoys', async (name) => {
    const stored = new Uint8Array(fs.readFileSync(path.join(pdfDir, name)));
    const expected = await verdict(path.join(pdfDir, name));
    expect(expected.code).not.toBe(2);
    for (const [variant, bytes] of [
      ['object-streams', await withPdfLibObjectStreams(stored)],
      ['decoys', await withDecoys(stored)],
    ] as const) {
      const file = path.join(dir, `${variant}-${name}`);
      fs.writeFileSync(file, bytes);
      expect(await verdict(file)).toEqual(expected);
    }
  });
});

describe.skipIf(!have)('recto validate on a PDF carrying several e-invoices', () => {
  it('validates the one the PDF marks Alternative and says which attachment it used and why', async () => {
    // The sample's own CII is its /AFRelationship /Alternative; a second e-invoice, a UBL marked /Data, listed first.
    const stored = new Uint8Array(fs.readFileSync(path.join(pdfDir, samples[0]!)));
    const file = path.join(dir, 'two-einvoices.pdf');
    fs.writeFileSync(file, await withDecoys(stored, [{ name: 'xrechnung.xml', content: minimalUbl, relationship: 'Data' }]));
    const json = path.join(dir, 'two-einvoices.json');
    const stdout = new PassThrough();
    const out: string[] = [];
    stdout.on('data', (chunk) => out.push(String(chunk)));
    expect(await validateCommand([file, '--json', json], stdout, new PassThrough())).not.toBe(2);
    const [report] = JSON.parse(fs.readFileSync(json, 'utf8')) as { attachment: { fileName: string; reason: string; candidates: number }; syntax: string }[];
    expect(report!.syntax).toBe('CII');
    expect(report!.attachment.fileName).not.toBe('xrechnung.xml');
    expect(report!.attachment.candidates).toBe(2);
    expect(report!.attachment.reason).toBe('its /AFRelationship is /Alternative (1 other e-invoice attachment: Alternative > Data > Source)');
    expect(out.join('')).toMatch(/^  attachment: \S+\.xml \(its \/AFRelationship is \/Alternative/m);
    // Marked Alternative too, the UBL listed first ties and wins by its place: the report says so.
    const tie = path.join(dir, 'two-alternatives.pdf');
    fs.writeFileSync(tie, await withDecoys(stored, [{ name: 'xrechnung.xml', content: minimalUbl, relationship: 'Alternative' }]));
    expect(await rawReport(tie)).toMatch(/^  attachment: xrechnung\.xml \(listed first of 2 equally ranked e-invoice attachments\)$/m);
    // The stored PDF alone: its one attachment, said to be the only candidate.
    expect(await rawReport(path.join(pdfDir, samples[0]!))).toMatch(/^  attachment: \S+\.xml \(the only e-invoice attachment\)$/m);
  });
});

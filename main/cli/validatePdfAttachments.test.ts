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
  // The report without the file name, which differs between the copies.
  return { code, report: out.join('').replaceAll(file, 'FILE') };
}

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

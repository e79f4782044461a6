/**
 * Import and the bundled engine together, as the app runs them: born-digital samples and a real invoice PDF go
 * through importDocument and BundledEngine.read. (Lives in main/: native-models may not import main/.)
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractionSchema } from '../../app/model/extraction.js';
import { BundledEngine } from '../../native-models/bundled/index.js';
import { elementProblems, plainWords, wordRecall } from '../../testing/extractionChecks.js';
import { importDocument } from './index.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const samples = path.join(repoRoot, 'resources', 'samples');
const testdata = path.resolve(repoRoot, '..', 'shared', 'testdata');
const awsPdf = path.join(testdata, 'invoice2data', 'tests', 'compare', 'AmazonWebServices.pdf');
const awsLayoutText = path.join(testdata, 'invoice2data', 'groundtruth_pdftotext', 'AmazonWebServices.layout.txt');
const hasTestdata = existsSync(awsPdf) && existsSync(awsLayoutText);
if (!hasTestdata) console.warn(`[skip] import + bundled engine on a real invoice: ${testdata} is absent (it exists in CI)`);

let engine: BundledEngine;
let cache: string;
beforeAll(async () => {
  engine = new BundledEngine();
  cache = await mkdtemp(path.join(os.tmpdir(), 'recto-import-read-test-'));
});
afterAll(async () => {
  await engine.dispose();
  await rm(cache, { recursive: true, force: true });
});

async function readFirstPage(file: string) {
  const document = await importDocument(file, cache);
  return engine.read({ ...document.pages[0], label: `${path.basename(file)} p1` });
}

describe('import + bundled engine on the born-digital samples', () => {
  for (const sample of ['northwind-invoice', 'brightline-invoice']) {
    it(`reads ${sample}.pdf from its text layer with all its words`, async () => {
      const extraction = await readFirstPage(path.join(samples, `${sample}.pdf`));
      const truth = JSON.parse(await readFile(path.join(samples, `${sample}.truth.json`), 'utf8')) as {
        text: string;
        fields: { invoice_number: string; seller: string };
      };
      extractionSchema.parse(extraction);
      expect(extraction.engine.provider).toBe('text-layer');
      expect(wordRecall(plainWords(truth.text), plainWords(extraction.markdown))).toBeGreaterThanOrEqual(0.98);
      expect(extraction.markdown).toContain(truth.fields.invoice_number);
      // The seller's name is set large on both samples: a title or heading (Northwind's "INVOICE" is larger still).
      const headings = extraction.elements.filter((e) => e.kind === 'title' || e.kind === 'heading');
      expect(headings.map((e) => extraction.markdown.slice(...e.span)).join('\n')).toContain(truth.fields.seller);
      expect(elementProblems(extraction)).toEqual([]);
    });
  }
});

describe.skipIf(!hasTestdata)('import + bundled engine on a real invoice PDF', () => {
  it('reads AmazonWebServices.pdf with the words pdftotext finds, in consistent elements', async () => {
    const extraction = await readFirstPage(awsPdf);
    extractionSchema.parse(extraction);
    expect(extraction.engine.provider).toBe('text-layer');
    const truth = (await readFile(awsLayoutText, 'utf8')).split(/\s+/u).filter(Boolean);
    expect(wordRecall(truth, plainWords(extraction.markdown))).toBeGreaterThanOrEqual(0.95);
    // The ruled "Invoice Summary" box is a table of label/value rows: each label stays beside its value.
    expect(extraction.markdown).toContain('<tr><td>Invoice Number:</td><td>42183017</td></tr>');
    expect(extraction.markdown).toContain('<tr><td>TOTAL AMOUNT DUE ON August 3 , 2014</td><td>&#36;4.11</td></tr>');
    // The logo is an image: its wordmark is read by OCR as a figure element, before the title.
    const blocks = extraction.elements.filter((e) => e.span[0] !== e.span[1]);
    expect(blocks[0]).toMatchObject({ kind: 'figure' });
    expect(extraction.markdown.slice(...blocks[0]!.span)).toMatch(/amazon/iu);
    expect(extraction.markdown.slice(...blocks[1]!.span)).toBe('# Amazon Web Services Invoice');
    // The account number, in the column beside that table, is read with its label (not split around the table).
    expect(extraction.markdown).toMatch(/Account number:\s+296664039561/u);
    expect(elementProblems(extraction)).toEqual([]);
  });

  it('reads the same page by OCR alone and still finds most of its words', async () => {
    const ocr = new BundledEngine({ forceOcr: true });
    try {
      const document = await importDocument(awsPdf, cache);
      const extraction = await ocr.read({ ...document.pages[0], label: 'AmazonWebServices.pdf p1' });
      expect(extraction.engine.provider).toBe('tesseract');
      const truth = (await readFile(awsLayoutText, 'utf8')).split(/\s+/u).filter(Boolean);
      const recall = wordRecall(truth, plainWords(extraction.markdown));
      console.log(`[bundled] AmazonWebServices.pdf by OCR: word recall ${(100 * recall).toFixed(1)}%`);
      // 91% measured; without the contrast normalisation before OCR it was 63%.
      expect(recall).toBeGreaterThanOrEqual(0.85);
      expect(elementProblems(extraction)).toEqual([]);
    } finally {
      await ocr.dispose();
    }
  });
});

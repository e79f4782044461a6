/**
 * The real ZUGFeRD 1.0 PDFs of ../shared/testdata (intarsys's samples), their attached XML taken as reviewed: each
 * 1.0 term that says what EN 16931 needs is carried over (BASIC's VAT rates without category are S), and what the
 * document does not state keeps it out, listed with its BTs — the insurance invoices' tax is insurance tax, not VAT
 * (BT-118); the BASIC credit states its allowance total but no allowance with a reason (BG-20, BT-97/BT-98).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readEInvoice } from '../../../app/einvoice/index.js';
import { generateEInvoice } from '../../../app/invoices/einvoiceOut/generateEInvoice.js';
import { reviewedFromXmlBytes } from '../../../testing/reviewedFromXml.js';
import { defaultTestdataRoot } from '../../../testing/testdataPaths.js';
import { findEmbeddedEInvoiceXml } from '../../import/pdfAttachments.js';

const pdf = (name: string) => path.join(defaultTestdataRoot, 'einvoice-corpus', 'pdfs', `correct-Intarsys__ZUGFeRD_1p0_${name}.pdf`);
const credit = pdf('BASIC_Rechnungskorrektur');
const insurance = ['COMFORT_Haftpflichtversicherung_Versicherungssteuer', 'COMFORT_Kraftfahrversicherung_Bruttopreise', 'COMFORT_Sachversicherung_berechneter_Steuersatz'].map(pdf);
const present = [credit, ...insurance].every((file) => fs.existsSync(file));
if (!present) console.log(`SKIPPED: the real ZUGFeRD 1.0 PDFs out as EN 16931: ${credit} (and the insurance samples beside it) absent`);

async function xmlOf(file: string) {
  const found = await findEmbeddedEInvoiceXml(new Uint8Array(fs.readFileSync(file)));
  if (found.status !== 'found') throw new Error(`${file}: no attached XML (${found.status})`);
  return found;
}

async function reviewedOf(file: string) {
  const found = await xmlOf(file);
  return reviewedFromXmlBytes(found.bytes, found.fileName);
}

/** The line VAT terms the review shows (the e-invoice reader's), which must say what the e-invoice written will. */
async function reviewLineTerms(file: string) {
  const found = await xmlOf(file);
  return readEInvoice(found.bytes, found.fileName).lines.map((l) => [l.taxCategory, l.taxRate]);
}

describe.runIf(present)('the real ZUGFeRD 1.0 PDFs out as EN 16931', () => {
  it('the BASIC credit’s lines and VAT rows are S at 19 % and 7 %; it lacks only its allowances’ reason', async () => {
    const invoice = await reviewedOf(credit);
    expect(invoice.xmlDetails?.lines.map((l) => [l.category, l.rate])).toEqual([['S', '19.00'], ['S', '7.00']]);
    expect(invoice.xmlDetails?.vat.map((r) => [r.category, r.rate])).toEqual([['S', '19.00'], ['S', '7.00']]);
    expect(await reviewLineTerms(credit)).toEqual([['S', 19], ['S', 7]]);
    for (const format of ['ubl', 'cii'] as const) {
      const out = generateEInvoice(invoice, format);
      expect(out.ok).toBe(false);
      if (out.ok) continue;
      expect(out.missing.map((m) => m.bt)).toEqual(['BG-20']);
      expect(out.missing[0]!.why).toContain('BT-97/BT-98');
    }
  });

  it('an insurance invoice is listed with its insurance tax (BT-118), never written as VAT', async () => {
    for (const file of insurance) {
      const invoice = await reviewedOf(file);
      expect(invoice.xmlDetails?.otherTaxes, path.basename(file)).toEqual(['ZF_INSURANCE_TAX']);
      expect(invoice.xmlDetails?.vat, path.basename(file)).toEqual([]);
      // The review shows the insurance tax's rate, under no VAT category.
      expect((await reviewLineTerms(file)).every(([category]) => category === null), path.basename(file)).toBe(true);
      const out = generateEInvoice(invoice, 'ubl');
      expect(out.ok ? [] : out.missing.map((m) => m.bt), path.basename(file)).toEqual(['BT-118']);
    }
  });
});

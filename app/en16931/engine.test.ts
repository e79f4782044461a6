import { describe, expect, it } from 'vitest';
import { round2, xround, decOf } from './decimal.js';
import { semanticInvoiceFromPage } from './fromPageFields.js';
import { CII_RULES, EInvoiceError, UBL_RULES, validateEInvoiceXml, validateSemanticInvoice } from './index.js';
import { CII_TEXT, UBL_TEXT } from './rules/schematronText.js';

const UBL_NS = 'xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"';
const ubl = (body: string) => `<Invoice ${UBL_NS}>${body}</Invoice>`;
const fired = (xml: string) => validateEInvoiceXml(xml).failed.map((f) => f.id);

describe('decimal arithmetic as XPath does it', () => {
  it('round() goes half towards positive infinity, at the .005 boundary too', () => {
    expect(xround(decOf('2.5')!).toString()).toBe('3');
    expect(xround(decOf('-2.5')!).toString()).toBe('-2');
    expect(round2(decOf('2.675')!).toString()).toBe('2.68');
    expect(round2(decOf('-2.675')!).toString()).toBe('-2.67');
    expect(round2(decOf('2.6749999999999999999999')!).toString()).toBe('2.67');
  });
});

describe('the rule table', () => {
  it('has every BR rule of both schematrons, once', () => {
    const ids = Object.keys(UBL_TEXT).sort();
    expect(ids).toHaveLength(223);
    expect([...UBL_RULES.map((r) => r.id)].sort()).toEqual(ids);
    expect([...CII_RULES.map((r) => r.id)].sort()).toEqual(ids);
    expect(Object.keys(CII_TEXT).every((id) => ids.includes(id))).toBe(true);
  });
});

describe('XML input', () => {
  it('refuses a DOCTYPE, a foreign root and an invoice root in a foreign namespace with a clear error', () => {
    expect(() => validateEInvoiceXml('<!DOCTYPE x [<!ENTITY a "b">]><Invoice/>')).toThrow(EInvoiceError);
    expect(() => validateEInvoiceXml('<Order xmlns="urn:x"><ID>1</ID></Order>')).toThrow(/not an EN 16931 invoice/);
    expect(() => validateEInvoiceXml('<Invoice xmlns="urn:example:other"><ID>1</ID></Invoice>')).toThrow(/not in the UBL namespace/);
  });

  it('reads an empty invoice as one missing every mandatory term', () => {
    const report = validateEInvoiceXml(ubl(''));
    expect(report.valid).toBe(false);
    expect(report.failed.map((f) => f.id)).toEqual(expect.arrayContaining(['BR-01', 'BR-02', 'BR-16', 'BR-CO-18']));
  });

  it('a 400-digit amount or a word where an amount belongs fires the rule, never throws or overflows', () => {
    const huge = '9'.repeat(400);
    for (const amount of [huge, 'twelve', '', '1e3']) {
      const xml = ubl(`<cac:LegalMonetaryTotal><cbc:LineExtensionAmount currencyID="EUR">${amount}</cbc:LineExtensionAmount></cac:LegalMonetaryTotal><cac:InvoiceLine><cbc:ID>1</cbc:ID><cbc:LineExtensionAmount currencyID="EUR">10.00</cbc:LineExtensionAmount></cac:InvoiceLine>`);
      expect(fired(xml)).toContain('BR-CO-10');
    }
  });

  it('counts decimals as written and reports line rules with the line id', () => {
    const xml = ubl('<cac:InvoiceLine><cbc:ID>L7</cbc:ID><cbc:LineExtensionAmount currencyID="EUR">10.001</cbc:LineExtensionAmount></cac:InvoiceLine>');
    const dec = validateEInvoiceXml(xml).failed.find((f) => f.id === 'BR-DEC-23');
    expect(dec).toMatchObject({ flag: 'fatal', line: 'L7', bt: ['BT-131'] });
    expect(dec?.message).toMatch(/^\[BR-DEC-23\]/);
  });
});

describe('page-read invoices', () => {
  const page = {
    invoice_number: 'R-1', issue_date: '2024-05-01', due_date: null, seller: 'ACME GmbH', buyer: 'Beta AG', currency: 'EUR',
    subtotal: 100, tax: 19, total: 119,
    lines: [{ description: 'Widget', quantity: 2, unit_price: 50, amount: 100 }],
    tax_breakdown: [{ rate: 19, base: 100, amount: 19 }],
  };

  it('checks the rules the page can feed and marks the others not applicable', () => {
    const report = validateSemanticInvoice(semanticInvoiceFromPage(page), { source: 'page' });
    expect(report.failed).toEqual([]);
    expect(report.notApplicable).toEqual(expect.arrayContaining(['BR-01', 'BR-08', 'BR-CL-14']));
    expect(report.notApplicable).not.toContain('BR-CO-15');
    expect(report.notApplicable).not.toContain('BR-CO-17');
  });

  it('fires the arithmetic rules on inconsistent page values', () => {
    const report = validateSemanticInvoice(semanticInvoiceFromPage({ ...page, total: 120, tax_breakdown: [{ rate: 19, base: 100, amount: 21 }] }), { source: 'page' });
    expect(report.failed.map((f) => f.id)).toEqual(expect.arrayContaining(['BR-CO-15', 'BR-CO-17', 'BR-CO-14']));
  });
});

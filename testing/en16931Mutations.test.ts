import { describe, expect, it } from 'vitest';
import { mutantsOf, mutationOperators } from './en16931Mutations.js';
import { buildXml, parseXmlTree } from './xmlTree.js';

const UBL = `<?xml version="1.0" encoding="UTF-8"?>
<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
  <cbc:ID>INV-1</cbc:ID>
  <cbc:IssueDate>2024-03-01</cbc:IssueDate>
  <cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode>
  <cbc:Note>Tom &amp; Jerry</cbc:Note>
  <cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>
  <cac:TaxTotal>
    <cbc:TaxAmount currencyID="EUR">19.00</cbc:TaxAmount>
    <cac:TaxSubtotal>
      <cbc:TaxableAmount currencyID="EUR">100.00</cbc:TaxableAmount>
      <cbc:TaxAmount currencyID="EUR">19.00</cbc:TaxAmount>
      <cac:TaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>19</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:TaxCategory>
    </cac:TaxSubtotal>
  </cac:TaxTotal>
  <cac:LegalMonetaryTotal><cbc:PayableAmount currencyID="EUR">119.00</cbc:PayableAmount></cac:LegalMonetaryTotal>
  <cac:InvoiceLine>
    <cbc:ID>1</cbc:ID>
    <cbc:InvoicedQuantity unitCode="C62">2</cbc:InvoicedQuantity>
    <cbc:LineExtensionAmount currencyID="EUR">100.00</cbc:LineExtensionAmount>
  </cac:InvoiceLine>
</Invoice>
`;

describe('mutantsOf', () => {
  it('is reproducible from source name, number and seed, and each operator gets its turn', () => {
    const a = mutantsOf('example.xml', UBL, 30, 7);
    const b = mutantsOf('example.xml', UBL, 30, 7);
    expect(a).toEqual(b);
    expect(new Set(a.map((m) => m.operator))).toEqual(new Set(mutationOperators));
    expect(mutantsOf('other.xml', UBL, 30, 7).map((m) => m.change)).not.toEqual(a.map((m) => m.change));
    for (const mutant of a) expect(mutant.xml, mutant.change).not.toBe(buildXml(parseXmlTree(UBL)));
  });

  it('round-trips a document unchanged apart from the mutation, entities included', () => {
    expect(buildXml(parseXmlTree(UBL))).toContain('<cbc:Note>Tom &amp; Jerry</cbc:Note>');
  });

  it('moves a VAT breakdown to the half-cent boundary', () => {
    const rounding = mutantsOf('example.xml', UBL, 40, 3).filter((m) => m.operator === 'rounding');
    expect(rounding.length).toBeGreaterThan(0);
    for (const mutant of rounding) {
      const taxable = Number(/<cbc:TaxableAmount[^>]*>([^<]+)</.exec(mutant.xml)![1]);
      const tax = /<cac:TaxSubtotal>[\s\S]*?<cbc:TaxAmount[^>]*>([^<]+)</.exec(mutant.xml)![1]!;
      // taxable × 19 % ends in exactly half a cent; the tax is one of the two cents around it.
      const exactCents = Math.round(taxable * 100) * 19;
      expect(exactCents % 100).toBe(50);
      expect([Math.floor(exactCents / 100), Math.ceil(exactCents / 100)]).toContain(Math.round(Number(tax) * 100));
    }
  });

  it('turns a UBL invoice into a credit note', () => {
    const credit = mutantsOf('example.xml', UBL, 10, 1).find((m) => m.operator === 'creditNote')!;
    expect(credit.xml).toContain('<CreditNote xmlns="urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"');
    expect(credit.xml).toContain('<cbc:CreditNoteTypeCode>381</cbc:CreditNoteTypeCode>');
    expect(credit.xml).toContain('<cac:CreditNoteLine>');
    expect(credit.xml).toContain('<cbc:CreditedQuantity unitCode="C62">2</cbc:CreditedQuantity>');
    expect(credit.xml).not.toMatch(/InvoiceLine|InvoicedQuantity|InvoiceTypeCode/);
  });
});

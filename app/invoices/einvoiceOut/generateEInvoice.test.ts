import { describe, expect, it } from 'vitest';
import { readEInvoice, einvoicePlainFields } from '../../einvoice/index.js';
import { documentTypeOf } from '../documentType.js';
import { emptyPaymentValues } from '../reviewedInvoice.js';
import { sampleCreditNote, sampleIntraCommunityInvoice, sampleReviewedInvoice } from '../sampleReviewedInvoice.js';
import { readSemanticInvoice, validateEInvoiceXml } from '../../en16931/index.js';
import { generateEInvoice } from './generateEInvoice.js';

describe('generateEInvoice', () => {
  for (const format of ['ubl', 'cii'] as const) {
    it(`writes a ${format.toUpperCase()} invoice the engine finds valid, and reading it back gives the reviewed fields`, () => {
      const invoice = sampleReviewedInvoice();
      const out = generateEInvoice(invoice, format);
      if (!out.ok) throw new Error(JSON.stringify(out.missing));
      const back = einvoicePlainFields(readEInvoice(new TextEncoder().encode(out.xml)));
      const f = invoice.fields;
      expect(back).toMatchObject({ invoice_number: f.invoice_number, issue_date: f.issue_date, due_date: f.due_date, seller: f.seller, buyer: f.buyer, currency: 'EUR', subtotal: 150, tax: 28.5, total: 178.5 });
      expect(back.lines).toEqual([
        { description: 'Paper A4, 500 sheets', quantity: 10, unit_price: 5, amount: 50 },
        { description: 'Toner "black"', quantity: 2, unit_price: 50, amount: 100 },
      ]);
      expect(out.xml).toContain('DE89370400440532013000');
      expect(out.xml).toContain('DE123456789');
    });
  }

  it('lists the BTs an invoice lacks instead of writing it', () => {
    const invoice = sampleReviewedInvoice();
    invoice.fields = { ...invoice.fields, invoice_number: null, lines: [{ description: '', quantity: null, unit_price: null, amount: 10 }] };
    invoice.payment = emptyPaymentValues();
    const out = generateEInvoice(invoice, 'ubl');
    expect(out.ok).toBe(false);
    if (out.ok) return;
    const bts = out.missing.map((m) => m.bt);
    for (const bt of ['BT-1', 'BT-40', 'BT-55', 'BT-153', 'BT-129', 'BT-146']) expect(bts).toContain(bt);
  });

  it('names the seller VAT identifier beside a missing VAT breakdown, before any category is known', () => {
    const invoice = sampleReviewedInvoice();
    invoice.fields = { ...invoice.fields, tax: null, tax_breakdown: [] };
    invoice.payment = { ...invoice.payment, seller_vat_id: null };
    invoice.sellerCountry = 'DE';
    const out = generateEInvoice(invoice, 'cii');
    expect(out.ok ? [] : out.missing.map((m) => m.bt)).toEqual(['BT-110', 'BG-23', 'BT-31']);
  });

  it('refuses an invoice whose fields break a fatal rule (the engine, not the plan, says so)', () => {
    const invoice = sampleReviewedInvoice();
    invoice.fields = { ...invoice.fields, total: 999 };
    const out = generateEInvoice(invoice, 'cii');
    expect(out.ok).toBe(false);
    if (!out.ok) expect(out.failedRules.map((r) => r.id)).toContain('BR-CO-15');
  });

  it('never guesses a 0 % VAT category, and refuses XRechnung without the terms it requires', () => {
    const zero = sampleReviewedInvoice();
    zero.fields = { ...zero.fields, tax: 0, total: 150 };
    const out = generateEInvoice(zero, 'ubl');
    expect(out.ok === false && out.missing.some((m) => m.bt === 'BT-118' || m.bt === 'BG-23')).toBe(true);
    const x = generateEInvoice(sampleReviewedInvoice(), 'ubl', { xrechnung: true });
    expect(x.ok === false && x.missing.some((m) => m.bt === 'BT-10')).toBe(true);
  });

  for (const format of ['ubl', 'cii'] as const) {
    it(`${format}: control characters from a page or a field never make the XML malformed (a NUL is a space)`, () => {
      const invoice = sampleReviewedInvoice();
      invoice.fields = { ...invoice.fields, seller: 'Acme\u0000 GmbH\u0007', lines: invoice.fields.lines.map((l, i) => (i === 0 ? { ...l, description: 'Paper\u001b A4' } : l)) };
      const out = generateEInvoice(invoice, format);
      if (!out.ok) throw new Error(JSON.stringify(out.missing));
      expect(out.xml).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/);
      expect(einvoicePlainFields(readEInvoice(new TextEncoder().encode(out.xml))).seller).toBe('Acme  GmbH');
    });
  }

  it('writes the document type the reviewed invoice has (BT-3)', () => {
    const invoice = sampleReviewedInvoice();
    invoice.documentType = documentTypeOf({ statedCode: '389', total: null });
    const out = generateEInvoice(invoice, 'cii');
    expect(out.ok && out.xml.includes('<ram:TypeCode>389</ram:TypeCode>')).toBe(true);
  });

  for (const format of ['ubl', 'cii'] as const) {
    it(`${format}: a credit note printed with minus amounts goes out as 381 with positive amounts (UBL: the CreditNote root)`, () => {
      const out = generateEInvoice(sampleCreditNote(), format);
      if (!out.ok) throw new Error(JSON.stringify(out.missing));
      const back = readEInvoice(new TextEncoder().encode(out.xml));
      expect(back.info.typeCode).toBe('381');
      expect(einvoicePlainFields(back)).toMatchObject({ subtotal: 150, tax: 28.5, total: 178.5 });
      expect(back.lines.map((l) => [l.quantity, l.unit_price, l.amount])).toEqual([[10, 5, 50], [2, 50, 100]]);
      if (format === 'ubl') {
        expect(out.xml).toMatch(/<CreditNote xmlns="urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"/);
        expect(out.xml).toContain('<cbc:CreditNoteTypeCode>381</cbc:CreditNoteTypeCode>');
        expect(out.xml).toContain('<cbc:CreditedQuantity unitCode="C62">10</cbc:CreditedQuantity>');
        expect(out.xml).not.toContain('InvoiceLine');
        // No header DueDate in a UBL 2.1 credit note: the payment means carry it.
        expect(out.xml).not.toContain('<cbc:DueDate>');
        expect(out.xml).toContain('<cbc:PaymentDueDate>2024-04-04</cbc:PaymentDueDate>');
        expect(back.fields.due_date?.value).toBe('2024-04-04');
      } else {
        expect(out.xml).toContain('<ram:TypeCode>381</ram:TypeCode>');
      }
    });
  }

  it('ubl: a credit note without payment means keeps its due date in the payment terms (BT-20), as BR-CO-25 asks', () => {
    const credit = sampleCreditNote();
    credit.payment = { ...credit.payment, iban: null, bic: null, payment_terms: null };
    const out = generateEInvoice(credit, 'ubl');
    if (!out.ok) throw new Error(JSON.stringify(out.missing));
    expect(out.xml).not.toContain('PaymentMeans');
    expect(out.xml).toContain('<cbc:Note>Due date: 2024-04-04</cbc:Note>');
    expect(validateEInvoiceXml(out.xml).failed.filter((f) => f.flag === 'fatal').map((f) => f.id)).toEqual([]);
  });

  for (const format of ['ubl', 'cii'] as const) {
    it(`${format}: an intra-community supply carries its delivery terms, line discount and rounding as its XML states them`, () => {
      const out = generateEInvoice(sampleIntraCommunityInvoice(), format);
      if (!out.ok) throw new Error(JSON.stringify(out.missing));
      const back = readSemanticInvoice(out.xml);
      expect(back.delivery[0]?.date?.text.replace(/-/g, '')).toBe('20240301');
      expect(back.delivery[0]?.address?.country?.text).toBe('AT');
      expect([back.periods[0]?.start?.text.replace(/-/g, ''), back.periods[0]?.end?.text.replace(/-/g, '')]).toEqual(['20240301', '20240331']);
      expect(back.lines[0]?.allowances.map((a) => [a.charge, a.amounts[0]?.text, a.reasonCodes[0]?.text])).toEqual([[false, '5.00', '95']]);
      expect(back.totals[0]?.rounding[0]?.text).toBe('0.02');
      expect(back.totals[0]?.payable[0]?.text).toBe('145.00');
    });

    it(`${format}: an intra-community supply whose XML states no delivery date, period or country is not written (BR-IC-11, BR-IC-12)`, () => {
      const invoice = sampleIntraCommunityInvoice();
      invoice.xmlDetails = { ...invoice.xmlDetails!, delivery: { date: null, period: null, address: null } };
      const out = generateEInvoice(invoice, format);
      expect(out.ok).toBe(false);
      if (!out.ok) expect(out.failedRules.map((r) => r.id)).toEqual(expect.arrayContaining(['BR-IC-11', 'BR-IC-12']));
    });
  }
});

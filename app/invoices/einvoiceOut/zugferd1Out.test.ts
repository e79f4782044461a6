/**
 * A ZUGFeRD 1.0 invoice taken as reviewed goes out as an EN 16931 e-invoice where its 1.0 terms say what EN 16931
 * needs (a BASIC invoice's VAT rates without category are S; a COMFORT allowance's reason and category are its own),
 * and is listed with what it lacks where they do not (an insurance tax is no VAT; a 0 % rate without category; an
 * allowance total without the allowances). Minimal hand-made 1.0 XML (testing/zugferd1Sample.ts); the official XSLT
 * checks the same invoices in testing/invoicesEInvoiceOracle.test.ts, the real 1.0 PDFs in
 * main/corpus/invoicesExport/zugferd1Export.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { readSemanticInvoice, validateEInvoiceXml } from '../../en16931/index.js';
import { reviewedFromXmlBytes } from '../../../testing/reviewedFromXml.js';
import { comfortWithAllowance, zugferd1Xml, type Zf1Options } from '../../../testing/zugferd1Sample.js';
import { generateEInvoice } from './generateEInvoice.js';

const reviewed = (o: Zf1Options = {}) => reviewedFromXmlBytes(new TextEncoder().encode(zugferd1Xml(o)), 'zugferd1.xml');

describe('a ZUGFeRD 1.0 invoice out as EN 16931', () => {
  it('the hand-made 1.0 invoices are valid by 1.0’s own rules', () => {
    for (const o of [{}, comfortWithAllowance]) expect(validateEInvoiceXml(zugferd1Xml(o)).failed).toEqual([]);
  });

  for (const format of ['ubl', 'cii'] as const) {
    it(`${format}: a BASIC invoice whose taxes state only VAT and a rate is written with category S at 19 % and 7 %`, () => {
      const invoice = reviewed();
      expect(invoice.xmlDetails?.lines.map((l) => [l.category, l.rate, l.unitCode])).toEqual([['S', '19.00', 'C62'], ['S', '7.00', 'C62']]);
      const out = generateEInvoice(invoice, format);
      if (!out.ok) throw new Error(JSON.stringify(out.missing));
      const back = readSemanticInvoice(out.xml);
      expect(back.lines.map((l) => [l.taxCategories[0]?.code?.text, Number(l.taxCategories[0]?.rate?.text)])).toEqual([['S', 19], ['S', 7]]);
      expect(back.taxTotals.flatMap((t) => t.subtotals).map((s) => [s.categories[0]?.code?.text, Number(s.categories[0]?.rate?.text)])).toEqual([['S', 19], ['S', 7]]);
    });

    it(`${format}: a COMFORT allowance keeps the reason and category its 1.0 elements state`, () => {
      const out = generateEInvoice(reviewed(comfortWithAllowance), format);
      if (!out.ok) throw new Error(JSON.stringify(out.missing));
      const allowance = readSemanticInvoice(out.xml).allowanceCharges[0];
      expect([allowance?.reasons[0]?.text, allowance?.taxCategories[0]?.code?.text, allowance?.amounts[0]?.text]).toEqual(['Sonderrabatt', 'S', '2.00']);
    });
  }

  it('an insurance tax is not written as VAT: the invoice is listed with BT-118, not with the seller VAT identifier', () => {
    const out = generateEInvoice(
      reviewed({
        profile: 'comfort',
        sellerTaxIds: {},
        lines: [{ name: 'Privathaftpflicht', quantity: '1.0000', price: '50.0000', total: '50.00', tax: { type: 'ZF_INSURANCE_TAX', category: 'S', rate: '19.00' } }],
        taxes: [{ type: 'ZF_INSURANCE_TAX', category: 'S', rate: '19.00', basis: '50.00', calculated: '9.50' }],
        totals: { lineTotal: '50.00', allowanceTotal: '0.00', taxBasis: '50.00', taxTotal: '9.50', grandTotal: '59.50', due: '59.50' },
      }),
      'cii',
    );
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.missing.map((m) => m.bt)).toEqual(['BT-118']);
    expect(out.missing[0]!.why).toContain('ZF_INSURANCE_TAX (insurance tax), not VAT');
  });

  it('a 0 % VAT without category is not guessed (zero-rated, exempt, reverse charge …)', () => {
    const out = generateEInvoice(
      reviewed({
        lines: [{ name: 'Buch', quantity: '1.0000', price: '20.0000', total: '20.00', tax: { rate: '0.00' } }],
        taxes: [{ type: 'VAT', rate: '0.00', basis: '20.00', calculated: '0.00' }],
        totals: { lineTotal: '20.00', allowanceTotal: '0.00', taxBasis: '20.00', taxTotal: '0.00', grandTotal: '20.00', due: '20.00' },
      }),
      'ubl',
    );
    expect(out.ok ? [] : out.missing.map((m) => m.bt)).toContain('BT-118');
  });

  it('a BASIC allowance total stated without its allowances is listed with the reason it lacks (BT-97/BT-98)', () => {
    const out = generateEInvoice(
      reviewed({
        taxes: [
          { type: 'VAT', rate: '19.00', basis: '18.00', calculated: '3.42' },
          { type: 'VAT', rate: '7.00', basis: '15.00', calculated: '1.05' },
        ],
        totals: { lineTotal: '35.00', allowanceTotal: '2.00', taxBasis: '33.00', taxTotal: '4.47', grandTotal: '37.47', due: '37.47' },
      }),
      'cii',
    );
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.missing.map((m) => m.bt)).toEqual(['BG-20']);
    expect(out.missing[0]!.why).toContain('BT-97/BT-98');
  });

  it('a seller without VAT identifier is asked for one only where a category needs it', () => {
    const out = generateEInvoice(reviewed({ sellerTaxIds: {} }), 'cii');
    expect(out.ok ? [] : out.missing).toEqual([{ bt: 'BT-31', why: 'VAT category S needs the seller VAT identifier or tax registration (BT-32) (BR-S-02)' }]);
  });

  for (const format of ['ubl', 'cii'] as const) {
    it(`${format}: a seller's tax number (1.0 schemeID FC) is written as its tax registration BT-32 beside the VAT identifier`, () => {
      const both = reviewed({ sellerTaxIds: { VA: 'DE123456789', FC: '201/113/40209' } });
      expect(both.xmlDetails?.sellerTaxRegistration).toBe('201/113/40209');
      const out = generateEInvoice(both, format);
      if (!out.ok) throw new Error(JSON.stringify(out.missing));
      expect(readSemanticInvoice(out.xml).seller.taxIds.map((t) => [t.id?.text, t.scheme?.text])).toEqual([['DE123456789', format === 'ubl' ? 'VAT' : 'VA'], ['201/113/40209', 'FC']]);
    });

    it(`${format}: a tax number alone satisfies BR-S-02, but not BR-CO-26 (a seller identifier, legal or VAT identifier): listed, not written`, () => {
      const out = generateEInvoice(reviewed({ sellerTaxIds: { FC: '201/113/40209' } }), format);
      expect(out.ok).toBe(false);
      if (out.ok) return;
      expect(out.failedRules.map((r) => r.id)).toEqual(['BR-CO-26']);
      expect(out.missing.map((m) => m.bt)).toEqual(['BT-29', 'BT-30', 'BT-31']);
    });
  }
});

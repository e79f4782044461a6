/**
 * ZUGFeRD 1.0's taxes in EN 16931's codes: what 1.0's code lists define (a positive VAT rate is S, IC is K, an
 * insurance tax is no VAT) and nothing they leave open (a 0 % rate without category stays unknown).
 */
import { describe, expect, it } from 'vitest';
import type { TaxCategory } from '../model/semanticInvoice.js';
import { taxTypeName, zugferd1Tax } from './zugferd1Categories.js';

const t = (text: string | undefined) => (text === undefined ? undefined : { text, attrs: {} });
const tax = (o: { type?: string; category?: string; rate?: string; reason?: string }): TaxCategory => ({
  code: t(o.category),
  rate: t(o.rate),
  scheme: t(o.type),
  exemptionReason: t(o.reason),
  exemptionReasonCode: undefined,
});

describe('zugferd1Tax', () => {
  it('keeps a stated category, and reads 1.0’s IC (intra-community supply) as EN 16931’s K', () => {
    expect(zugferd1Tax(tax({ type: 'VAT', category: 'S', rate: '19.00' }))).toMatchObject({ vat: true, category: 'S', rate: '19.00' });
    expect(zugferd1Tax(tax({ type: 'VAT', category: 'E', rate: '0', reason: 'steuerfrei' }))).toMatchObject({ vat: true, category: 'E', exemptionReason: 'steuerfrei' });
    expect(zugferd1Tax(tax({ type: 'VAT', category: 'IC', rate: '0' }))).toMatchObject({ vat: true, category: 'K' });
  });

  it('gives a VAT rate above zero without category the standard rate S (the only 1.0 category with a rate), 7 % as 19 %', () => {
    expect(zugferd1Tax(tax({ type: 'VAT', rate: '19.00' }))).toMatchObject({ vat: true, category: 'S', rate: '19.00' });
    expect(zugferd1Tax(tax({ type: 'VAT', rate: '7.00' }))).toMatchObject({ vat: true, category: 'S', rate: '7.00' });
  });

  it('never guesses the category of a 0 % or rateless VAT without one (Z, E, AE, IC and O are all 0 %)', () => {
    expect(zugferd1Tax(tax({ type: 'VAT', rate: '0.00' }))).toMatchObject({ vat: true, category: null });
    expect(zugferd1Tax(tax({ type: 'VAT' }))).toMatchObject({ vat: true, category: null });
  });

  it('reads an insurance tax (ZF_INSURANCE_TAX) as another tax, not VAT, whatever its category and rate', () => {
    expect(zugferd1Tax(tax({ type: 'ZF_INSURANCE_TAX', category: 'S', rate: '19.00' }))).toEqual({ vat: false, taxType: 'ZF_INSURANCE_TAX' });
    expect(taxTypeName('ZF_INSURANCE_TAX')).toBe('ZF_INSURANCE_TAX (insurance tax)');
  });

  it('takes the type of a line’s tax without one from the header rows of its rate, else VAT', () => {
    const header = [tax({ type: 'VAT', rate: '19.00' }), tax({ type: 'ZF_INSURANCE_TAX', category: 'S', rate: '16.34' })];
    expect(zugferd1Tax(tax({ rate: '19' }), header)).toMatchObject({ vat: true, category: 'S' });
    expect(zugferd1Tax(tax({ rate: '16.34' }), header)).toEqual({ vat: false, taxType: 'ZF_INSURANCE_TAX' });
    expect(zugferd1Tax(tax({ rate: '7.00' }), header)).toMatchObject({ vat: true, category: 'S' });
  });
});

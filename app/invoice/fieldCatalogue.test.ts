import { describe, expect, it } from 'vitest';
import {
  businessTermOf,
  coreFieldKeys,
  invoiceFieldCatalogue,
  lineColumnCatalogue,
  scalarFieldForTerm,
  scalarFieldKeys,
  settlementFieldKeys,
  taxColumnCatalogue,
} from './fieldCatalogue.js';
import { requiredFields } from './rules/requiredRules.js';
import type { RuleInvoice } from './rules/ruleTypes.js';

describe('invoice field catalogue', () => {
  it('names each field and each business term once', () => {
    const terms = [...invoiceFieldCatalogue, ...lineColumnCatalogue, ...taxColumnCatalogue].map((f) => f.bt);
    expect(new Set(scalarFieldKeys).size).toBe(scalarFieldKeys.length);
    expect(new Set(terms).size).toBe(terms.length);
    expect([...coreFieldKeys, ...settlementFieldKeys].sort()).toEqual([...scalarFieldKeys].sort());
  });

  it('maps field paths to EN 16931 business terms and back', () => {
    expect(businessTermOf('invoice_number')).toBe('BT-1');
    expect(businessTermOf('total')).toBe('BT-112');
    expect(businessTermOf('lines.3.amount')).toBe('BT-131');
    expect(businessTermOf('tax_breakdown.0.base')).toBe('BT-116');
    expect(businessTermOf('ibans.0')).toBeNull();
    expect(businessTermOf('lines.0.colour')).toBeNull();
    expect(scalarFieldForTerm('BT-115')?.key).toBe('amount_due');
  });

  it('drives the page check of required fields', () => {
    const empty = Object.fromEntries(scalarFieldKeys.map((k) => [k, null])) as unknown as RuleInvoice;
    const results = requiredFields({ ...empty, lines: [] });
    expect(results.map((r) => r.rule)).toEqual(['BR-02', 'BR-03', 'BR-05', 'BR-06', 'BR-07', 'BR-14']);
    expect(results.every((r) => r.status === 'fail')).toBe(true);
    expect(results.find((r) => r.rule === 'BR-14')).toMatchObject({ title: 'Invoice total amount with VAT (BT-112) present', fields: ['total'] });
  });
});

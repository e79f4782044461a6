import { describe, expect, it } from 'vitest';
import { emptyInvoiceFields, mergeInvoiceFields } from './mergeFields.js';

describe('mergeInvoiceFields', () => {
  it('takes identity fields from the first page that has them, totals from the last, lines from all', () => {
    const page1 = { ...emptyInvoiceFields(), invoice_number: 'A-17', issue_date: '2024-03-01', currency: 'EUR', total: 10, lines: [{ description: 'Widget', quantity: 2, unit_price: 5, amount: 10 }] };
    const page2 = { ...emptyInvoiceFields(), invoice_number: 'A-17-bis', seller: 'Acme GmbH', subtotal: 100, tax: 19, total: 119, lines: [{ description: 'Gadget', quantity: null, unit_price: null, amount: 90 }] };
    const merged = mergeInvoiceFields([page1, undefined, page2]);
    expect(merged).toEqual({
      invoice_number: 'A-17',
      issue_date: '2024-03-01',
      due_date: null,
      seller: 'Acme GmbH',
      buyer: null,
      currency: 'EUR',
      subtotal: 100,
      tax: 19,
      total: 119,
      lines: [
        { description: 'Widget', quantity: 2, unit_price: 5, amount: 10 },
        { description: 'Gadget', quantity: null, unit_price: null, amount: 90 },
      ],
    });
  });

  it('gives all-null fields for no pages and ignores values of the wrong type', () => {
    expect(mergeInvoiceFields([])).toEqual(emptyInvoiceFields());
    const bad = { invoice_number: 42, total: 'lots', lines: 'none' } as unknown as Parameters<typeof mergeInvoiceFields>[0][number];
    expect(mergeInvoiceFields([bad])).toEqual(emptyInvoiceFields());
  });
});

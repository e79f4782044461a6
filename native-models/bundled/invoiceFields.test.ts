import { describe, expect, it } from 'vitest';
import { wordsFromLayoutText } from '../../app/invoice/index.js';
import { pageInvoiceFields } from './invoiceFields.js';

describe('pageInvoiceFields', () => {
  it('takes a page with party labels only (a letter, a mail) for no invoice page', () => {
    const mail = wordsFromLayoutText(['From: Jane Porter', 'Customer: Harbor Logistics', 'Thanks for the meeting on Tuesday.'].join('\n'));
    expect(pageInvoiceFields(mail, '')).toBeUndefined();
  });

  it('gives an invoice page its parties with their boxes', () => {
    const page = wordsFromLayoutText(['Northwind Office Supplies Ltd.', 'Bill to: Harbor Logistics Inc.', 'Invoice No: NW-2207', 'Total   $ 120.00'].join('\n'));
    const fields = pageInvoiceFields(page, '')!;
    expect(fields.invoice).toMatchObject({ seller: 'Northwind Office Supplies Ltd.', buyer: 'Harbor Logistics Inc.', invoice_number: 'NW-2207' });
    expect((fields.invoiceSources.buyer as { label: string; boxes: unknown[] }).label).toBe('Bill to:');
    expect((fields.invoiceSources.buyer as { boxes: unknown[] }).boxes.length).toBe(3);
  });
});

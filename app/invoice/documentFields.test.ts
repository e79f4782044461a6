import { describe, expect, it } from 'vitest';
import type { Extraction } from '../model/extraction.js';
import { documentInvoiceFields, emptyInvoiceFields, stackPageWords } from './documentFields.js';

type DocumentPage = Pick<Extraction, 'words' | 'page' | 'markdown' | 'fields'>;
const page = (markdown: string, invoice = true): DocumentPage => ({
  markdown,
  page: { width: 1000, height: 1400 },
  fields: invoice ? { invoice: { invoice_number: null } } : undefined,
});

describe('documentInvoiceFields', () => {
  it('reads the document as a whole: the number on page 1 and the totals on page 2', () => {
    const fields = documentInvoiceFields([
      page('ACME GmbH\n\nInvoice number: INV-2041\n\nInvoice date: 2024-03-01'),
      page('Subtotal: EUR 100.00\n\nVAT 19%: EUR 19.00\n\nTotal: EUR 119.00'),
    ]);
    expect(fields.invoice_number).toBe('INV-2041');
    expect(fields.issue_date).toBe('2024-03-01');
    expect([fields.subtotal, fields.tax, fields.total]).toEqual([100, 19, 119]);
  });

  it('gives every field absent when no page was taken for an invoice page', () => {
    expect(documentInvoiceFields([page('Invoice number: INV-2041\n\nTotal: EUR 119.00', false)])).toEqual(emptyInvoiceFields());
  });

  it('stacks the pages\' words page under page', () => {
    const word = { text: 'x', box: [10, 20, 30, 40] as [number, number, number, number], confidence: 1 };
    const stacked = stackPageWords([
      { words: [word], page: { width: 100, height: 500 } },
      { words: [word], page: { width: 100, height: 600 } },
    ]);
    expect(stacked.map((w) => w.box)).toEqual([[10, 20, 30, 40], [10, 520, 30, 540]]);
  });
});

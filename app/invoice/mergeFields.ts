/**
 * One document's invoice fields from its pages' fields: the per-document `<stem>.fields.json` of `recto ocr`.
 * Identity fields (number, dates, parties, currency) come from the first page that has them — the letterhead and
 * the invoice block are on page one; money totals from the last page that has them — invoice totals close the
 * document, after any carried-forward page subtotals; line items of all pages in page order.
 */
import type { PlainInvoiceFields } from './extractFields.js';

const firstWins = ['invoice_number', 'issue_date', 'due_date', 'seller', 'buyer', 'currency'] as const;
const lastWins = ['subtotal', 'tax', 'total'] as const;

export function emptyInvoiceFields(): PlainInvoiceFields {
  return {
    invoice_number: null,
    issue_date: null,
    due_date: null,
    seller: null,
    buyer: null,
    currency: null,
    subtotal: null,
    tax: null,
    total: null,
    lines: [],
  };
}

/** Pages without fields (null/undefined) are skipped; values of the wrong type are ignored, not trusted. */
export function mergeInvoiceFields(pages: ReadonlyArray<Partial<PlainInvoiceFields> | null | undefined>): PlainInvoiceFields {
  const merged = emptyInvoiceFields();
  for (const page of pages) {
    if (!page) continue;
    for (const key of firstWins) {
      const value = page[key];
      if (merged[key] === null && typeof value === 'string' && value.trim()) merged[key] = value;
    }
    for (const key of lastWins) {
      const value = page[key];
      if (typeof value === 'number' && Number.isFinite(value)) merged[key] = value;
    }
    if (Array.isArray(page.lines)) {
      for (const line of page.lines) {
        if (!line || typeof line.description !== 'string') continue;
        const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
        merged.lines.push({ description: line.description, quantity: num(line.quantity), unit_price: num(line.unit_price), amount: num(line.amount) });
      }
    }
  }
  return merged;
}

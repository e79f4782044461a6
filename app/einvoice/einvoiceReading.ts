/**
 * An EInvoice in the review screen's field shape (fieldShape.ts) and in the plain shape `<stem>.fields.json` uses.
 * Values read from the invoice's own XML are what the issuer declared: confidence 1, no box on the page, the
 * element path as their location.
 */
import { emptyReadingFields, invoiceFieldKeys, type InvoiceReading } from '../invoice/fieldShape.js';
import type { PlainInvoiceFields } from '../invoice/extractFields.js';
import type { EInvoice } from './einvoice.js';

export function einvoiceReading(invoice: EInvoice): InvoiceReading {
  const fields = emptyReadingFields();
  for (const key of invoiceFieldKeys) {
    const field = invoice.fields[key];
    if (!field) continue;
    fields[key] = { value: field.value, confidence: 1, source: 'e-invoice', text: field.text, label: null, location: null, xmlPath: field.xmlPath, evidence: ['xml'] };
  }
  return {
    source: 'e-invoice',
    fields,
    lines: invoice.lines.map((line) => ({
      description: line.description,
      quantity: line.quantity,
      unit_price: line.unit_price,
      amount: line.amount,
      confidence: 1,
      source: 'e-invoice' as const,
      location: null,
    })),
    einvoice: invoice.info,
    pageVsXml: null,
  };
}

export function einvoicePlainFields(invoice: EInvoice): PlainInvoiceFields {
  const value = <T>(field: { value: T } | null): T | null => field?.value ?? null;
  const f = invoice.fields;
  return {
    invoice_number: value(f.invoice_number),
    issue_date: value(f.issue_date),
    due_date: value(f.due_date),
    seller: value(f.seller),
    buyer: value(f.buyer),
    currency: value(f.currency),
    subtotal: value(f.subtotal),
    tax: value(f.tax),
    total: value(f.total),
    lines: invoice.lines.map((l) => ({ description: l.description, quantity: l.quantity, unit_price: l.unit_price, amount: l.amount })),
  };
}

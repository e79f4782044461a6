/**
 * The invoices export's tables: `invoices.csv` (one row per invoice), `lines.csv` (one row per invoice line) and
 * `invoices.jsonl` (one object per invoice). RFC 4180 CSV in UTF-8 with a header row, ISO 8601 dates, amounts with a
 * decimal point and no thousands separator (docs/invoices-export.md). A text cell a spreadsheet would run as a
 * formula (= + - @, tab, carriage return first) is prefixed with an apostrophe; quotes, commas and line breaks are
 * quoted. Amounts are numbers and are written as such, so a negative amount stays a number.
 */
import { coreFieldKeys, paymentFieldCatalogue, settlementFieldKeys } from '../invoice/fieldCatalogue.js';
import type { MissingTerm } from './einvoiceOut/einvoicePlan.js';
import type { ReviewedInvoice } from './reviewedInvoice.js';

/** What the export did with an invoice's e-invoice: the file written, or the terms it lacks. */
export interface EInvoiceOutcome {
  file: string | null;
  missing: MissingTerm[];
}

type Cell = string | number | null;

/** Characters that make a spreadsheet treat a cell as a formula (OWASP CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: Cell): string {
  if (value === null) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text;
}

const csvRow = (cells: readonly Cell[]): string => `${cells.map(csvCell).join(',')}\r\n`;

const paymentKeys = paymentFieldCatalogue.map((f) => f.key);
const scalarKeys = [...coreFieldKeys, ...settlementFieldKeys];

export const invoiceColumns = [
  'document_id', 'file', ...scalarKeys, ...paymentKeys,
  'status', 'exceptions', 'exception_reason', 'reviewer', 'reviewed_at', 'einvoice_file', 'einvoice_missing', 'sources',
  'matched_po', 'match_status',
] as const;

export const lineColumns = [
  'document_id', 'invoice_number', 'line', 'description', 'quantity', 'unit_price', 'amount', 'source',
  'po_number', 'po_line', 'ordered_quantity', 'received_quantity', 'ordered_unit_price',
] as const;

const sourcesText = (sources: ReviewedInvoice['sources']): string => Object.entries(sources).map(([k, v]) => `${k}=${v}`).join(';');
const missingText = (missing: readonly MissingTerm[]): string => [...new Set(missing.map((m) => m.bt))].join(' ');

export function invoicesCsv(invoices: readonly { invoice: ReviewedInvoice; einvoice: EInvoiceOutcome }[]): string {
  let out = csvRow([...invoiceColumns]);
  for (const { invoice: inv, einvoice } of invoices) {
    out += csvRow([
      inv.documentId, inv.fileName,
      ...scalarKeys.map((k) => inv.fields[k]),
      ...paymentKeys.map((k) => inv.payment[k]),
      inv.status, inv.exceptions.join(' | '), inv.exceptionReason, inv.reviewer, inv.reviewedAt,
      einvoice.file, missingText(einvoice.missing), sourcesText(inv.sources),
      inv.poMatch?.matchedPo ?? null, inv.poMatch?.status ?? null,
    ]);
  }
  return out;
}

export function linesCsv(invoices: readonly ReviewedInvoice[]): string {
  let out = csvRow([...lineColumns]);
  for (const inv of invoices) {
    inv.fields.lines.forEach((l, i) => {
      const po = inv.poMatch?.lines[i];
      out += csvRow([
        inv.documentId, inv.fields.invoice_number, i + 1, l.description, l.quantity, l.unit_price, l.amount, inv.sources.lines ?? null,
        po?.poNumber ?? null, po?.poLine ?? null, po?.orderedQuantity ?? null, po?.receivedQuantity ?? null, po?.orderedUnitPrice ?? null,
      ]);
    });
  }
  return out;
}

export function invoiceJson(inv: ReviewedInvoice, einvoice: EInvoiceOutcome): string {
  const fields = Object.fromEntries(scalarKeys.map((k) => [k, inv.fields[k]]));
  return JSON.stringify({
    document_id: inv.documentId,
    file: inv.fileName,
    status: inv.status,
    exceptions: inv.exceptions,
    exception_reason: inv.exceptionReason,
    reviewer: inv.reviewer,
    reviewed_at: inv.reviewedAt,
    fields,
    payment: inv.payment,
    seller_country: inv.sellerCountry,
    buyer_country: inv.buyerCountry,
    lines: inv.fields.lines,
    tax_breakdown: inv.fields.tax_breakdown,
    sources: inv.sources,
    einvoice: { file: einvoice.file, missing: einvoice.missing },
  });
}

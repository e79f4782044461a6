/**
 * The invoices export's tables: `invoices.csv` (one row per invoice), `lines.csv` (one row per invoice line) and
 * `invoices.jsonl` (one object per invoice). RFC 4180 CSV in UTF-8 with a header row, ISO 8601 dates, amounts with a
 * decimal point and no thousands separator (docs/invoices-export.md). In a text cell, every = + - @ a spreadsheet
 * would run as a formula — first in the cell or after a `,` or `;` it may split on — gets an apostrophe before it and
 * the cell is quoted; control characters become spaces; quotes, commas and semicolons are quoted. Amounts are numbers and are written as such, so a negative amount stays a number.
 */
import { coreFieldKeys, lineTermCatalogue, paymentFieldCatalogue, settlementFieldKeys, type LineTermKey } from '../invoice/fieldCatalogue.js';
import { documentTypeText } from './documentType.js';
import type { MissingTerm } from './einvoiceOut/einvoicePlan.js';
import type { ReviewedInvoice } from './reviewedInvoice.js';

/** What the export did with an invoice's e-invoice: the file written, or the terms it lacks. */
export interface EInvoiceOutcome {
  file: string | null;
  /** `original`: the document's own XML byte for byte; `generated`: written from the reviewed values; null: none written. */
  origin: 'original' | 'generated' | null;
  missing: MissingTerm[];
}

type Cell = string | number | null;

/** Control characters (C0, DEL, C1): none is written into a cell — a NUL or a line break is a space there. */
const CONTROL = /[\u0000-\u001F\u007F-\u009F]/g;
/**
 * A formula start (OWASP CSV injection: = + - @) at the cell's start or after a separator a spreadsheet may split on
 * (`,`, `;`, tab — the file is read as `;`-separated where `,` is the decimal comma), spaces between allowed.
 */
const FORMULA_START = /(^|[,;\t])(\s*)([=+\-@])/g;
/** Cells holding these are quoted (RFC 4180's quote, comma and line breaks; `;` and tab for the other separators). */
const NEEDS_QUOTES = /[",;\t\r\n]/;

export function csvCell(value: Cell): string {
  if (value === null) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const plain = value.replace(CONTROL, ' ');
  const text = plain.replace(FORMULA_START, (_, separator: string, space: string, start: string) => `${separator}${space}'${start}`);
  return NEEDS_QUOTES.test(text) || text !== text.trim() || text !== plain ? `"${text.replace(/"/g, '""')}"` : text;
}

const csvRow = (cells: readonly Cell[]): string => `${cells.map(csvCell).join(',')}\r\n`;

const paymentKeys = paymentFieldCatalogue.map((f) => f.key);
const scalarKeys = [...coreFieldKeys, ...settlementFieldKeys];

export const invoiceColumns = [
  'document_id', 'file', 'document_type', ...scalarKeys, ...paymentKeys,
  'status', 'exceptions', 'exception_reason', 'reviewer', 'reviewed_at', 'correction_of', 'correction_of_at', 'einvoice_file', 'einvoice_origin', 'einvoice_missing', 'sources',
  'matched_po', 'match_status',
] as const;

export const lineColumns = [
  'document_id', 'invoice_number', 'line', 'description', 'quantity', 'unit_price', 'amount', ...lineTermCatalogue.map((t) => t.column), 'source',
  'po_number', 'po_line', 'ordered_quantity', 'received_quantity', 'ordered_unit_price',
] as const;

const sourcesText = (sources: ReviewedInvoice['sources']): string => Object.entries(sources).map(([k, v]) => `${k}=${v}`).join(';');
const missingText = (missing: readonly MissingTerm[]): string => [...new Set(missing.map((m) => m.bt))].join(' ');

/** The earlier export an invoice sent again under a new approval corrects (docs/invoices-export.md, "Each invoice once"). */
export interface CorrectionOf {
  exportId: string;
  exportedAt: string;
}

export function invoicesCsv(invoices: readonly { invoice: ReviewedInvoice; einvoice: EInvoiceOutcome; correctionOf?: CorrectionOf | null }[]): string {
  let out = csvRow([...invoiceColumns]);
  for (const { invoice: inv, einvoice, correctionOf } of invoices) {
    out += csvRow([
      inv.documentId, inv.fileName, documentTypeText(inv.documentType),
      ...scalarKeys.map((k) => inv.fields[k]),
      ...paymentKeys.map((k) => inv.payment[k]),
      inv.status, inv.exceptions.join(' | '), inv.exceptionReason, inv.reviewer, inv.reviewedAt, correctionOf?.exportId ?? null, correctionOf?.exportedAt ?? null,
      einvoice.file, einvoice.origin, missingText(einvoice.missing), sourcesText(inv.sources),
      inv.poMatch?.matchedPo ?? null, inv.poMatch?.status ?? null,
    ]);
  }
  return out;
}

/**
 * Each line's unit (BT-130), VAT category (BT-151) and rate (BT-152) under their lines.csv names, where the lines are
 * the XML's (the same count of them); null where the invoice has no XML or its lines are no longer the XML's.
 */
function lineTermsOf(inv: ReviewedInvoice): Record<string, string | number | null>[] | null {
  if (!inv.xmlDetails || inv.xmlDetails.lines.length !== inv.fields.lines.length) return null;
  return inv.xmlDetails.lines.map((line) => {
    const rate = line.rate !== null && Number.isFinite(Number(line.rate)) ? Number(line.rate) : null;
    const values: Record<LineTermKey, string | number | null> = { unitCode: line.unitCode, category: line.category, rate };
    return Object.fromEntries(lineTermCatalogue.map((t) => [t.column, values[t.key]]));
  });
}

export function linesCsv(invoices: readonly ReviewedInvoice[]): string {
  let out = csvRow([...lineColumns]);
  for (const inv of invoices) {
    const terms = lineTermsOf(inv);
    inv.fields.lines.forEach((l, i) => {
      const po = inv.poMatch?.lines[i];
      out += csvRow([
        inv.documentId, inv.fields.invoice_number, i + 1, l.description, l.quantity, l.unit_price, l.amount,
        ...lineTermCatalogue.map((t) => terms?.[i]?.[t.column] ?? null),
        inv.sources.lines ?? null,
        po?.poNumber ?? null, po?.poLine ?? null, po?.orderedQuantity ?? null, po?.receivedQuantity ?? null, po?.orderedUnitPrice ?? null,
      ]);
    });
  }
  return out;
}

export function invoiceJson(inv: ReviewedInvoice, einvoice: EInvoiceOutcome, correctionOf: CorrectionOf | null = null): string {
  const fields = Object.fromEntries(scalarKeys.map((k) => [k, inv.fields[k]]));
  return JSON.stringify({
    document_id: inv.documentId,
    file: inv.fileName,
    document_type: { code: inv.documentType.code, name: inv.documentType.name, corrective: inv.documentType.corrective },
    status: inv.status,
    exceptions: inv.exceptions,
    exception_reason: inv.exceptionReason,
    reviewer: inv.reviewer,
    reviewed_at: inv.reviewedAt,
    correction_of: correctionOf ? { export_id: correctionOf.exportId, exported_at: correctionOf.exportedAt } : null,
    fields,
    payment: inv.payment,
    seller_country: inv.sellerCountry,
    buyer_country: inv.buyerCountry,
    // Each line with its unit and VAT category and rate where the XML states them (the columns lines.csv writes).
    lines: inv.fields.lines.map((l, i) => ({ ...l, ...lineTermsOf(inv)?.[i] })),
    tax_breakdown: inv.fields.tax_breakdown,
    sources: inv.sources,
    einvoice: { file: einvoice.file, origin: einvoice.origin, missing: einvoice.missing },
  });
}

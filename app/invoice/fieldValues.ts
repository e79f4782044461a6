/**
 * The shapes of one invoice's reading from its page: the rich one the extractor returns (each value with the text and
 * words it was read from and its label) and the plain one `recto ocr` writes as `<stem>.fields.json`. Both take their
 * fields from the catalogue (fieldCatalogue.ts).
 */
import type { Word } from '../model/extraction.js';
import {
  coreFieldKeys,
  settlementFieldKeys,
  type CoreField,
  type CoreValues,
  type PlainLine,
  type PlainTaxRow,
  type SettlementFieldKey,
  type SettlementValues,
  type ValueOfKind,
} from './fieldCatalogue.js';
import type { DocumentType } from './documentType.js';
import type { InvoiceLineItem } from './lineItem.js';
import type { SettlementValue } from './settlementAmounts.js';
import type { VatRow } from './vatBreakdown.js';

export interface FieldValue<T> {
  value: T;
  /** The text the value was read from. */
  text: string;
  /** Words carrying the value (boxes for highlighting). */
  words: Word[];
  /** The label text that introduced it, null for unlabelled guesses. */
  label: string | null;
}

/** The key fields as read: each with its evidence, null where not found. */
export type CoreFieldValues = { [F in CoreField as F['key']]: FieldValue<ValueOfKind<F['kind']>> | null };

/** The totals block's other amounts as read (settlementAmounts.ts): BT-106, BT-107, BT-108, BT-113, BT-115. */
export type SettlementFieldValues = { [K in SettlementFieldKey]: SettlementValue | null };

export type InvoiceFields = CoreFieldValues &
  SettlementFieldValues & {
    lines: InvoiceLineItem[];
    /** The VAT breakdown (BG-23) as printed, one row per rate (vatBreakdown.ts); empty where none is printed. */
    tax_breakdown: VatRow[];
    /** 'receipt' where the page is a till receipt (documentType.ts); absent: an invoice. */
    document_type?: DocumentType;
  };

/**
 * The plain per-document shape `recto ocr` writes as `<stem>.fields.json` (absent = null). The settlement amounts are
 * read from the page where printed and absent from files written before they were read.
 */
export type PlainInvoiceFields = CoreValues &
  Partial<SettlementValues> & {
    lines: PlainLine[];
    /** VAT breakdown rows: rate in percent, taxable amount, tax; empty where none is printed. */
    tax_breakdown?: PlainTaxRow[];
    /** 'receipt' for a till receipt (documentType.ts); absent: an invoice. */
    document_type?: DocumentType;
  };

export function toPlainFields(fields: InvoiceFields): PlainInvoiceFields {
  const plain: Record<string, unknown> = {};
  for (const key of [...coreFieldKeys, ...settlementFieldKeys]) plain[key] = fields[key]?.value ?? null;
  return {
    ...(plain as CoreValues & SettlementValues),
    lines: fields.lines.map((l) => ({ description: l.description, quantity: l.quantity, unit_price: l.unitPrice, amount: l.amount })),
    tax_breakdown: fields.tax_breakdown.map((row) => ({ rate: row.rate, base: row.base, amount: row.amount })),
    ...(fields.document_type === 'receipt' ? { document_type: 'receipt' as const } : {}),
  };
}

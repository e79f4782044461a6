/**
 * One invoice as the reviewer left it: the document's reviewed fields (engine reading with the corrections applied),
 * the payment fields, its review status with the exception reason, who reviewed it, and where each value came from.
 * The invoices export (tables and e-invoices) is written from this shape only.
 */
import type { DocumentType } from './documentType.js';
import type { XmlInvoiceDetails } from './einvoiceOut/xmlDetails.js';
import { paymentFieldCatalogue, type PaymentFieldKey } from '../invoice/fieldCatalogue.js';
import type { EngineFieldValues } from '../invoice/review/engineFields.js';

/** The payment fields (paymentFieldCatalogue in ../invoice/fieldCatalogue.ts): text as printed, null where absent. */
export type PaymentValues = Record<PaymentFieldKey, string | null>;

export const emptyPaymentValues = (): PaymentValues => Object.fromEntries(paymentFieldCatalogue.map((f) => [f.key, null])) as PaymentValues;

/** Where a value came from: read from the page, the document's e-invoice XML, or corrected by the reviewer. */
export type ValueSource = 'page' | 'xml' | 'corrected';

/** The review status as the invoices export writes it: approval with exceptions is a status of its own. */
export type InvoiceStatus = 'unreviewed' | 'in-review' | 'approved' | 'approved-with-exceptions' | 'rejected';

export interface ReviewedInvoice {
  documentId: string;
  /** The imported file's name. */
  fileName: string;
  fields: EngineFieldValues;
  /** UNTDID 1001 type (documentType.ts): the XML's BT-3, else a credit note where the total is negative, else 380. */
  documentType: DocumentType;
  payment: PaymentValues;
  /** What the document's e-invoice XML states beyond the fields (line units and VAT categories, allowances); null without XML. */
  xmlDetails: XmlInvoiceDetails | null;
  /** Countries of seller (BT-40) and buyer (BT-55) where the XML states them; null otherwise. */
  sellerCountry: string | null;
  buyerCountry: string | null;
  status: InvoiceStatus;
  /** The exceptions the reviewer approved over, and why; empty unless approved with exceptions. */
  exceptions: string[];
  exceptionReason: string | null;
  reviewer: string | null;
  reviewedAt: string | null;
  /** Source of each field that has a value, by field key (`total`, `iban`, `lines`). */
  sources: Record<string, ValueSource>;
  /** Three-way matching's outcome (docs/po-matching.md); absent or null where the project holds no purchase orders. */
  poMatch?: PoMatchColumns | null;
}

/** What the export writes of an invoice's match: the PO, the status, and per invoice line its PO line's figures. */
export interface PoMatchColumns {
  matchedPo: string | null;
  status: 'matched' | 'within tolerance' | 'exception' | 'exception approved' | 'no PO';
  /** By invoice line, in order. */
  lines: { poNumber: string | null; poLine: number | null; orderedQuantity: number | null; receivedQuantity: number | null; orderedUnitPrice: number | null }[];
}

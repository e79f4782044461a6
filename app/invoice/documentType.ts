/**
 * A document's type as the rules and the export see it: an invoice (the default) or a till receipt. The page decides
 * it (receiptReading.ts: what only a sale at a till prints); the analyst can change it with a correction of the
 * `document_type` path ('invoice' or 'receipt'). A receipt owes its merchant (the seller field), date and total, and
 * its tax where printed — not EN 16931's invoice number (BR-02), currency code (BR-05) or buyer (BR-07), which only
 * an invoice must print; every arithmetic rule applies to both.
 */
export const documentTypes = ['invoice', 'receipt'] as const;
export type DocumentType = (typeof documentTypes)[number];

/** The correction path that changes a document's type. */
export const DOCUMENT_TYPE_PATH = 'document_type';

export const isDocumentType = (value: unknown): value is DocumentType => typeof value === 'string' && (documentTypes as readonly string[]).includes(value);

/** Required-field rules that hold for invoices only: a receipt prints no invoice number, currency code or buyer. */
export const invoiceOnlyRules: ReadonlySet<string> = new Set(['BR-02', 'BR-05', 'BR-07']);

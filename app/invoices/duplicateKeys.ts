/**
 * What makes two invoices the same invoice, as keys an index can look up:
 *   - the same supplier and invoice number (the number as printed, without the spaces, dashes, slashes and dots
 *     layouts put into it);
 *   - the same supplier and total, issued within DUPLICATE_DATE_WINDOW_DAYS of each other (a re-keyed or re-scanned
 *     copy whose number was misread);
 *   - the same file bytes (the project keeps documents by SHA-256, so this one is answered at import).
 * The supplier is its VAT identifier where one was read, and its name without legal form, accents and punctuation
 * otherwise ("ACME GmbH & Co. KG" = "Acme"); both keys are kept so either matches.
 * A credit note or corrected invoice that names the invoice it corrects is linked to it, never called its duplicate.
 */
import { documentTypeOf } from './documentType.js';
import { compactId, vatIdProblem } from '../invoice/identifiers.js';

/** Two invoices of one supplier with the same total this many days apart or closer look like one invoice twice. */
export const DUPLICATE_DATE_WINDOW_DAYS = 3;

/** Legal-form words that differ between two printings of one supplier's name. */
const LEGAL_FORMS = new Set([
  'gmbh', 'mbh', 'ag', 'kg', 'ohg', 'ug', 'ev', 'co', 'kgaa', 'se', 'sa', 'sas', 'sarl', 'eurl', 'snc', 'bv', 'nv', 'vof',
  'ltd', 'limited', 'plc', 'llc', 'llp', 'inc', 'corp', 'corporation', 'company', 'spa', 'srl', 'sl', 'oy', 'ab', 'as', 'aps',
]);

export function supplierNameKey(name: string | null): string | null {
  if (!name) return null;
  const words = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' ')
    // Dots join abbreviations (S.A., B.V.) rather than separate words.
    .replace(/\./g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .split(' ')
    .filter((w) => w && !LEGAL_FORMS.has(w));
  return words.length ? words.join(' ') : null;
}

export function supplierVatKey(vatId: string | null): string | null {
  return vatId && vatIdProblem(vatId) === null ? compactId(vatId) : null;
}

export function invoiceNumberKey(number: string | null): string | null {
  const key = number?.toUpperCase().replace(/[\s\-/.#_]/g, '');
  return key ? key : null;
}

/** An amount in cents (integer), so equality is exact. */
export const amountKey = (amount: number | null): number | null => (amount === null || !Number.isFinite(amount) ? null : Math.round(amount * 100));

/** An ISO date as a day number, so a window is a range. */
export function dayKey(isoDate: string | null): number | null {
  if (!isoDate || !/^\d{4}-\d{2}-\d{2}$/.test(isoDate)) return null;
  const ms = Date.parse(`${isoDate}T00:00:00Z`);
  return Number.isNaN(ms) ? null : Math.floor(ms / 86_400_000);
}

export interface InvoiceKeyInput {
  seller: string | null;
  sellerVatId: string | null;
  invoiceNumber: string | null;
  total: number | null;
  issueDate: string | null;
  /** UNTDID 1001 type code where an e-invoice states it (381 credit note, 384 corrected invoice). */
  typeCode: string | null;
  /** The invoice a credit note or correction names (BT-25), where stated. */
  precedingInvoice: string | null;
}

export interface InvoiceKeys {
  supplierName: string | null;
  supplierVat: string | null;
  number: string | null;
  totalCents: number | null;
  issueDay: number | null;
  /** A credit note or correction: never a duplicate of an invoice, linked to the one it names. */
  corrective: boolean;
  references: string | null;
}

export function invoiceKeys(input: InvoiceKeyInput): InvoiceKeys {
  // A stated code decides; a negative total makes any document a credit (documentType.ts).
  const corrective = documentTypeOf({ statedCode: input.typeCode, total: input.total }).corrective || (input.total !== null && input.total < 0);
  return {
    supplierName: supplierNameKey(input.seller),
    supplierVat: supplierVatKey(input.sellerVatId),
    number: invoiceNumberKey(input.invoiceNumber),
    totalCents: amountKey(input.total === null ? null : Math.abs(input.total)),
    issueDay: dayKey(input.issueDate),
    corrective,
    references: corrective ? invoiceNumberKey(input.precedingInvoice) : null,
  };
}

export type DuplicateKind = 'same-number' | 'same-total-and-date' | 'same-file';

export interface InvoiceMatch {
  kind: DuplicateKind | 'corrects';
  documentId: string;
  documentName: string;
}

/** The needs-attention detail of a match ("same supplier and invoice number as acme-17.pdf"). */
export function describeMatch(match: InvoiceMatch): string {
  const what = {
    'same-number': 'same supplier and invoice number as',
    'same-total-and-date': `same supplier and total, issued within ${DUPLICATE_DATE_WINDOW_DAYS} days of`,
    'same-file': 'same file as',
    corrects: 'corrects',
  }[match.kind];
  return `${what} ${match.documentName} [${match.documentId}]`;
}

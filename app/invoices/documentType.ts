/**
 * What kind of commercial document an invoice is, as UNTDID 1001 codes it (EN 16931 BT-3): the one place that decides
 * it, for the invoices export's `document_type` column, the duplicate keys (a credit note is never an invoice's
 * duplicate) and whatever else tells a credit note from an invoice. Its inputs are the evidence in order of authority:
 * a type code the document states (its e-invoice XML; a reviewer's or a classifier's decision can feed the same
 * input), else the sign of the total (a negative total is a credit), else a commercial invoice.
 */

/** UNTDID 1001 names of the codes EN 16931 invoices use (the BR-CL-01 subset that appears on invoices). */
export const UNTDID_1001_NAMES: Readonly<Record<string, string>> = {
  '71': 'Request for payment',
  '80': 'Debit note related to goods or services',
  '81': 'Credit note related to goods or services',
  '82': 'Metered services invoice',
  '83': 'Credit note related to financial adjustments',
  '84': 'Debit note related to financial adjustments',
  '102': 'Tax notification',
  '218': 'Final payment request based on completion of work',
  '219': 'Payment request for completed units',
  '261': 'Self billed credit note',
  '262': 'Consolidated credit note - goods and services',
  '295': 'Price variation invoice',
  '296': 'Credit note for price variation',
  '308': 'Delcredere credit note',
  '325': 'Proforma invoice',
  '326': 'Partial invoice',
  '380': 'Commercial invoice',
  '381': 'Credit note',
  '383': 'Debit note',
  '384': 'Corrected invoice',
  '385': 'Consolidated invoice',
  '386': 'Prepayment invoice',
  '387': 'Hire invoice',
  '388': 'Tax invoice',
  '389': 'Self-billed invoice',
  '390': 'Delcredere invoice',
  '393': 'Factored invoice',
  '394': 'Lease invoice',
  '395': 'Consignment invoice',
  '396': 'Factored credit note',
  '420': 'Optical Character Reading (OCR) payment credit note',
  '456': 'Debit advice',
  '457': 'Reversal of debit',
  '458': 'Reversal of credit',
  '527': 'Self billed debit note',
  '532': 'Forwarder\'s credit note',
  '575': 'Insurer\'s invoice',
  '623': 'Forwarder\'s invoice',
  '633': 'Port charges documents',
  '751': 'Invoice information for accounting purposes',
  '780': 'Freight invoice',
  '875': 'Partial construction invoice',
  '876': 'Partial final construction invoice',
  '877': 'Final construction invoice',
  '935': 'Customs invoice',
};

/** Codes of documents that credit or correct another (credit notes, corrected invoices, reversals of a debit). */
const CORRECTIVE_CODES = new Set(['81', '83', '261', '262', '296', '308', '381', '384', '396', '420', '457', '458', '532']);

/**
 * Codes of credit notes: what EN 16931's UBL binding writes as a `CreditNote` (BR-CL-01's CreditNoteTypeCode list),
 * whose amounts are positive — the type code, not a sign, says the money flows back.
 */
export const CREDIT_NOTE_CODES: ReadonlySet<string> = new Set(['81', '83', '261', '262', '296', '308', '381', '396', '420', '458', '502', '503', '532']);
export const isCreditNote = (code: string): boolean => CREDIT_NOTE_CODES.has(code);

export const COMMERCIAL_INVOICE = '380';
export const CREDIT_NOTE = '381';

export interface DocumentType {
  /** UNTDID 1001 code. */
  code: string;
  /** Its UNTDID 1001 name ("Credit note"); the code itself for a code outside the list. */
  name: string;
  /** A credit note or correction: it credits or corrects another invoice. */
  corrective: boolean;
  /** What decided it: a code the document (or a decision about it) states, a negative total, or nothing (an invoice). */
  decidedBy: 'stated' | 'negative-total' | 'receipt' | 'default';
}

export interface DocumentTypeEvidence {
  /** A UNTDID 1001 code stated by the document's XML or decided about the document; null where none is. */
  statedCode: string | null;
  total: number | null;
  /** The page's (or the analyst's) kind of document (app/invoice/documentType.ts); a till receipt has no UNTDID code. */
  kind?: 'invoice' | 'receipt';
}

const typeOf = (code: string, decidedBy: DocumentType['decidedBy']): DocumentType => ({ code, name: UNTDID_1001_NAMES[code] ?? code, corrective: CORRECTIVE_CODES.has(code), decidedBy });

/** A till receipt: not an EN 16931 invoice, so outside UNTDID 1001; the export says `receipt`. */
export const RECEIPT = 'receipt';

export function documentTypeOf(evidence: DocumentTypeEvidence): DocumentType {
  const stated = evidence.statedCode?.trim();
  if (stated && /^\d{1,3}$/.test(stated)) return typeOf(stated, 'stated');
  if (evidence.kind === 'receipt') return { code: RECEIPT, name: 'Receipt', corrective: false, decidedBy: 'receipt' };
  if (evidence.total !== null && evidence.total < 0) return typeOf(CREDIT_NOTE, 'negative-total');
  return typeOf(COMMERCIAL_INVOICE, 'default');
}

/** The `document_type` cell: `381 Credit note`. */
export const documentTypeText = (type: DocumentType): string => (type.code === RECEIPT ? RECEIPT : `${type.code} ${type.name}`);

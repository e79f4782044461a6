/**
 * The company's master data as matching sees it: purchase orders with their lines, the quantities received against
 * each line (goods receipts summed), and the vendor master's bank accounts. Plain values: the store reads them from
 * the project file (main/store/masterData.ts), the importer checks them (main/masterData/), the matcher only reads.
 */

export interface PoLine {
  poNumber: string;
  /** The line number the PO gives it (PO.csv `line`). */
  line: number;
  description: string;
  itemId: string | null;
  quantity: number;
  unit: string | null;
  unitPrice: number;
}

export interface PurchaseOrder {
  poNumber: string;
  supplierName: string;
  supplierVatId: string | null;
  currency: string;
  orderDate: string | null;
  lines: PoLine[];
}

/** A PO as the matcher weighs it: what was received (null where no goods receipt was imported for it) and invoiced. */
export interface PoCandidate {
  po: PurchaseOrder;
  /** Quantity received per PO line number; null where no goods receipt names this PO (receipts are not checked). */
  received: ReadonlyMap<number, number> | null;
  /** Quantity already billed per PO line number by the project's other invoices (a partially invoiced PO). */
  invoicedElsewhere: ReadonlyMap<number, number>;
}

/** One bank account of the vendor master (SUP.csv). */
export interface SupplierAccount {
  supplierName: string;
  vatId: string | null;
  iban: string;
}

/** The key a supplier is found by: its VAT ID without spaces and punctuation, upper case. */
export const vatKey = (vat: string | null | undefined): string | null => {
  const key = (vat ?? '').toUpperCase().replace(/[^A-Z0-9]/g, '');
  return key.length >= 4 ? key : null;
};

/** Legal-form words say nothing about who the supplier is ("ACME GmbH" is "Acme"). */
const LEGAL_FORMS = new Set(['gmbh', 'ag', 'kg', 'ohg', 'ug', 'co', 'mbh', 'sa', 'sas', 'sarl', 'sarlu', 'eurl', 'ltd', 'limited', 'llc', 'inc', 'plc', 'bv', 'nv', 'srl', 'spa', 'ab', 'as', 'oy', 'corp', 'corporation', 'company', 'the', 'und', 'and', 'et']);

/** The key a supplier name is found by: lower-case letters and digits, accents and legal forms dropped. */
export function nameKey(name: string | null | undefined): string | null {
  const words = (name ?? '')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w && !LEGAL_FORMS.has(w));
  return words.length > 0 ? words.join(' ') : null;
}

/** An IBAN as compared: upper case, no spaces. */
export const ibanKey = (iban: string | null | undefined): string | null => {
  const key = (iban ?? '').toUpperCase().replace(/[^A-Z0-9]/g, '');
  return key.length >= 8 ? key : null;
};

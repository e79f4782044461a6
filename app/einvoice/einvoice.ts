/**
 * An e-invoice as its XML states it, in one shape for both syntaxes (CII and UBL): the header fields with the element
 * path each came from, the parties with their addresses, the lines, the tax breakdown and notes. cii.ts and ubl.ts
 * fill it; einvoiceReading.ts turns it into the review screen's field shape; readablePage.ts lays it out as a page.
 */
import type { EInvoiceInfo, Party } from '../invoice/fieldShape.js';

/** A value with the XML element it was read from and the text as written there. */
export interface XmlSourced<T> {
  value: T;
  text: string;
  xmlPath: string;
}

export interface EInvoiceLine {
  id: string | null;
  description: string;
  quantity: number | null;
  unitCode: string | null;
  unit_price: number | null;
  amount: number | null;
  /** VAT rate in percent where the line states it (BT-152). */
  taxRate: number | null;
  /** UNCL 5305 VAT category code where the line states it (BT-151: S, Z, E, AE, K, G, O, L, M). */
  taxCategory: string | null;
}

export interface EInvoiceTax {
  category: string | null;
  rate: number | null;
  basis: number | null;
  amount: number | null;
}

/**
 * The monetary summation's other amounts (EN 16931 BG-22): sum of line net amounts (BT-106), document-level
 * allowances (BT-107) and charges (BT-108), paid amount (BT-113), rounding amount (BT-114).
 */
export interface EInvoiceAdjustments {
  line_total: number | null;
  allowances: number | null;
  charges: number | null;
  prepaid: number | null;
  rounding: number | null;
}

export interface EInvoice {
  info: EInvoiceInfo;
  fields: {
    invoice_number: XmlSourced<string> | null;
    issue_date: XmlSourced<string> | null;
    due_date: XmlSourced<string> | null;
    seller: XmlSourced<string> | null;
    buyer: XmlSourced<string> | null;
    currency: XmlSourced<string> | null;
    subtotal: XmlSourced<number> | null;
    tax: XmlSourced<number> | null;
    total: XmlSourced<number> | null;
    /** What remains to pay after prepayments (BT-115). */
    amount_due: XmlSourced<number> | null;
  };
  seller: Party;
  buyer: Party;
  lines: EInvoiceLine[];
  taxes: EInvoiceTax[];
  /** Document-level amounts between the line total and the amount due (null where the XML leaves them out). */
  adjustments: EInvoiceAdjustments;
  notes: string[];
  /** Payment terms / means as written (free text, IBAN). */
  payment: string[];
}

/** The common name of a guideline / customization identifier (EN 16931 business process specifications). */
export function profileName(profileId: string | null): string | null {
  if (!profileId) return null;
  const id = profileId.toLowerCase();
  if (id.includes('xrechnung')) return 'XRechnung';
  if (id.includes('peppol')) return 'Peppol BIS Billing';
  if (id.startsWith('urn:ferd:')) {
    const level = /:(basic|comfort|extended)$/.exec(id)?.[1];
    return level ? `ZUGFeRD 1.0 ${level.toUpperCase()}` : 'ZUGFeRD 1.0';
  }
  if (id.includes('basicwl')) return 'BASIC WL';
  if (id.includes('minimum')) return 'MINIMUM';
  if (id.includes('extended')) return 'EXTENDED';
  if (id.includes(':basic')) return 'BASIC';
  if (id.includes('en16931')) return 'EN 16931';
  return null;
}

/** `YYYYMMDD` (CII format 102) or `YYYY-MM-DD` (UBL) → ISO date; null for other formats (610 = month, 616 = week). */
export function isoDate(text: string | null, format: string | null = '102'): string | null {
  if (!text) return null;
  const iso = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  if (iso) return `${iso[1]}-${iso[2]}-${iso[3]}`;
  const compact = /^(\d{4})(\d{2})(\d{2})$/.exec(text);
  if (compact && (format === null || format === '102')) return `${compact[1]}-${compact[2]}-${compact[3]}`;
  return null;
}

export function sourced<T>(value: T | null, text: string | null, xmlPath: string): XmlSourced<T> | null {
  return value === null || value === undefined ? null : { value, text: text ?? String(value), xmlPath };
}

/**
 * What an e-invoice XML states beyond the reviewed fields, for an e-invoice generated from its values (another syntax
 * or CIUS, or a corrected invoice): each line's unit (BT-130) and VAT category and rate (BT-151, BT-152), each VAT
 * breakdown row's category and exemption reason (BT-118, BT-120, BT-121), and the document-level allowances and
 * charges (BG-20, BG-21), each line's allowances and charges (BG-27, BG-28), the rounding amount (BT-114), and the
 * delivery terms: actual delivery date (BT-72), invoicing period (BG-14) and deliver-to address with its country
 * (BG-15, BT-80) — which an intra-community supply must state (BR-IC-11, BR-IC-12). The reviewed fields carry the numbers; these say what the numbers are, as the issuer
 * declared it — so nothing the page cannot tell (a 0 % row's category) is guessed. Read through the EN 16931 engine's
 * semantic model (one reader for UBL, CII and ZUGFeRD 1.0's CII); a ZUGFeRD 1.0 document's tax codes are given their
 * EN 16931 meaning by its code lists (../../en16931/zugferd1/zugferd1Categories.ts), and a tax that is not VAT (an
 * insurance tax) is kept apart (`otherTaxes`). Also the seller's tax registration (BT-32).
 */
import { readSemanticInvoice, type SemanticInvoice } from '../../en16931/index.js';
import type { TaxCategory } from '../../en16931/model/semanticInvoice.js';
import { zugferd1Tax } from '../../en16931/zugferd1/zugferd1Categories.js';

/** A line-level allowance (BG-27) or charge (BG-28): already inside the line's net amount (BT-131). */
export interface XmlLineAllowanceCharge {
  charge: boolean;
  amount: number;
  reason: string | null;
  reasonCode: string | null;
}

export interface XmlLineDetail {
  unitCode: string | null;
  category: string | null;
  rate: string | null;
  allowanceCharges: XmlLineAllowanceCharge[];
}

/** BG-13's terms Recto carries over: BT-72, BG-14 (BT-73, BT-74) and the deliver-to address (BG-15 with BT-80). */
export interface XmlDelivery {
  /** ISO 8601 dates. */
  date: string | null;
  period: { start: string | null; end: string | null } | null;
  address: { line1: string | null; city: string | null; postCode: string | null; country: string } | null;
}

export interface XmlVatDetail {
  category: string;
  rate: string | null;
  base: number | null;
  amount: number | null;
  exemptionReason: string | null;
  exemptionReasonCode: string | null;
}

export interface XmlAllowanceCharge {
  charge: boolean;
  amount: number;
  reason: string | null;
  reasonCode: string | null;
  category: string;
  rate: string | null;
}

export interface XmlInvoiceDetails {
  lines: XmlLineDetail[];
  vat: XmlVatDetail[];
  allowanceCharges: XmlAllowanceCharge[];
  /** BT-114, where the XML states a non-zero one. */
  rounding: number | null;
  delivery: XmlDelivery;
  /**
   * The type codes of the taxes the XML states that are not VAT (ZUGFeRD 1.0's ZF_INSURANCE_TAX, AAJ): EN 16931
   * represents VAT only, so an invoice taxed so cannot be written as one (its rows are not in `vat`).
   */
  otherTaxes: string[];
  /** BT-32: the seller's tax registration that is not a VAT identifier (CII schemeID FC, UBL a TaxScheme other than VAT). */
  sellerTaxRegistration: string | null;
}

const text = (term: { text: string } | undefined): string | null => term?.text.trim() || null;
const number = (term: { text: string } | undefined): number | null => {
  const value = Number(text(term));
  return text(term) !== null && Number.isFinite(value) ? value : null;
};
/** A tax category of the VAT scheme (the rules consider VAT only; UBL TaxScheme VAT, CII TypeCode VAT or absent). */
const vatCategory = (categories: readonly TaxCategory[]): TaxCategory | undefined =>
  categories.find((c) => !c.scheme || c.scheme.text.trim() === 'VAT') ?? categories[0];

/** A tax registration's scheme that makes it a VAT identifier (BT-31): UBL TaxScheme VAT, CII schemeID VA. */
const VAT_SCHEMES = new Set(['VAT', 'VA']);

interface VatOf {
  category: string | null;
  rate: string | null;
  exemptionReason: string | null;
  exemptionReasonCode: string | null;
  /** The type of a tax that is not VAT, where that is all the element states. */
  otherTax: string | null;
}

/**
 * A line's, row's or allowance's VAT category as EN 16931 codes it: as written, or for ZUGFeRD 1.0 through its code
 * lists (../../en16931/zugferd1/zugferd1Categories.ts: IC is K, a positive VAT rate without a category is S, an
 * insurance tax is no VAT). `header`: the document's breakdown rows (a 1.0 line's tax without a type is theirs).
 */
function vatOf(invoice: SemanticInvoice, categories: readonly TaxCategory[], header: readonly TaxCategory[]): VatOf {
  if (!invoice.zugferd1) {
    const c = vatCategory(categories);
    return { category: text(c?.code), rate: text(c?.rate), exemptionReason: text(c?.exemptionReason), exemptionReasonCode: text(c?.exemptionReasonCode), otherTax: null };
  }
  const read = categories.map((c) => zugferd1Tax(c, header));
  const vat = read.find((r) => r.vat);
  if (vat?.vat) return { category: vat.category, rate: vat.rate, exemptionReason: vat.exemptionReason, exemptionReasonCode: vat.exemptionReasonCode, otherTax: null };
  const other = read.find((r) => !r.vat);
  return { category: null, rate: null, exemptionReason: null, exemptionReasonCode: null, otherTax: other && !other.vat ? other.taxType : null };
}

/** A date as ISO 8601: UBL writes it so, CII as UNTDID 2379 format 102 (CCYYMMDD); null for anything else. */
function isoDate(term: { text: string } | undefined): string | null {
  const value = text(term);
  if (!value) return null;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return value;
  const compact = /^(\d{4})(\d{2})(\d{2})$/.exec(value);
  return compact ? `${compact[1]}-${compact[2]}-${compact[3]}` : null;
}

function deliveryOf(invoice: SemanticInvoice): XmlDelivery {
  const delivery = invoice.delivery[0];
  const period = invoice.periods.find((p) => p.start || p.end);
  const address = delivery?.address;
  const country = text(address?.country);
  return {
    date: isoDate(delivery?.date),
    period: period ? { start: isoDate(period.start), end: isoDate(period.end) } : null,
    address: country ? { line1: text(address?.line1), city: text(address?.city), postCode: text(address?.postCode), country } : null,
  };
}

export function xmlInvoiceDetails(invoice: SemanticInvoice): XmlInvoiceDetails {
  const breakdown = invoice.taxTotals.find((t) => t.subtotals.length > 0)?.subtotals ?? [];
  const header = breakdown.flatMap((row) => row.categories);
  const otherTaxes = new Set<string>();
  const noteOther = (of: VatOf): VatOf => {
    if (of.otherTax) otherTaxes.add(of.otherTax);
    return of;
  };
  // As the e-invoice reader (../../einvoice/cii.ts): a line item with neither name, quantity nor amount is a text line.
  const items = invoice.lines.filter((line) => text(line.itemName) !== null || text(line.quantity) !== null || line.netAmount.length > 0);
  const lines = items.map((line) => {
    const category = noteOther(vatOf(invoice, line.taxCategories, header));
    const allowanceCharges = line.allowances.flatMap((ac) => {
      const amount = number(ac.amounts[0]);
      return amount === null ? [] : [{ charge: ac.charge, amount, reason: text(ac.reasons[0]), reasonCode: text(ac.reasonCodes[0]) }];
    });
    return { unitCode: line.quantity?.attrs.unitCode?.trim() || null, category: category.category, rate: category.rate, allowanceCharges };
  });
  const vat = breakdown.flatMap((row) => {
    const category = noteOther(vatOf(invoice, row.categories, header));
    if (!category.category) return [];
    return [{ category: category.category, rate: category.rate, base: number(row.taxableAmount), amount: number(row.taxAmount), exemptionReason: category.exemptionReason, exemptionReasonCode: category.exemptionReasonCode }];
  });
  const allowanceCharges = invoice.allowanceCharges.flatMap((ac) => {
    const category = noteOther(vatOf(invoice, ac.taxCategories, header));
    const amount = number(ac.amounts[0]);
    if (amount === null || !category.category) return [];
    return [{ charge: ac.charge, amount, reason: text(ac.reasons[0]), reasonCode: text(ac.reasonCodes[0]), category: category.category, rate: category.rate }];
  });
  const rounding = number(invoice.totals[0]?.rounding[0]);
  const registration = invoice.seller.taxIds.find((t) => text(t.id) && text(t.scheme) !== null && !VAT_SCHEMES.has(text(t.scheme)!));
  return { lines, vat, allowanceCharges, rounding: rounding === 0 ? null : rounding, delivery: deliveryOf(invoice), otherTaxes: [...otherTaxes], sellerTaxRegistration: text(registration?.id) };
}

/** The details of an XML's text; null where the engine cannot read it (the import said why). */
export function xmlInvoiceDetailsOfText(xml: string): XmlInvoiceDetails | null {
  try {
    return xmlInvoiceDetails(readSemanticInvoice(xml));
  } catch {
    return null;
  }
}

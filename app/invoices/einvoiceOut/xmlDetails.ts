/**
 * What an e-invoice XML states beyond the reviewed fields, for an e-invoice generated from its values (another syntax
 * or CIUS, or a corrected invoice): each line's unit (BT-130) and VAT category and rate (BT-151, BT-152), each VAT
 * breakdown row's category and exemption reason (BT-118, BT-120, BT-121), and the document-level allowances and
 * charges (BG-20, BG-21), each line's allowances and charges (BG-27, BG-28), the rounding amount (BT-114), and the
 * delivery terms: actual delivery date (BT-72), invoicing period (BG-14) and deliver-to address with its country
 * (BG-15, BT-80) — which an intra-community supply must state (BR-IC-11, BR-IC-12). The reviewed fields carry the numbers; these say what the numbers are, as the issuer
 * declared it — so nothing the page cannot tell (a 0 % row's category) is guessed. Read through the EN 16931 engine's
 * semantic model (one reader for UBL, CII and ZUGFeRD 1.0's CII).
 */
import { readSemanticInvoice, type SemanticInvoice } from '../../en16931/index.js';
import type { TaxCategory } from '../../en16931/model/semanticInvoice.js';

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
}

const text = (term: { text: string } | undefined): string | null => term?.text.trim() || null;
const number = (term: { text: string } | undefined): number | null => {
  const value = Number(text(term));
  return text(term) !== null && Number.isFinite(value) ? value : null;
};
/** A tax category of the VAT scheme (the rules consider VAT only; UBL TaxScheme VAT, CII TypeCode VAT or absent). */
const vatCategory = (categories: readonly TaxCategory[]): TaxCategory | undefined =>
  categories.find((c) => !c.scheme || c.scheme.text.trim() === 'VAT') ?? categories[0];

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
  // As the e-invoice reader (../../einvoice/cii.ts): a line item with neither name, quantity nor amount is a text line.
  const items = invoice.lines.filter((line) => text(line.itemName) !== null || text(line.quantity) !== null || line.netAmount.length > 0);
  const lines = items.map((line) => {
    const category = vatCategory(line.taxCategories);
    const allowanceCharges = line.allowances.flatMap((ac) => {
      const amount = number(ac.amounts[0]);
      return amount === null ? [] : [{ charge: ac.charge, amount, reason: text(ac.reasons[0]), reasonCode: text(ac.reasonCodes[0]) }];
    });
    return { unitCode: line.quantity?.attrs.unitCode?.trim() || null, category: text(category?.code), rate: text(category?.rate), allowanceCharges };
  });
  const vat = (invoice.taxTotals.find((t) => t.subtotals.length > 0)?.subtotals ?? []).flatMap((row) => {
    const category = vatCategory(row.categories);
    const code = text(category?.code);
    if (!code) return [];
    return [{ category: code, rate: text(category?.rate), base: number(row.taxableAmount), amount: number(row.taxAmount), exemptionReason: text(category?.exemptionReason), exemptionReasonCode: text(category?.exemptionReasonCode) }];
  });
  const allowanceCharges = invoice.allowanceCharges.flatMap((ac) => {
    const category = vatCategory(ac.taxCategories);
    const amount = number(ac.amounts[0]);
    const code = text(category?.code);
    if (amount === null || !code) return [];
    return [{ charge: ac.charge, amount, reason: text(ac.reasons[0]), reasonCode: text(ac.reasonCodes[0]), category: code, rate: text(category?.rate) }];
  });
  const rounding = number(invoice.totals[0]?.rounding[0]);
  return { lines, vat, allowanceCharges, rounding: rounding === 0 ? null : rounding, delivery: deliveryOf(invoice) };
}

/** The details of an XML's text; null where the engine cannot read it (the import said why). */
export function xmlInvoiceDetailsOfText(xml: string): XmlInvoiceDetails | null {
  try {
    return xmlInvoiceDetails(readSemanticInvoice(xml));
  } catch {
    return null;
  }
}

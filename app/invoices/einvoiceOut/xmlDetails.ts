/**
 * What an e-invoice XML states beyond the reviewed fields, for an e-invoice generated from its values (another syntax
 * or CIUS, or a corrected invoice): each line's unit (BT-130) and VAT category and rate (BT-151, BT-152), each VAT
 * breakdown row's category and exemption reason (BT-118, BT-120, BT-121), and the document-level allowances and
 * charges (BG-20, BG-21). The reviewed fields carry the numbers; these say what the numbers are, as the issuer
 * declared it — so nothing the page cannot tell (a 0 % row's category) is guessed. Read through the EN 16931 engine's
 * semantic model (one reader for UBL, CII and ZUGFeRD 1.0's CII).
 */
import { readSemanticInvoice, type SemanticInvoice } from '../../en16931/index.js';
import type { TaxCategory } from '../../en16931/model/semanticInvoice.js';

export interface XmlLineDetail {
  unitCode: string | null;
  category: string | null;
  rate: string | null;
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
}

const text = (term: { text: string } | undefined): string | null => term?.text.trim() || null;
const number = (term: { text: string } | undefined): number | null => {
  const value = Number(text(term));
  return text(term) !== null && Number.isFinite(value) ? value : null;
};
/** A tax category of the VAT scheme (the rules consider VAT only; UBL TaxScheme VAT, CII TypeCode VAT or absent). */
const vatCategory = (categories: readonly TaxCategory[]): TaxCategory | undefined =>
  categories.find((c) => !c.scheme || c.scheme.text.trim() === 'VAT') ?? categories[0];

export function xmlInvoiceDetails(invoice: SemanticInvoice): XmlInvoiceDetails {
  const lines = invoice.lines.map((line) => {
    const category = vatCategory(line.taxCategories);
    return { unitCode: line.quantity?.attrs.unitCode?.trim() || null, category: text(category?.code), rate: text(category?.rate) };
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
  return { lines, vat, allowanceCharges };
}

/** The details of an XML's text; null where the engine cannot read it (the import said why). */
export function xmlInvoiceDetailsOfText(xml: string): XmlInvoiceDetails | null {
  try {
    return xmlInvoiceDetails(readSemanticInvoice(xml));
  } catch {
    return null;
  }
}

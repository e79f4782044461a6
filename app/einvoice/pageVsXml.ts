/**
 * Page vs XML: where a document carries its own e-invoice, does the printed page say the same? Every key field and
 * every line amount is compared — numbers by value (a cent apart is equal), dates as dates, identifiers without
 * spacing or case, names loosely (case, punctuation, legal form and line breaks aside, or one name the other's
 * leading or trailing words) — and each disagreement is listed with both texts: "total: page 1.589,80 — XML 119.00".
 *
 * Only values both sides state are compared: a field the page reading did not find is a gap of the reading, not a
 * mismatch of the invoice (the review screen shows the XML's value there anyway).
 */
import { invoiceFieldKeys, type FieldDisagreement, type InvoiceFieldKey } from '../invoice/fieldShape.js';
import type { PlainInvoiceFields } from '../invoice/extractFields.js';
import type { EInvoice } from './einvoice.js';

/** Money agrees within half a cent (XML states 2 decimals or more; the page prints them rounded). */
const MONEY_TOLERANCE = 0.005;

/** What the page reading read, with the text each value was printed as where known (for the message). */
export interface PageValues {
  fields: PlainInvoiceFields;
  printed?: Partial<Record<InvoiceFieldKey, string>>;
}

const legalForms = /(?<![\p{L}])(?:inc|ltd|limited|llc|gmbh|ag|kg|co|b\s?v|n\s?v|s\s?a|sas|sarl|s\s?r\s?l|s\s?p\s?a|plc|corp|e\s?k|a\s?g|e\s?v)(?![\p{L}])/giu;

export function normaliseName(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^\p{L}\d]+/gu, ' ')
    .replace(legalForms, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Names agree loosely: equal after normalising, equal but for spaces (a text layer breaks a word: "Taxiunter nehmen"),
 * or one is the other's leading or trailing words.
 */
export function namesAgree(a: string, b: string): boolean {
  const x = normaliseName(a);
  const y = normaliseName(b);
  if (!x || !y) return x === y;
  if (x === y || x.replace(/ /g, '') === y.replace(/ /g, '')) return true;
  const [short, long] = x.length <= y.length ? [x, y] : [y, x];
  return long.startsWith(`${short} `) || long.endsWith(` ${short}`);
}

const compactId = (id: string): string => id.replace(/[\s]+/g, '').toLowerCase();

function sameValue(key: InvoiceFieldKey, page: string | number, xml: string | number): boolean {
  switch (key) {
    case 'subtotal':
    case 'tax':
    case 'total':
      return Math.abs(Number(page) - Number(xml)) < MONEY_TOLERANCE;
    case 'invoice_number':
      return compactId(String(page)) === compactId(String(xml));
    case 'seller':
    case 'buyer':
      return namesAgree(String(page), String(xml));
    default:
      // Dates are ISO on both sides (parsed from the page's own format), currencies ISO 4217 codes.
      return String(page).toUpperCase() === String(xml).toUpperCase();
  }
}

export function comparePageWithXml(page: PageValues, xml: EInvoice): FieldDisagreement[] {
  const disagreements: FieldDisagreement[] = [];
  for (const key of invoiceFieldKeys) {
    const pageValue = page.fields[key];
    const xmlField = xml.fields[key];
    if (pageValue === null || !xmlField) continue;
    if (sameValue(key, pageValue, xmlField.value)) continue;
    disagreements.push({ field: key, page: page.printed?.[key] ?? String(pageValue), xml: xmlField.text });
  }
  // Line amounts: each XML line's amount must be among the page's (each page line matched once), where the page
  // reading found items at all.
  const pageAmounts = page.fields.lines.map((l) => l.amount);
  if (pageAmounts.some((a) => a !== null)) {
    xml.lines.forEach((line, i) => {
      if (line.amount === null) return;
      const at = pageAmounts.findIndex((a) => a !== null && Math.abs(a - line.amount!) < MONEY_TOLERANCE);
      if (at >= 0) pageAmounts[at] = null;
      else disagreements.push({ field: `lines[${i}].amount`, page: null, xml: `${line.description}: ${line.amount}` });
    });
  }
  return disagreements;
}

/** One line per disagreement, as check results and the review screen show them. */
export function describeDisagreement(d: FieldDisagreement): string {
  return `${d.field}: page ${d.page ?? '—'} — XML ${d.xml ?? '—'}`;
}

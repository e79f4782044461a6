/**
 * A document's payment fields from their three sources — the reviewer's correction (`payment.<key>` field revisions),
 * the e-invoice XML (xmlPaymentFields.ts), the page's text (paymentFieldsFromText.ts); the value is the first of those
 * that has one (the XML is the invoice; the page fills what it does not state, and is compared with it) — with each field's check (../invoice/identifiers.ts: IBAN mod 97, VAT id format per country, BIC) and whether page
 * and XML disagree. Pure: the export, the fields panel and the needs-attention queue all derive from it.
 */
import { paymentFieldCatalogue, type PaymentFieldKey } from '../invoice/fieldCatalogue.js';
import { latestCorrections, parsePaymentPath, type FieldCorrection } from '../invoice/review/index.js';
import { paymentFieldsFromText } from './paymentFieldsFromText.js';
import { bicProblem, compactId, ibanProblem, vatIdProblem } from '../invoice/identifiers.js';
import { emptyPaymentValues, type PaymentValues, type ValueSource } from './reviewedInvoice.js';
import type { XmlPaymentFields } from './xmlPaymentFields.js';

export interface PaymentFieldView {
  key: PaymentFieldKey;
  label: string;
  bt: string;
  value: string | null;
  source: ValueSource | null;
  page: string | null;
  xml: string | null;
  /** Why the value fails its check (IBAN mod 97, VAT id format, BIC), null when it passes or has none. */
  problem: string | null;
  /** Page and XML both give a value and they differ (spaces and case aside). */
  disagrees: boolean;
}

export interface PaymentFieldViews {
  values: PaymentValues;
  sources: Partial<Record<PaymentFieldKey, ValueSource>>;
  fields: PaymentFieldView[];
}

const checks: Partial<Record<PaymentFieldKey, (text: string) => string | null>> = {
  iban: ibanProblem,
  bic: bicProblem,
  seller_vat_id: vatIdProblem,
  buyer_vat_id: vatIdProblem,
};

/** `text`: the document's pages (latest text of each); `corrections`: the document's field corrections in save order. */
export function paymentFieldViews(text: string, corrections: readonly FieldCorrection[], xml: XmlPaymentFields | null): PaymentFieldViews {
  const page = paymentFieldsFromText(text);
  const corrected = new Map<PaymentFieldKey, string | null>();
  for (const [path, value] of latestCorrections(corrections)) {
    const key = parsePaymentPath(path);
    if (key && !(typeof value === 'object' && value !== null)) corrected.set(key, typeof value === 'string' ? value : null);
  }
  const values = emptyPaymentValues();
  const sources: PaymentFieldViews['sources'] = {};
  const fields = paymentFieldCatalogue.map((entry): PaymentFieldView => {
    const { key } = entry;
    const fromXml = xml?.payment[key] ?? null;
    // The XML is the invoice where it states the term; the page's text fills only what the XML does not state.
    const value = corrected.has(key) ? corrected.get(key)! : (fromXml ?? page[key]);
    const source: ValueSource | null = value === null ? null : corrected.has(key) ? 'corrected' : fromXml !== null ? 'xml' : 'page';
    values[key] = value;
    if (source) sources[key] = source;
    const check = checks[key];
    return {
      key, label: entry.label, bt: entry.bt, value, source, page: page[key], xml: fromXml,
      problem: value !== null && check ? check(value) : null,
      disagrees: page[key] !== null && fromXml !== null && compactId(page[key]!) !== compactId(fromXml),
    };
  });
  return { values, sources, fields };
}

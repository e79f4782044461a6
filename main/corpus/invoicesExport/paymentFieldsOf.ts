/**
 * A document's payment fields from their three sources: the reviewer's correction (`payment.<key>` field revisions),
 * the page's text (paymentFieldsFromText.ts), the e-invoice XML (xmlPaymentFields.ts) — the value is the first of
 * those that has one — with each field's check (IBAN, VAT id, BIC) and whether page and XML disagree.
 */
import type { FieldRevision } from '../../../app/contract/fields.js';
import { readSemanticInvoice } from '../../../app/en16931/index.js';
import { paymentFieldCatalogue, type PaymentFieldKey } from '../../../app/invoice/fieldCatalogue.js';
import { latestCorrections, parsePaymentPath } from '../../../app/invoice/review/index.js';
import { paymentFieldsFromText } from '../../../app/invoices/paymentFieldsFromText.js';
import { bicProblem, compactId, ibanProblem, vatIdProblem } from '../../../app/invoices/paymentIds.js';
import { emptyPaymentValues, type PaymentValues, type ValueSource } from '../../../app/invoices/reviewedInvoice.js';
import { xmlPaymentFields, type XmlPaymentFields } from '../../../app/invoices/xmlPaymentFields.js';
import type { DocumentSummary } from '../../../app/model/page.js';
import { correctionsOf } from '../../store/fieldRevisions.js';
import type { ProjectStore } from '../../store/projectStore.js';

export interface PaymentFieldView {
  key: PaymentFieldKey;
  label: string;
  bt: string;
  value: string | null;
  source: ValueSource | null;
  page: string | null;
  xml: string | null;
  /** Why the value fails its check (IBAN mod 97, VAT id format), null when it passes or has none. */
  problem: string | null;
  /** Page and XML both give a value and they differ (spaces and case aside). */
  disagrees: boolean;
}

export interface DocumentPaymentFields {
  values: PaymentValues;
  sources: Partial<Record<PaymentFieldKey, ValueSource>>;
  fields: PaymentFieldView[];
  xml: XmlPaymentFields | null;
}

const checks: Partial<Record<PaymentFieldKey, (text: string) => string | null>> = {
  iban: ibanProblem,
  bic: bicProblem,
  seller_vat_id: vatIdProblem,
  buyer_vat_id: vatIdProblem,
};

export function xmlPaymentFieldsOf(store: ProjectStore, documentId: string): XmlPaymentFields | null {
  const stored = store.einvoices.get(documentId);
  if (stored?.status !== 'read') return null;
  try {
    return xmlPaymentFields(readSemanticInvoice(Buffer.from(stored.xml).toString('utf8')), stored.invoice.payment);
  } catch {
    return null;
  }
}

export function paymentFieldsOf(store: ProjectStore, doc: DocumentSummary, revisions: readonly FieldRevision[]): DocumentPaymentFields {
  const text = doc.pages.map((p) => store.revisions.latestRevision(p.id)?.text ?? store.readings.latestExtractionOrNull(p.id)?.markdown ?? '').join('\n\n');
  const page = paymentFieldsFromText(text);
  const xml = xmlPaymentFieldsOf(store, doc.id);
  const corrected = new Map<PaymentFieldKey, string | null>();
  for (const [path, value] of latestCorrections(correctionsOf(revisions))) {
    const key = parsePaymentPath(path);
    if (key && !(typeof value === 'object' && value !== null)) corrected.set(key, typeof value === 'string' ? value : null);
  }
  const values = emptyPaymentValues();
  const sources: DocumentPaymentFields['sources'] = {};
  const fields = paymentFieldCatalogue.map((entry): PaymentFieldView => {
    const { key } = entry;
    const fromXml = xml?.payment[key] ?? null;
    const value = corrected.has(key) ? corrected.get(key)! : (page[key] ?? fromXml);
    const source: ValueSource | null = value === null ? null : corrected.has(key) ? 'corrected' : page[key] !== null ? 'page' : 'xml';
    values[key] = value;
    if (source) sources[key] = source;
    const check = checks[key];
    return {
      key, label: entry.label, bt: entry.bt, value, source, page: page[key], xml: fromXml,
      problem: value !== null && check ? check(value) : null,
      disagrees: page[key] !== null && fromXml !== null && compactId(page[key]!) !== compactId(fromXml),
    };
  });
  return { values, sources, fields, xml };
}

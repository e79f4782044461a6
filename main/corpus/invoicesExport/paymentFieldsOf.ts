/**
 * A document's payment fields as the project holds them: its pages' latest text, its field corrections and its stored
 * e-invoice XML, through paymentFieldViews.ts (value, source, check, page-vs-XML).
 */
import type { FieldRevision } from '../../../app/contract/fields.js';
import type { PaymentFieldKey } from '../../../app/invoice/fieldCatalogue.js';
import { paymentFieldViews, type PaymentFieldView } from '../../../app/invoices/paymentFieldViews.js';
import type { PaymentValues, ValueSource } from '../../../app/invoices/reviewedInvoice.js';
import { xmlPaymentFieldsOfText, type XmlPaymentFields } from '../../../app/invoices/xmlPaymentFields.js';
import type { DocumentSummary } from '../../../app/model/page.js';
import { correctionsOf } from '../../store/fieldRevisions.js';
import type { ProjectStore } from '../../store/projectStore.js';

export type { PaymentFieldView };

export interface DocumentPaymentFields {
  values: PaymentValues;
  sources: Partial<Record<PaymentFieldKey, ValueSource>>;
  fields: PaymentFieldView[];
  xml: XmlPaymentFields | null;
}

export function xmlPaymentFieldsOf(store: ProjectStore, documentId: string): XmlPaymentFields | null {
  const stored = store.einvoices.get(documentId);
  if (stored?.status !== 'read') return null;
  return xmlPaymentFieldsOfText(Buffer.from(stored.xml).toString('utf8'), stored.invoice.payment);
}

export function paymentFieldsOf(store: ProjectStore, doc: DocumentSummary, revisions: readonly FieldRevision[]): DocumentPaymentFields {
  const text = doc.pages.map((p) => store.revisions.latestRevision(p.id)?.text ?? store.readings.latestExtractionOrNull(p.id)?.markdown ?? '').join('\n\n');
  const xml = xmlPaymentFieldsOf(store, doc.id);
  return { ...paymentFieldViews(text, correctionsOf(revisions), xml), xml };
}

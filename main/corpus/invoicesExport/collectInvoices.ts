/**
 * A project's invoices as the reviewer left them (app/invoices/reviewedInvoice.ts): per document, the reviewed fields
 * (the pages' readings merged, the corrections applied), the payment fields (a correction, else the page's text,
 * else the e-invoice XML), the document's review status — approved only when every page is, approved with exceptions
 * when any page was approved over exceptions — with who set it, when, and why, and where each value came from.
 */
import { applyFieldCorrections, emptyFieldValues } from '../../../app/invoice/review/index.js';
import { scalarFieldKeys } from '../../../app/invoice/fieldCatalogue.js';
import { documentTypeOf } from '../../../app/invoices/documentType.js';
import { xmlInvoiceDetailsOfText, type XmlInvoiceDetails } from '../../../app/invoices/einvoiceOut/xmlDetails.js';
import type { InvoiceStatus, ReviewedInvoice, ValueSource } from '../../../app/invoices/reviewedInvoice.js';
import type { DocumentSummary } from '../../../app/model/page.js';
import { correctionsOf } from '../../store/fieldRevisions.js';
import type { ProjectStore } from '../../store/projectStore.js';
import type { ReviewEvent } from '../../store/reviewEvents.js';
import { paymentFieldsOf } from './paymentFieldsOf.js';
import { approvalHolds } from '../../store/approvalSeals.js';

/** What the document's stored e-invoice XML states beyond the fields; null without one. */
function xmlDetailsOf(store: ProjectStore, documentId: string): XmlInvoiceDetails | null {
  const stored = store.einvoices.getStored(documentId);
  return stored?.status === 'stored' ? xmlInvoiceDetailsOfText(Buffer.from(stored.xml).toString('utf8')) : null;
}

/** The document's status, and the approvals with exceptions it stands on (read once: the export asks per document). */
function documentStatus(store: ProjectStore, doc: DocumentSummary): { status: InvoiceStatus; exceptionEvents: ReviewEvent[] } {
  const statuses = doc.pages.map((p) => p.reviewStatus);
  if (statuses.includes('rejected')) return { status: 'rejected', exceptionEvents: [] };
  if (statuses.every((s) => s === 'approved')) {
    // Approved means frozen: content changed since the approval, however it came (sqlite3 too), is back in review.
    if (!approvalHolds(store, doc.id)) return { status: 'in-review', exceptionEvents: [] };
    const exceptionEvents = store.reviewEvents.exceptionsOfDocument(doc.id);
    return { status: exceptionEvents.length > 0 ? 'approved-with-exceptions' : 'approved', exceptionEvents };
  }
  return { status: statuses.every((s) => s === 'unreviewed') ? 'unreviewed' : 'in-review', exceptionEvents: [] };
}

/** The document's invoice, or null where no page is an invoice page and nobody corrected a field. */
export function reviewedInvoiceOf(store: ProjectStore, doc: DocumentSummary): ReviewedInvoice | null {
  const first = doc.pages[0];
  if (!first) return null;
  const revisions = store.fieldRevisions.list(first.id);
  const engine = store.fieldRevisions.documentEngine(first.id);
  if (!engine && revisions.length === 0) return null;
  const fields = applyFieldCorrections(engine?.values ?? emptyFieldValues(), correctionsOf(revisions));
  const corrected = new Set(revisions.map((r) => r.field));
  // The document's own e-invoice XML is the invoice where it has one (documentView.ts); the page reading otherwise.
  const origin: ValueSource = engine?.origin === 'xml' ? 'xml' : 'page';

  const { values: payment, sources: paymentSources, xml } = paymentFieldsOf(store, doc, revisions);
  const sources: Record<string, ValueSource> = { ...paymentSources };
  for (const key of scalarFieldKeys) {
    if (fields[key] === null) continue;
    sources[key] = corrected.has(key) ? 'corrected' : origin;
  }
  if (fields.lines.length > 0) sources.lines = revisions.some((r) => r.field.startsWith('lines.')) ? 'corrected' : origin;
  if (fields.tax_breakdown.length > 0) sources.tax_breakdown = revisions.some((r) => r.field.startsWith('tax_breakdown.')) ? 'corrected' : origin;

  const { status, exceptionEvents } = documentStatus(store, doc);
  const latest = store.reviewEvents.latestOfDocument(doc.id);
  const lastCorrection = revisions[revisions.length - 1];
  return {
    documentId: doc.id,
    fileName: doc.name,
    fields,
    documentType: documentTypeOf({ statedCode: xml?.typeCode ?? null, total: fields.total, kind: fields.document_type }),
    xmlDetails: xmlDetailsOf(store, doc.id),
    payment,
    sellerCountry: xml?.sellerCountry ?? null,
    buyerCountry: xml?.buyerCountry ?? null,
    status,
    exceptions: [...new Set(exceptionEvents.flatMap((e) => e.exceptions))],
    exceptionReason: [...new Set(exceptionEvents.map((e) => e.reason).filter((r): r is string => !!r))].join(' | ') || null,
    reviewer: latest?.reviewer ?? lastCorrection?.author ?? null,
    reviewedAt: latest?.at ?? lastCorrection?.createdAt ?? null,
    sources,
  };
}

/**
 * Three-way matching's exceptions for the approval (approval.ts gathers them with the others): each finding of the
 * document's match against the project's purchase orders (PO-NONE, PO-PRICE, PO-QTY, PO-EXTRA, PO-CURRENCY) and
 * vendor master (SUP-IBAN), its rule id first in the detail. A project without master data has none, and nothing
 * is recorded for it. Matching records what the document bills on which PO line (main/masterData/matchDocument.ts).
 */
import type { ApprovalException } from '../../app/contract/approval.js';
import type { DocumentSummary } from '../../app/model/page.js';
import { reviewedInvoiceOf } from '../corpus/invoicesExport/collectInvoices.js';
import { invoiceToMatchOf, matchDocument } from '../masterData/matchDocument.js';
import type { ProjectStore } from '../store/projectStore.js';

export function poMatchExceptions(store: ProjectStore, doc: DocumentSummary): ApprovalException[] {
  const counts = store.masterData.counts();
  if (counts.purchaseOrders === 0 && counts.supplierAccounts === 0) return [];
  const invoice = reviewedInvoiceOf(store, doc);
  if (!invoice) return [];
  const { match, supplierFindings } = matchDocument(store, doc.id, invoiceToMatchOf(invoice), { record: true });
  return [
    ...match.findings.map((f): ApprovalException => ({ kind: 'po-match', detail: `${f.rule}: ${f.detail}`, pageNumber: 1 })),
    ...supplierFindings.map((f): ApprovalException => ({ kind: 'vendor-master', detail: `${f.rule}: ${f.detail}`, pageNumber: 1 })),
  ];
}

/**
 * The queue's "match failed" signals: on each document's first page, one per finding of its match (PO-* and SUP-IBAN),
 * so the queue can be filtered to invoices whose match failed. Nothing where the project holds no master data; a
 * document is matched again only when its fields or the master data changed (signalCaches below).
 */
export function withMatchSignals<T extends { documentId: string; pageNumber: number; signals: { kind: string; detail: string }[] }>(store: ProjectStore, items: T[]): T[] {
  const counts = store.masterData.counts();
  if (counts.purchaseOrders === 0 && counts.supplierAccounts === 0) return items;
  const generation = `${store.masterData.generation}:${store.masterData.rejectedPages()}`;
  let cache = signalCaches.get(store);
  if (!cache || cache.generation !== generation) {
    cache = { generation, byDocument: new Map() };
    signalCaches.set(store, cache);
  }
  const byDocument = cache.byDocument;
  return items.map((item) => {
    if (item.pageNumber !== 1) return item;
    const stamp = store.masterData.documentStamp(item.documentId);
    let cached = byDocument.get(item.documentId);
    if (cached?.stamp !== stamp) {
      cached = { stamp, signals: matchSignalsOf(store, item.documentId) };
      byDocument.set(item.documentId, cached);
    }
    return cached.signals.length === 0 ? item : { ...item, signals: [...item.signals, ...cached.signals] };
  });
}

/**
 * The queue's match signals of each store's documents, with the stamp they were computed at: a queue listing
 * re-matches only the documents whose fields changed since, and all of them after any master-data write
 * (MasterDataRepository.generation) or rejection (a rejected invoice's quantities stop counting). Matching a document costs a few milliseconds; the queue is listed often.
 */
const signalCaches = new WeakMap<ProjectStore, { generation: string; byDocument: Map<string, { stamp: string; signals: { kind: 'match-failed'; detail: string }[] }> }>();

function matchSignalsOf(store: ProjectStore, documentId: string): { kind: 'match-failed'; detail: string }[] {
  const invoice = reviewedInvoiceOf(store, store.documents.getDocument(documentId));
  if (!invoice) return [];
  const { match, supplierFindings } = matchDocument(store, documentId, invoiceToMatchOf(invoice), { record: false });
  return [...match.findings, ...supplierFindings].map((f) => ({ kind: 'match-failed' as const, detail: `${f.rule}: ${f.detail}` }));
}

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
 * document is matched afresh (a few index probes and the pairing, about a millisecond: docs/po-matching.md).
 */
export function withMatchSignals<T extends { documentId: string; pageNumber: number; signals: { kind: string; detail: string }[] }>(store: ProjectStore, items: T[]): T[] {
  const counts = store.masterData.counts();
  if (counts.purchaseOrders === 0 && counts.supplierAccounts === 0) return items;
  return items.map((item) => {
    if (item.pageNumber !== 1) return item;
    const invoice = reviewedInvoiceOf(store, store.documents.getDocument(item.documentId));
    if (!invoice) return item;
    const { match, supplierFindings } = matchDocument(store, item.documentId, invoiceToMatchOf(invoice), { record: false });
    const findings = [...match.findings, ...supplierFindings];
    if (findings.length === 0) return item;
    return { ...item, signals: [...item.signals, ...findings.map((f) => ({ kind: 'match-failed' as const, detail: `${f.rule}: ${f.detail}` }))] };
  });
}

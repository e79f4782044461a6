/**
 * The invoice queue (docs/invoice-review.md, "The invoice queue"): one row per document from what the project already
 * knows — the fields as they stand (corrections applied), every needs-attention signal the page queue shows, the
 * review status, the assignment, the claim and who has it open — and the approval of many clean invoices at once,
 * each through the unit approval (its own transaction, its own sealed approval).
 */
import { cleanInvoice, documentNeedsAttention, documentStatusOf, exceptionSignalKinds, type InvoiceQueueRow } from '../../app/invoices/invoiceQueue.js';
import type { AttentionSignalKind } from '../../app/review/attention.js';
import type { ProjectStore } from '../store/projectStore.js';
import { FourEyesError } from '../store/fourEyes.js';
import { KnownAccounts } from './bankAccounts.js';
import { approve, withApprovalSignals, withDuplicateSignals } from './approval.js';
import { prepareEInvoiceReports, withEInvoiceSignals } from './einvoiceValidation.js';
import { withMatchSignals } from './poMatchExceptions.js';
import { learnFromApproval } from './supplierLearning.js';

/** Every read page with all its signals: the page queue's (`attention.list`) computation, shared. */
export async function attentionWithAllSignals(store: ProjectStore) {
  store.checks.recomputeMissing();
  const items = store.attention.list();
  await prepareEInvoiceReports(store, new Set(items.map((item) => item.documentId)));
  return withMatchSignals(store, withApprovalSignals(store, withDuplicateSignals(store, withEInvoiceSignals(store, items))));
}

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);
const amount = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/** One row per document, in import order. `openBy`: who has each document open (Presence.byDocument). */
export async function invoiceQueueRows(store: ProjectStore, openBy: Map<string, string[]> = new Map()): Promise<InvoiceQueueRow[]> {
  const signalsByDocument = new Map<string, AttentionSignalKind[]>();
  for (const item of await attentionWithAllSignals(store)) {
    const kinds = signalsByDocument.get(item.documentId) ?? signalsByDocument.set(item.documentId, []).get(item.documentId)!;
    kinds.push(...item.signals.map((signal) => signal.kind));
  }
  const work = store.work.all();
  return store.documents.listDocuments().map((doc): InvoiceQueueRow => {
    const first = doc.pages[0];
    const engine = first ? store.fieldRevisions.documentEngine(first.id) : null;
    const corrected = first ? store.fieldRevisions.list(first.id).length > 0 : false;
    const values = first && (engine || corrected) ? store.fieldRevisions.currentValues(first.id) : null;
    const status = documentStatusOf(doc.pages.map((p) => ({ status: p.status, reviewStatus: p.reviewStatus, latestEvent: store.reviewEvents.latest(p.id)?.status ?? null })));
    const signals = signalsByDocument.get(doc.id) ?? [];
    const isInvoice = values !== null;
    const state = work.get(doc.id);
    return {
      documentId: doc.id,
      documentName: doc.name,
      firstPageId: first?.id ?? '',
      pageCount: doc.pages.length,
      isInvoice,
      valuesFromXml: engine?.origin === 'xml',
      supplier: text(values?.seller),
      invoiceNumber: text(values?.invoice_number),
      total: amount(values?.total),
      currency: text(values?.currency),
      issueDate: text(values?.issue_date),
      dueDate: text(values?.due_date),
      importedAt: doc.importedAt,
      status,
      exceptions: signals.filter((kind) => exceptionSignalKinds.has(kind)).length,
      signals,
      needsAttention: documentNeedsAttention(status, signals),
      clean: cleanInvoice({ isInvoice, status, signals, valuesFromXml: engine?.origin === 'xml' }),
      assignee: state?.assignee ?? null,
      claimedBy: state?.claimedBy ?? null,
      openBy: openBy.get(doc.id) ?? [],
    };
  });
}

export interface BulkApproval {
  approved: { documentId: string; pageNumbers: number[] }[];
  skipped: { documentId: string; reason: string }[];
}

/**
 * Approves each given invoice that is still clean now (the queue the reviewer saw may be older than the project), each
 * through the unit approval without a reason — so anything an approval would need a reason for stops it there too.
 */
export async function approveCleanInvoices(store: ProjectStore, documentIds: readonly string[], reviewer: string): Promise<BulkApproval> {
  const rows = new Map((await invoiceQueueRows(store)).map((row) => [row.documentId, row]));
  const result: BulkApproval = { approved: [], skipped: [] };
  // Listed once, then kept current after each approval (noteDecision): each invoice is still checked after the ones
  // approved before it, without every check listing every document. The loop below never awaits, so no other request
  // decides anything between two of its approvals.
  const known = KnownAccounts.of(store);
  for (const documentId of new Set(documentIds)) {
    const row = rows.get(documentId);
    if (!row) {
      result.skipped.push({ documentId, reason: 'not in this project' });
      continue;
    }
    if (!row.clean) {
      result.skipped.push({ documentId, reason: notCleanReason(row) });
      continue;
    }
    let outcome: ReturnType<typeof approve>;
    try {
      outcome = approve(store, { pageId: row.firstPageId, scope: 'unit', reviewer }, known);
    } catch (error) {
      // Four eyes refuses this one invoice (the approver changed its amounts last); the others still go through.
      if (!(error instanceof FourEyesError)) throw error;
      result.skipped.push({ documentId, reason: error.message });
      continue;
    }
    if (outcome.outcome === 'needs-reason') {
      result.skipped.push({ documentId, reason: `needs a reason: ${outcome.exceptions.map((e) => e.detail).slice(0, 3).join('; ')}` });
      continue;
    }
    learnFromApproval(store, row.firstPageId);
    known.noteDecision(documentId);
    result.approved.push({ documentId, pageNumbers: outcome.pageNumbers });
  }
  return result;
}

function notCleanReason(row: InvoiceQueueRow): string {
  if (!row.isInvoice) return 'not an invoice (no invoice fields read)';
  if (row.status !== 'in-review') return `${row.status}, not in review`;
  return `needs attention: ${[...new Set(row.signals)].join(', ')}`;
}

/**
 * Approving a page or a whole document. The exceptions an approval would approve over are the needs-attention
 * signals that say the fields are wrong or incomplete — a failed rule (page rules and the e-invoice's fatal EN 16931
 * rules), a missing required field, a disagreement with the e-invoice XML — and the duplicates found across the
 * project (checked again now, with the current fields). With any, the approval needs the reviewer's reason and is
 * recorded as "approved with exceptions" with the exceptions, the reason, who and when; without a reason nothing
 * changes. Every status change is recorded with its reviewer (review_events).
 */
import type { ApprovalException } from '../../app/contract/approval.js';
import { describeMatch, type InvoiceMatch } from '../../app/invoices/duplicateKeys.js';
import type { ReviewedBy, ReviewStatus } from '../../app/model/page.js';
import type { ProjectStore } from '../store/projectStore.js';
import { withEInvoiceSignals } from './einvoiceValidation.js';
import { poMatchExceptions } from './poMatchExceptions.js';
import { approvedContentOf } from '../store/approvalSeals.js';
import { KnownAccounts } from './bankAccounts.js';
import { CodedError, errorCodes } from '../../app/contract/wire.js';
import { assertFourEyes } from '../store/fourEyes.js';

/** Signal kinds that say the fields are wrong or incomplete; doubts (low confidence, repetition) are not exceptions. */
const EXCEPTION_KINDS = new Set(['failed-rule', 'missing-field', 'xml-disagreement']);

export interface ApprovalCheck {
  exceptions: ApprovalException[];
  matches: InvoiceMatch[];
}

/** The scope `unit` resolves to: the whole document where it is an invoice (fields read or corrected), else the page. */
export function resolveScope(store: ProjectStore, pageId: string, scope: 'page' | 'document' | 'unit'): 'page' | 'document' {
  if (scope !== 'unit') return scope;
  const isInvoice = store.fieldRevisions.documentEngine(pageId) !== null || store.fieldRevisions.list(pageId).length > 0;
  return isInvoice ? 'document' : 'page';
}

/** `known`: the accounts known as of now, where the caller keeps them current (a bulk approval); else read afresh. */
export function approvalCheck(store: ProjectStore, pageId: string, requested: 'page' | 'document' | 'unit', known?: KnownAccounts): ApprovalCheck {
  const scope = resolveScope(store, pageId, requested);
  const page = store.documents.getPage(pageId);
  const doc = store.documents.getDocument(page.documentId);
  const pageIds = new Set(scope === 'page' ? [pageId] : doc.pages.map((p) => p.id));
  // A document's field signals sit on its first page: approving any page of it approves over them.
  const firstPageId = doc.pages[0]?.id;
  const items = withEInvoiceSignals(store, store.attention.list(doc.id));
  const exceptions: ApprovalException[] = [];
  for (const item of items) {
    if (!pageIds.has(item.pageId) && item.pageId !== firstPageId) continue;
    for (const signal of item.signals) {
      if (EXCEPTION_KINDS.has(signal.kind)) exceptions.push({ kind: signal.kind as ApprovalException['kind'], detail: signal.detail, pageNumber: item.pageNumber });
    }
  }
  exceptions.push(...(known ?? KnownAccounts.of(store)).exceptionsOf(doc.id));
  store.invoiceKeys.refresh(doc.id);
  const matches = store.invoiceKeys.matchesOf(doc.id);
  for (const match of matches) {
    if (match.kind !== 'corrects') exceptions.push({ kind: 'duplicate', detail: describeMatch(match), pageNumber: 1 });
  }
  // Three-way matching against the project's purchase orders, receipts and vendor master (docs/po-matching.md).
  exceptions.push(...poMatchExceptions(store, doc));
  return { exceptions, matches };
}

export type ApprovalOutcome = 'approved' | 'approved-with-exceptions' | 'needs-reason';

export function approve(
  store: ProjectStore,
  request: { pageId: string; scope: 'page' | 'document' | 'unit'; reason?: string; reviewer: string },
  known?: KnownAccounts,
): { outcome: ApprovalOutcome; exceptions: ApprovalException[]; scope: 'page' | 'document'; pageNumbers: number[] } {
  const scope = resolveScope(store, request.pageId, request.scope);
  const { exceptions } = approvalCheck(store, request.pageId, scope, known);
  const doc = store.documents.getDocument(store.documents.getPage(request.pageId).documentId);
  const pages = scope === 'page' ? doc.pages.filter((p) => p.id === request.pageId) : doc.pages;
  const pageNumbers = pages.map((p) => p.pageNumber);
  const reason = request.reason?.trim() || null;
  // Four eyes before anything else: no reason given makes an approval by the person who changed the amounts right.
  assertFourEyes(store, doc.id, request.reviewer);
  if (exceptions.length > 0 && !reason) return { outcome: 'needs-reason', exceptions, scope, pageNumbers };
  const outcome = exceptions.length > 0 ? 'approved-with-exceptions' : 'approved';
  const pageIds = pages.map((p) => p.id);
  // One transaction: every page with its event, or none (a kill mid-way leaves the document as it was).
  store.transaction(() => {
    const sealed = JSON.stringify(approvedContentOf(store, doc.id));
    for (const pageId of pageIds) {
      store.documents.setReviewStatus(pageId, 'approved');
      store.reviewEvents.record({ pageId, status: outcome, exceptions: exceptions.map((e) => `${e.kind}: ${e.detail}`), reason, reviewer: request.reviewer, sealed });
    }
  });
  return { outcome, exceptions, scope, pageNumbers };
}

/** Thrown by a plain status change to approved that has exceptions: it must go through approve() with a reason. */
export class ApprovalNeedsReasonError extends CodedError {
  override name = 'ApprovalNeedsReasonError';
  constructor(message: string) {
    super(errorCodes.badInput, message);
  }
}

/**
 * A status change other than an approval with exceptions, recorded with its reviewer. An approval that has
 * exceptions is refused: there is no silent approve.
 */
export function setReviewStatusBy(store: ProjectStore, pageId: string, status: ReviewStatus, reviewer: string) {
  if (status === 'approved') {
    assertFourEyes(store, store.documents.getPage(pageId).documentId, reviewer);
    const { exceptions } = approvalCheck(store, pageId, 'page');
    if (exceptions.length > 0) {
      throw new ApprovalNeedsReasonError(
        `approving this page approves over ${exceptions.length} exception(s) (${exceptions.map((e) => e.detail).slice(0, 3).join('; ')}); give a reason (approval.approve)`,
      );
    }
  }
  return store.transaction(() => {
    const page = store.documents.setReviewStatus(pageId, status);
    const sealed = status === 'approved' ? JSON.stringify(approvedContentOf(store, page.documentId)) : null;
    store.reviewEvents.record({ pageId, status, exceptions: [], reason: null, reviewer, sealed });
    return page;
  });
}

/**
 * The duplicate signals of the queue: on each document's first page, one per invoice of the project that looks like
 * it (from the keys recorded when its fields last changed: a few index probes per document), with the other
 * invoice's name and id; a credit note's link to the invoice it corrects is not a signal.
 */
export function withDuplicateSignals<T extends { documentId: string; pageNumber: number; signals: { kind: string; detail: string }[] }>(store: ProjectStore, items: T[]): T[] {
  return items.map((item) => {
    if (item.pageNumber !== 1) return item;
    const matches = store.invoiceKeys.recordedMatches(item.documentId).filter((m) => m.kind !== 'corrects');
    if (matches.length === 0) return item;
    return { ...item, signals: [...item.signals, ...matches.map((m) => ({ kind: 'duplicate' as const, detail: describeMatch(m) }))] };
  });
}

/** Who set the page's status, when, why (approval.ts, review_events); null where nobody did since reviewers were kept. */
export function reviewedByOf(store: ProjectStore, pageId: string): ReviewedBy | null {
  const event = store.reviewEvents.latest(pageId);
  return event ? { status: event.status, reviewer: event.reviewer, at: event.at, reason: event.reason, exceptions: event.exceptions.length } : null;
}

/** Items (documents' pages, queue rows) with who reviewed each. */
export function withReviewedBy<T extends { id?: string; pageId?: string }>(store: ProjectStore, items: T[]): (T & { reviewedBy: ReviewedBy | null })[] {
  return items.map((item) => ({ ...item, reviewedBy: reviewedByOf(store, (item.pageId ?? item.id)!) }));
}

/**
 * The approval signals of the queue: an IBAN, BIC or VAT ID the supplier was not paid to before (bankAccounts.ts), a page reopened because its invoice changed after the approval (what changed,
 * who changed it), and a page whose decision a merge or import contradicts (which decision, from where, and whether
 * its time could be trusted) until a person decides again.
 */
export function withApprovalSignals<T extends { pageId: string; documentId: string; pageNumber: number; reviewStatus?: string; signals: { kind: string; detail: string }[] }>(store: ProjectStore, items: T[]): T[] {
  let known: KnownAccounts | undefined;
  return items.map((item) => {
    const added: { kind: 'reopened' | 'decision-conflict' | 'bank-account'; detail: string }[] = [];
    // A bank account not known for the supplier, on the first page (where field signals sit) of an undecided document:
    // a decided one was approved over it with a reason, or rejected.
    const status = item.reviewStatus ?? store.documents.getPage(item.pageId).reviewStatus;
    if (item.pageNumber === 1 && status !== 'approved' && status !== 'rejected') {
      known ??= KnownAccounts.of(store);
      for (const e of known.exceptionsOf(item.documentId, { cached: true })) added.push({ kind: 'bank-account', detail: e.detail });
    }
    const latest = store.reviewEvents.latest(item.pageId);
    if (latest?.status === 'reopened' && status === 'in-review') added.push({ kind: 'reopened', detail: latest.reason ?? latest.exceptions.join('; ') });
    for (const conflict of store.reviewEvents.conflictsOf(item.pageId)) {
      added.push({ kind: 'decision-conflict', detail: `${conflict.origin}: ${conflict.status} by ${conflict.reviewer} at ${conflict.at}${conflict.reason ? ` (${conflict.reason})` : ''}; this project's decision kept` });
    }
    return added.length === 0 ? item : { ...item, signals: [...item.signals, ...added] };
  });
}

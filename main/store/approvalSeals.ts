/**
 * Approved means frozen (docs/invoice-review.md, docs/security.md). An approval seals the document's content as the
 * reviewer saw it — the reviewed fields and lines, the payment fields (IBAN, BIC, terms), each page's text by hash, the
 * e-invoice XML by hash — into its review event. The approval holds while the content is still that; any change,
 * however it came (a field saved, a text edited, a merge, a corpus import, the file edited with sqlite3), breaks it:
 * the invoice is no longer approved (the export decides status with `approvalHolds`), and `reopenChanged` records the
 * reopening with what changed and who changed it, as a needs-attention signal.
 */
import { createHash } from 'node:crypto';
import type { EngineFieldValues } from '../../app/invoice/review/index.js';
import { paymentFieldViews } from '../../app/invoices/paymentFieldViews.js';
import { xmlPaymentFieldsOfText } from '../../app/invoices/xmlPaymentFields.js';
import { correctionsOf } from './fieldRevisions.js';
import type { ProjectStore } from './projectStore.js';
import { isApproval, type ReviewEvent } from './reviewEvents.js';

/** What an approval approved: compared part by part so a reopening can name what changed. */
export interface ApprovedContent {
  fields: EngineFieldValues;
  payment: Record<string, string | null>;
  /** SHA-256 of each page's text (latest revision, else the reading), in page order. */
  pages: string[];
  /** SHA-256 of the stored e-invoice XML; null where there is none. */
  xml: string | null;
}

const sha256 = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');

export function approvedContentOf(store: ProjectStore, documentId: string): ApprovedContent {
  const doc = store.documents.getDocument(documentId);
  const first = doc.pages[0]?.id;
  const texts = doc.pages.map((p) => store.revisions.latestRevision(p.id)?.text ?? store.readings.latestExtractionOrNull(p.id)?.markdown ?? '');
  const stored = store.einvoices.get(documentId);
  const xml = stored?.status === 'read' ? xmlPaymentFieldsOfText(Buffer.from(stored.xml).toString('utf8'), stored.invoice.payment) : null;
  const revisions = first ? store.fieldRevisions.list(first) : [];
  return {
    fields: first ? store.fieldRevisions.currentValues(first) : ({} as EngineFieldValues),
    payment: { ...paymentFieldViews(texts.join('\n\n'), correctionsOf(revisions), xml).values },
    pages: texts.map(sha256),
    xml: stored?.status === 'read' ? sha256(Buffer.from(stored.xml)) : null,
  };
}

const show = (value: unknown) => (value === null || value === undefined ? '(empty)' : typeof value === 'string' ? value : JSON.stringify(value));

/** What differs between the approved content and now, in words: `payment.iban: DE89… → DE12…`, `text of page 2`. */
export function changesSince(approved: ApprovedContent, now: ApprovedContent): string[] {
  const changes: string[] = [];
  const fieldsBefore = approved.fields as unknown as Record<string, unknown>;
  const fieldsNow = now.fields as unknown as Record<string, unknown>;
  for (const key of new Set([...Object.keys(fieldsBefore), ...Object.keys(fieldsNow)])) {
    const before = JSON.stringify(fieldsBefore[key] ?? null);
    if (before === JSON.stringify(fieldsNow[key] ?? null)) continue;
    changes.push(Array.isArray(fieldsNow[key]) || Array.isArray(fieldsBefore[key]) ? key : `${key}: ${show(fieldsBefore[key])} → ${show(fieldsNow[key])}`);
  }
  for (const key of new Set([...Object.keys(approved.payment), ...Object.keys(now.payment)])) {
    if ((approved.payment[key] ?? null) !== (now.payment[key] ?? null)) changes.push(`payment.${key}: ${show(approved.payment[key])} → ${show(now.payment[key])}`);
  }
  const pages = Math.max(approved.pages.length, now.pages.length);
  for (let i = 0; i < pages; i++) if (approved.pages[i] !== now.pages[i]) changes.push(`text of page ${i + 1}`);
  if (approved.xml !== now.xml) changes.push('e-invoice XML');
  return changes;
}

function parseSeal(sealed: string | null | undefined): ApprovedContent | null {
  if (!sealed) return null;
  try {
    return JSON.parse(sealed) as ApprovedContent;
  } catch {
    return null;
  }
}

export interface ApprovalState {
  /** The page's deciding approval event, or null where the page is not approved. */
  approval: ReviewEvent | null;
  /** What changed since it; empty while it holds. */
  changes: string[];
}

/**
 * Whether each approved page's approval still holds. An approval recorded before approvals were sealed (a project
 * older than migration 009) has no seal and holds as it did; a seal that cannot be read does not hold.
 */
export function approvalStates(store: ProjectStore, documentId: string): Map<string, ApprovalState> {
  const doc = store.documents.getDocument(documentId);
  const states = new Map<string, ApprovalState>();
  let now: ApprovedContent | null = null;
  for (const page of doc.pages) {
    if (page.reviewStatus !== 'approved') continue;
    const approval = store.reviewEvents.latest(page.id);
    if (!approval || !isApproval(approval.status) || approval.sealed === null || approval.sealed === undefined) {
      // No seal: approved before seals existed (holds as it did), or not an approval Recto recorded — no approval
      // event, or an unsealed one recorded since seals exist (a local one is sealed as it is made, one from a merge on
      // arrival): edited outside Recto.
      const legacy = approval !== null && isApproval(approval.status) && approval.id !== undefined && !store.reviewEvents.recordedSinceSeals(approval.id);
      states.set(page.id, { approval, changes: legacy ? [] : [approval && isApproval(approval.status) ? 'the approval seal (missing)' : 'the approval itself (no approval event)'] });
      continue;
    }
    const sealed = parseSeal(approval.sealed);
    now ??= approvedContentOf(store, documentId);
    states.set(page.id, { approval, changes: sealed ? changesSince(sealed, now) : ['the approval seal (unreadable)'] });
  }
  return states;
}

/** True when every approved page of the document is approved over the content it has now. */
export function approvalHolds(store: ProjectStore, documentId: string): boolean {
  return [...approvalStates(store, documentId).values()].every((state) => state.changes.length === 0);
}

/**
 * Reopens every approved page of the document whose approval no longer holds: back in review, with a `reopened`
 * event naming what changed and who changed it (the authors of the revisions saved since the approval; "outside
 * Recto" where no revision records the change). `via`: how it came (`fields.save`, `merge of other.recto`).
 * Returns the pages reopened. Call inside the transaction of the change where there is one.
 */
export function reopenChanged(store: ProjectStore, documentId: string, via: string): { pageId: string; changes: string[]; by: string }[] {
  const reopened: { pageId: string; changes: string[]; by: string }[] = [];
  for (const [pageId, state] of approvalStates(store, documentId)) {
    if (state.changes.length === 0) continue;
    const since = state.approval?.at ?? '';
    const doc = store.documents.getDocument(documentId);
    const authors = new Set<string>();
    for (const r of store.fieldRevisions.list(pageId)) if (r.createdAt > since) authors.add(r.author);
    for (const p of doc.pages) for (const r of store.revisions.listRevisions(p.id)) if (r.createdAt > since) authors.add(r.author);
    const by = authors.size > 0 ? [...authors].join(', ') : 'outside Recto (no revision records the change)';
    store.documents.setReviewStatus(pageId, 'in-review');
    store.reviewEvents.record({
      pageId,
      status: 'reopened',
      exceptions: state.changes,
      reason: `${state.changes.join('; ')} — changed by ${by} (${via}) after the approval by ${state.approval?.reviewer ?? 'unknown'}`,
      reviewer: by,
    });
    reopened.push({ pageId, changes: state.changes, by });
  }
  return reopened;
}

/**
 * Seals the decisions a merge or import adopted on pages nobody here had decided, with the content the document has
 * after it: from then on a change reopens them like an approval taken here.
 */
export function sealAdopted(store: ProjectStore, documentId: string): number {
  let sealed = 0;
  let now: string | null = null;
  for (const page of store.documents.getDocument(documentId).pages) {
    if (page.reviewStatus !== 'approved') continue;
    const approval = store.reviewEvents.latest(page.id);
    if (!approval?.id || !approval.origin || approval.sealed || !isApproval(approval.status)) continue;
    now ??= JSON.stringify(approvedContentOf(store, documentId));
    store.reviewEvents.imported.seal(approval.id, now);
    sealed += 1;
  }
  return sealed;
}

/**
 * Where "approve and next" goes once an invoice is approved: the next page needing attention that is not a page of the
 * invoice just approved (approving from any page approved all of them), else — an invoice nothing flags still needs
 * its approval — the next page of a document not yet decided (neither approved nor rejected); within the curation
 * filter either way, wrapping around, in the queue's order. Pure.
 */
import type { AttentionItem } from '../../../../app/contract/attention.js';
import { inQueueFilter, needsAttention, noQueueFilter, type QueueFilter } from '../queueWalk.js';

const undecided = (item: AttentionItem) => item.reviewStatus !== 'approved' && item.reviewStatus !== 'rejected';

/**
 * `approvedDocument`: the document approved as a whole (null where only the page was, a document that is not an
 * invoice: its other pages are still to review).
 */
export function nextAfterApproval(items: readonly AttentionItem[], current: string, approvedDocument: string | null, filter: QueueFilter = noQueueFilter): string | null {
  const start = items.findIndex((item) => item.pageId === current);
  const ordered = Array.from({ length: items.length }, (_, step) => items[(start + 1 + step + items.length) % items.length]!);
  const candidates = ordered.filter((item) => item.pageId !== current && item.documentId !== approvedDocument && inQueueFilter(item, filter));
  return (candidates.find(needsAttention) ?? candidates.find(undecided))?.pageId ?? null;
}

/**
 * Walking the needs-attention queue from the review screen (Alt+N / Alt+P, approve-and-next) within the filter the
 * analyst set in the curation view: with "Failed rule" chosen there, the next page is the next one failing a rule,
 * not the next one with any signal. Pure; the queue is `attention.list`'s items in project order.
 */
import type { AttentionItem } from '../../../app/contract/attention.js';
import type { ReviewStatus } from '../../../app/model/page.js';
import type { AttentionSignalKind } from '../../../app/review/attention.js';

/** The part of the curation query that narrows the queue ('' / [] = no narrowing). */
export interface QueueFilter {
  signal: AttentionSignalKind | '';
  documentId: string;
  statuses: readonly ReviewStatus[];
  /**
   * The invoice queue's visible rows (sorted and filtered there), when the page was opened from it: the walk then goes
   * invoice by invoice in this order, whatever the page queue's filter.
   */
  documentOrder?: readonly string[];
}

export const noQueueFilter: QueueFilter = { signal: '', documentId: '', statuses: [] };

export const needsAttention = (item: AttentionItem): boolean =>
  item.signals.length > 0 && item.reviewStatus !== 'approved' && item.reviewStatus !== 'rejected';

export function inQueueFilter(item: AttentionItem, filter: QueueFilter): boolean {
  if (filter.signal && !item.signals.some((signal) => signal.kind === filter.signal)) return false;
  if (filter.documentId && item.documentId !== filter.documentId) return false;
  return filter.statuses.length === 0 || filter.statuses.includes(item.reviewStatus);
}

/** The next (1) or previous (-1) page from `current`, wrapping around, that needs attention within the filter; never `current`. */
export function stepNeedingAttention(items: readonly AttentionItem[], current: string | null, direction: 1 | -1, filter: QueueFilter = noQueueFilter): string | null {
  if (filter.documentOrder) return stepInInvoiceOrder(items, current, direction, filter.documentOrder);
  const start = items.findIndex((item) => item.pageId === current);
  // Not in the list: start before the first item going forward, after the last going back.
  const from = start >= 0 ? start : direction === 1 ? -1 : items.length;
  for (let step = 1; step <= items.length; step++) {
    const item = items[(((from + direction * step) % items.length) + items.length) % items.length]!;
    if (item.pageId !== current && needsAttention(item) && inQueueFilter(item, filter)) return item.pageId;
  }
  return null;
}

/**
 * The next (1) or previous (-1) invoice in the invoice queue's visible order, wrapping around, never the current page's:
 * its first page needing attention, else its first read page (a clean invoice is in the visible order too).
 */
export function stepInInvoiceOrder(items: readonly AttentionItem[], current: string | null, direction: 1 | -1, order: readonly string[]): string | null {
  const byDocument = new Map<string, AttentionItem[]>();
  for (const item of items) (byDocument.get(item.documentId) ?? byDocument.set(item.documentId, []).get(item.documentId)!).push(item);
  const currentDocument = items.find((item) => item.pageId === current)?.documentId ?? null;
  const at = currentDocument === null ? -1 : order.indexOf(currentDocument);
  const from = at >= 0 ? at : direction === 1 ? -1 : order.length;
  for (let step = 1; step <= order.length; step++) {
    const documentId = order[(((from + direction * step) % order.length) + order.length) % order.length]!;
    if (documentId === currentDocument) continue;
    const pages = byDocument.get(documentId) ?? [];
    const target = pages.find(needsAttention) ?? pages[0];
    if (target) return target.pageId;
  }
  return null;
}

/** How many pages need attention within the filter; in the invoice queue's order, how many of its invoices do. */
export function countNeedingAttention(items: readonly AttentionItem[], filter: QueueFilter = noQueueFilter): number {
  if (filter.documentOrder) {
    const shown = new Set(filter.documentOrder);
    return new Set(items.filter((item) => shown.has(item.documentId) && needsAttention(item)).map((item) => item.documentId)).size;
  }
  return items.filter((item) => needsAttention(item) && inQueueFilter(item, filter)).length;
}

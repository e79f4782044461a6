/**
 * The invoice queue (`invoices.queue`): one row per document, kept fresh — asked again when a page changed, documents
 * came or went, an assignment or claim changed, or someone opened or left a document (others' work appears live).
 */
import type { ReplyOf } from '../../../app/contract/methods.js';
import { useContractQuery } from './useContractQuery.js';

const noQueue: ReplyOf<'invoices.queue'> = { rows: [], me: '' };
/** A burst of updates (a bulk approval sends one per invoice) becomes one refetch this long after it. */
const refetchBurstMs = 250;

export function useInvoiceQueue() {
  return useContractQuery((client) => client.call('invoices.queue', {}), {
    refetchOn: ['page.updated', 'documents.changed', 'work.changed', 'presence.changed'],
    throttleMs: refetchBurstMs,
    initial: noQueue,
  });
}

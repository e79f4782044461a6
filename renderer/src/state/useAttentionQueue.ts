/**
 * The needs-attention queue (`attention.list`): which pages still want an analyst's eye, in project order. A page
 * needs attention while it has signals and is neither approved nor rejected. Refetched after page updates.
 */
import { useMemo } from 'react';
import type { AttentionItem } from '../../../app/contract/attention.js';
import { useContractQuery } from './useContractQuery.js';
import { needsAttention } from '../logic/queueWalk.js';

export { needsAttention } from '../logic/queueWalk.js';

const noItems: AttentionItem[] = [];
/** A burst of page updates becomes one refetch this long after it. */
const refetchBurstMs = 300;

export function useAttentionQueue(enabled: boolean) {
  // No project or a transient failure: the queue shows what it had; the next update asks again.
  const { data: items, reload } = useContractQuery(async (client) => (await client.call('attention.list', {})).items, {
    refetchOn: ['page.updated', 'documents.changed'],
    throttleMs: refetchBurstMs,
    enabled,
    initial: noItems,
  });
  const left = useMemo(() => items.filter(needsAttention).length, [items]);
  return { items, left, reload };
}

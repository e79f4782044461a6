/**
 * The needs-attention queue (`attention.list`): which pages still want an analyst's eye, in project order. A page
 * needs attention while it has signals and is neither approved nor rejected. Refetched after page updates.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { AttentionItem } from '../../../app/contract/attention.js';
import { useClient, useContractEvent, useOnReconnect } from './contractContext.js';
import { useTrailingThrottle } from './useThrottledCallback.js';

export const needsAttention = (item: AttentionItem): boolean =>
  item.signals.length > 0 && item.reviewStatus !== 'approved' && item.reviewStatus !== 'rejected';

/** The next page after `current` (wrapping around) that needs attention, never `current` itself. */
export function nextNeedingAttention(items: readonly AttentionItem[], current: string | null): string | null {
  const start = items.findIndex((item) => item.pageId === current);
  for (let step = 1; step <= items.length; step++) {
    const item = items[(start + step + items.length) % items.length]!;
    if (item.pageId !== current && needsAttention(item)) return item.pageId;
  }
  return null;
}

export function useAttentionQueue(enabled: boolean) {
  const client = useClient();
  const [items, setItems] = useState<AttentionItem[]>([]);
  const reload = useCallback(async () => {
    try {
      setItems((await client.call('attention.list', {})).items);
    } catch {
      // No project or a transient failure: the queue shows what it had; the next update asks again.
    }
  }, [client]);
  const reloadSoon = useTrailingThrottle(() => void reload(), 300);
  useEffect(() => {
    if (enabled) void reload();
  }, [enabled, reload]);
  useContractEvent('page.updated', reloadSoon);
  useContractEvent('documents.changed', reloadSoon);
  useOnReconnect(reloadSoon);
  const left = useMemo(() => items.filter(needsAttention).length, [items]);
  return { items, left, reload };
}

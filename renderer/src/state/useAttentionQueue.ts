/**
 * The needs-attention queue (`attention.list`): which pages still want an analyst's eye, in project order. A page
 * needs attention while it has signals and is neither approved nor rejected. Refetched after page updates.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { AttentionItem } from '../../../app/contract/attention.js';
import { useClient, useContractEvent, useOnReconnect } from './contractContext.js';
import { useTrailingThrottle } from './useThrottledCallback.js';
import { needsAttention } from '../logic/queueWalk.js';

export { needsAttention } from '../logic/queueWalk.js';

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

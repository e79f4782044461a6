import { useCallback, useEffect, useRef, useState } from 'react';
import type { PageReview } from '../../../app/contract/methods.js';
import { useClient, useContractEvent, useOnReconnect } from './contractContext.js';
import { useTrailingThrottle } from './useThrottledCallback.js';

/**
 * Everything the review screen shows for one page (`pages.getReview`), refetched when that page is updated.
 * A reply for a page that is no longer selected is dropped.
 */
export function usePageReview(pageId: string | null) {
  const client = useClient();
  const [review, setReview] = useState<PageReview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const wanted = useRef(pageId);
  wanted.current = pageId;

  const reload = useCallback(async () => {
    const requested = wanted.current;
    if (!requested) {
      setReview(null);
      return;
    }
    try {
      const next = await client.call('pages.getReview', { pageId: requested });
      if (wanted.current !== requested) return;
      setReview(next);
      setError(null);
    } catch (caught) {
      if (wanted.current !== requested) return;
      setError(caught instanceof Error ? caught.message : String(caught));
    }
  }, [client]);

  const reloadSoon = useTrailingThrottle(() => void reload(), 150);
  useEffect(() => {
    setError(null);
    void reload();
  }, [pageId, reload]);
  useContractEvent('page.updated', (payload) => {
    if (payload.pageId === wanted.current) reloadSoon();
  });
  useOnReconnect(reloadSoon);

  // Safety net for a missed `page.updated`: while this page is still being read, look again every few seconds.
  const status = review && review.page.id === pageId ? review.page.status : null;
  const waiting = status === 'pending' || status === 'reading';
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(reloadSoon, 3000);
    return () => clearInterval(timer);
  }, [waiting, reloadSoon]);

  return { review: review && review.page.id === pageId ? review : null, error, reload: reloadSoon };
}

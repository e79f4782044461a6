import { useCallback, useEffect, useRef, useState } from 'react';
import type { PageReview } from '../../../app/contract/methods.js';
import { useClient, useContractEvent, useOnReconnect } from './contractContext.js';
import type { PageDataCache } from './pageDataCache.js';
import { useTrailingThrottle } from './useThrottledCallback.js';
import { keepIfSame } from '../logic/sameAnswer.js';

/**
 * Everything the review screen shows for one page (`pages.getReview`), refetched when that page is updated.
 * A reply for a page that is no longer selected is dropped. Opening a page takes its review from `cache` (asked for
 * ahead, or asked for now): a page fetched ahead is shown in the very render that selects it.
 */
export function usePageReview(pageId: string | null, cache: PageDataCache) {
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
      // The same review again (a page.updated that changed nothing shown, as a field saved) keeps the same object, so
      // the editing session, the rules and the panels need not run again.
      setReview((previous) => keepIfSame(previous, next));
      setError(null);
    } catch (caught) {
      if (wanted.current !== requested) return;
      setError(caught instanceof Error ? caught.message : String(caught));
    }
  }, [client]);

  const reloadSoon = useTrailingThrottle(() => void reload(), 150);
  // A page fetched ahead is taken in the render that selects it (React re-runs this component at once, before its
  // children): set from an effect it would cost one more render of the whole review screen per page switch.
  const cachedNow = pageId && review?.page.id !== pageId ? cache.peekReview(pageId) : null;
  if (cachedNow) setReview(cachedNow);
  useEffect(() => {
    setError(null);
    if (!pageId) return setReview(null);
    if (cache.peekReview(pageId)) return;
    cache.review(pageId).then(
      (next) => wanted.current === pageId && setReview(next),
      (caught: unknown) => wanted.current === pageId && setError(caught instanceof Error ? caught.message : String(caught)),
    );
  }, [pageId, cache]);
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

  // The render that selects a page fetched ahead shows it at once (the state catches up in the effect above).
  const shown = review && review.page.id === pageId ? review : cache.peekReview(pageId);
  return { review: shown, error, reload: reloadSoon };
}

import { useEffect, useMemo, useRef } from 'react';

/**
 * Runs `callback` at most once per `waitMs`, trailing: a burst of events (every page of a 50-page PDF reporting in)
 * becomes one refetch shortly after the burst instead of fifty.
 */
export function useTrailingThrottle(callback: () => void, waitMs: number): () => void {
  const latest = useRef(callback);
  latest.current = callback;
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  return useMemo(
    () => () => {
      if (timer.current) return;
      timer.current = setTimeout(() => {
        timer.current = null;
        latest.current();
      }, waitMs);
    },
    [waitMs],
  );
}

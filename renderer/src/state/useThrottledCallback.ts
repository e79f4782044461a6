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

/**
 * Runs `callback` at most once per animation frame, on the next frame: what follows every keystroke (the preview,
 * the invoice rules) is on screen in the frame after it, and a burst of edits in one frame renders once.
 */
export function useFrameThrottle(callback: () => void): () => void {
  const latest = useRef(callback);
  latest.current = callback;
  const frame = useRef<number | null>(null);
  useEffect(
    () => () => {
      if (frame.current !== null) cancelAnimationFrame(frame.current);
    },
    [],
  );
  return useMemo(
    () => () => {
      if (frame.current !== null) return;
      frame.current = requestAnimationFrame(() => {
        frame.current = null;
        latest.current();
      });
    },
    [],
  );
}

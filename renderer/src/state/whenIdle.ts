/**
 * Work that a page switch starts but does not need to show the page (the side panels' requests: duplicates, payment
 * fields, the e-invoice report) runs once the main thread is idle, after the new page is painted; cancelled when the
 * analyst has already moved on, so stepping quickly through pages pays for it once, not per page. On two busy cores
 * every millisecond of main-thread work before the paint costs several of waiting (docs/benchmarks.md, bench:ui).
 * Not for what the next input needs at once: the pages asked for ahead, the history entry Back returns to.
 */

/** Idle may never come on a saturated machine: the work runs after this long regardless. */
export const IDLE_TIMEOUT_MS = 300;

/** Runs `callback` when the main thread is idle (at most `timeoutMs` from now); returns a cancel. */
export function whenIdle(callback: () => void, timeoutMs = IDLE_TIMEOUT_MS): () => void {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(() => callback(), { timeout: timeoutMs });
    return () => cancelIdleCallback(handle);
  }
  const timer = setTimeout(callback, 0);
  return () => clearTimeout(timer);
}

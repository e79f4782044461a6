/**
 * The app's own Back / Forward: each page opened and each view shown is an entry of the browser's session history
 * (`history.pushState`, the URL unchanged), so Back returns to the page or the queue seen before instead of leaving the
 * app, in the browser shell and in Electron alike (Alt+← / Alt+→ there).
 */
import { useEffect, useRef } from 'react';

export interface NavigationEntry {
  view: string;
  pageId: string | null;
}

/**
 * An entry replaced within this time was a step on the way (opening a page from the queue shows the review view a
 * moment before the page), not a place visited: it is overwritten rather than kept.
 */
const SETTLE_MS = 400;

/** How long a restore may take to show its page (a save runs first) before the entries are recorded again. */
const RESTORE_TIMEOUT_MS = 3000;

const entryOf = (state: unknown): NavigationEntry | null => {
  const entry = (state as { recto?: NavigationEntry } | null)?.recto;
  return entry && typeof entry.view === 'string' ? entry : null;
};
const same = (a: NavigationEntry | null, b: NavigationEntry): boolean => a !== null && a.view === b.view && a.pageId === b.pageId;

/**
 * Records `current` as it changes, once `settled` (false while a page asked for is still on its way); `restore` shows
 * an entry the analyst went back or forward to.
 */
export function useNavigationHistory(current: NavigationEntry, settled: boolean, restore: (entry: NavigationEntry) => void): void {
  const restoring = useRef<{ entry: NavigationEntry; until: number } | null>(null);
  const lastPushAt = useRef(0);
  const restoreLatest = useRef(restore);
  restoreLatest.current = restore;

  useEffect(() => {
    if (!settled) return;
    const pending = restoring.current;
    if (pending) {
      // While a restored entry is being shown (view first, then its page), the steps on the way are not new entries.
      if (!same(current, pending.entry) && Date.now() < pending.until) return;
      restoring.current = null;
      if (same(current, pending.entry)) return;
    }
    // Written in the switch itself, not deferred past the paint: a history call costs a few ms of main thread on a
    // busy machine, but a Back that arrives before a deferred entry is written leaves from the entry before it and
    // skips the place the analyst just left (docs/benchmarks.md, "Tried and dropped").
    const shown = entryOf(window.history.state);
    if (same(shown, current)) return;
    const state = { ...(window.history.state as object | null), recto: current };
    // The first entry, and one whose page had not loaded yet, are completed rather than followed.
    const passing = Date.now() - lastPushAt.current < SETTLE_MS;
    if (!shown || passing || (shown.pageId === null && shown.view === current.view)) window.history.replaceState(state, '');
    else {
      window.history.pushState(state, '');
      lastPushAt.current = Date.now();
    }
  }, [current.view, current.pageId, settled]);

  useEffect(() => {
    const onPop = (event: PopStateEvent) => {
      // The entry Back or Forward arrived at is a place visited, not one pushed a moment ago on the way to a page: the
      // next entry follows it, even when it comes within SETTLE_MS of the last push (a quick Back, then another row
      // of the queue, had replaced the queue's entry instead of following it — reviewLoop e2e, on a fast machine).
      lastPushAt.current = 0;
      const entry = entryOf(event.state);
      if (!entry) return;
      restoring.current = { entry, until: Date.now() + RESTORE_TIMEOUT_MS };
      restoreLatest.current(entry);
    };
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
}

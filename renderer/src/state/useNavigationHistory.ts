/**
 * The app's own Back / Forward: each page opened and each view shown is an entry of the browser's session history
 * (`history.pushState`, the URL unchanged), so Back returns to the page or the queue seen before instead of leaving the
 * app, in the browser shell and in Electron alike (Alt+← / Alt+→ there).
 */
import { useEffect, useRef } from 'react';
import { whenIdle } from './whenIdle.js';

export interface NavigationEntry {
  view: string;
  pageId: string | null;
}

/** An entry as stored in `history.state.recto`: `key` names the entry, unique across loads of the app. */
interface StoredEntry extends NavigationEntry {
  key: string;
}

/**
 * An entry replaced within this time was a step on the way (opening a page from the queue shows the review view a
 * moment before the page), not a place visited: it is overwritten rather than kept.
 */
const SETTLE_MS = 400;

/** How long a restore may take to show its page (a save runs first) before the entries are recorded again. */
const RESTORE_TIMEOUT_MS = 3000;

const loadId = Math.random().toString(36).slice(2, 10);
let keySerial = 0;
const newKey = (): string => `${loadId}.${++keySerial}`;

const entryOf = (state: unknown): StoredEntry | null => {
  const entry = (state as { recto?: StoredEntry } | null)?.recto;
  return entry && typeof entry.view === 'string' ? entry : null;
};
const same = (a: NavigationEntry | null, b: NavigationEntry): boolean => a !== null && a.view === b.view && a.pageId === b.pageId;

function writeEntry(kind: 'push' | 'replace', entry: NavigationEntry, key: string): void {
  const state = { ...(window.history.state as object | null), recto: { view: entry.view, pageId: entry.pageId, key } };
  if (kind === 'push') window.history.pushState(state, '');
  else window.history.replaceState(state, '');
}

/**
 * Records `current` as it changes, once `settled` (false while a page asked for is still on its way); `restore` shows
 * an entry the analyst went back or forward to.
 *
 * A new entry (`pushState`) is written in the switch itself: a Back that arrived before it would leave from the entry
 * before and skip the place just left (docs/benchmarks.md, "Tried and dropped"). A replacement — each step of a
 * quick walk through pages rewrites the entry it is on — is written once idle, the latest only: a history call costs
 * the main thread 2–5 ms in the switch. Back or Forward before it is written leaves the entry with its earlier state;
 * the replacement is kept by the entry's key and applied when the analyst comes back to it.
 */
export function useNavigationHistory(current: NavigationEntry, settled: boolean, restore: (entry: NavigationEntry) => void): void {
  const restoring = useRef<{ entry: NavigationEntry; until: number } | null>(null);
  const lastPushAt = useRef(0);
  const restoreLatest = useRef(restore);
  restoreLatest.current = restore;
  /** The replacement of the current entry not yet written. */
  const pending = useRef<{ key: string; entry: NavigationEntry; cancel(): void } | null>(null);
  /** Replacements of entries left before they were written, by key. */
  const corrections = useRef(new Map<string, NavigationEntry>());

  const flushPending = useRef(() => {
    const replacement = pending.current;
    if (!replacement) return;
    pending.current = null;
    replacement.cancel();
    if (entryOf(window.history.state)?.key === replacement.key) writeEntry('replace', replacement.entry, replacement.key);
    else corrections.current.set(replacement.key, replacement.entry);
  }).current;

  useEffect(() => {
    if (!settled) return;
    const waiting = restoring.current;
    if (waiting) {
      // While a restored entry is being shown (view first, then its page), the steps on the way are not new entries.
      if (!same(current, waiting.entry) && Date.now() < waiting.until) return;
      restoring.current = null;
      if (same(current, waiting.entry)) return;
    }
    const stored = entryOf(window.history.state);
    const shown = pending.current?.entry ?? stored;
    if (same(shown, current)) return;
    // The first entry, and one whose page had not loaded yet, are completed rather than followed.
    const passing = Date.now() - lastPushAt.current < SETTLE_MS;
    if (!shown || passing || (shown.pageId === null && shown.view === current.view)) {
      if (!stored || stored.key === undefined) return writeEntry('replace', current, newKey());
      pending.current?.cancel();
      const replacement: { key: string; entry: NavigationEntry; cancel(): void } = { key: stored.key, entry: current, cancel: () => undefined };
      pending.current = replacement;
      replacement.cancel = whenIdle(flushPending);
      return;
    }
    flushPending();
    writeEntry('push', current, newKey());
    lastPushAt.current = Date.now();
  }, [current.view, current.pageId, settled]);

  useEffect(() => {
    const onPop = (event: PopStateEvent) => {
      // The entry Back or Forward arrived at is a place visited, not one pushed a moment ago on the way to a page: the
      // next entry follows it, even when it comes within SETTLE_MS of the last push (a quick Back, then another row
      // of the queue, had replaced the queue's entry instead of following it — reviewLoop e2e, on a fast machine).
      lastPushAt.current = 0;
      const left = pending.current;
      if (left) {
        pending.current = null;
        left.cancel();
        corrections.current.set(left.key, left.entry);
      }
      let entry: NavigationEntry | null = entryOf(event.state);
      if (!entry) return;
      const key = (entry as StoredEntry).key;
      const corrected = key === undefined ? undefined : corrections.current.get(key);
      if (corrected) {
        corrections.current.delete(key);
        writeEntry('replace', corrected, key);
        entry = corrected;
      }
      restoring.current = { entry, until: Date.now() + RESTORE_TIMEOUT_MS };
      restoreLatest.current(entry);
    };
    window.addEventListener('popstate', onPop);
    // A reload or a closed window writes what is pending, so the entry it comes back to is the page last shown.
    window.addEventListener('pagehide', flushPending);
    return () => {
      window.removeEventListener('popstate', onPop);
      window.removeEventListener('pagehide', flushPending);
      pending.current?.cancel();
    };
  }, []);
}

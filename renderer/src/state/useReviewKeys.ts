/**
 * Review shortcuts, caught in the capture phase before the editor sees them: paging (Alt+↑ / Alt+↓ anywhere — this
 * replaces Monaco's "move line" — and PageUp / PageDown outside text, where they scroll) and saving. The keys
 * themselves are in the keymap (logic/keymap.ts), which the shortcut sheet lists.
 */
import { useEffect, useRef } from 'react';
import { commandForKey, type KeyHandlers } from '../logic/keymap.js';
import { keyContext } from './keyContext.js';

interface ReviewKeys {
  onPrevious(): void;
  onNext(): void;
  onSave(): void;
  /** Alt+← / Alt+→: the app's own history of pages and views (useNavigationHistory). */
  onBack(): void;
  onForward(): void;
}

/** `enabled` false (the review screen is hidden behind another view) leaves every key alone. */
export function useReviewKeys(handlers: ReviewKeys, enabled = true): void {
  const latest = useRef(handlers);
  latest.current = handlers;

  useEffect(() => {
    if (!enabled) return;
    const run: KeyHandlers<'review'> = {
      'previous-page': () => latest.current.onPrevious(),
      'next-page': () => latest.current.onNext(),
      save: () => latest.current.onSave(),
      'history-back': () => latest.current.onBack(),
      'history-forward': () => latest.current.onForward(),
    };
    const onKey = (event: KeyboardEvent) => {
      const command = commandForKey('review', event, keyContext(event.target));
      if (!command) return;
      event.preventDefault();
      event.stopPropagation();
      run[command]();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [enabled]);
}

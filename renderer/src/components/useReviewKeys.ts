/**
 * Review shortcuts, caught in the capture phase before the editor sees them:
 *  - Ctrl/Cmd+S saves now;
 *  - Alt+↑ / Alt+↓ go to the previous / next page anywhere (this replaces Monaco's "move line");
 *  - PageUp / PageDown do the same outside text fields and the editor (where they scroll, as expected).
 */
import { useEffect, useRef } from 'react';

interface ReviewKeys {
  onPrevious(): void;
  onNext(): void;
  onSave(): void;
}

function isTextTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.closest('.monaco-editor')) return true;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/** `enabled` false (the review screen is hidden behind another view) leaves every key alone. */
export function useReviewKeys(handlers: ReviewKeys, enabled = true): void {
  const latest = useRef(handlers);
  latest.current = handlers;

  useEffect(() => {
    if (!enabled) return;
    const onKey = (event: KeyboardEvent) => {
      const command = event.ctrlKey || event.metaKey;
      let handled = true;
      if (command && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 's') latest.current.onSave();
      else if (event.altKey && !command && event.key === 'ArrowUp') latest.current.onPrevious();
      else if (event.altKey && !command && event.key === 'ArrowDown') latest.current.onNext();
      else if (!event.altKey && !command && event.key === 'PageUp' && !isTextTarget(event.target)) latest.current.onPrevious();
      else if (!event.altKey && !command && event.key === 'PageDown' && !isTextTarget(event.target)) latest.current.onNext();
      else handled = false;
      if (handled) {
        event.preventDefault();
        event.stopPropagation();
      }
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [enabled]);
}

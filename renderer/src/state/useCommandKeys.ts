/**
 * The review screen's keys, bound to one listener group of the keymap (logic/keymap.ts, which the shortcut sheet and
 * the command palette print): caught on window in the capture phase, before Monaco sees them — so Alt+↑ / Alt+↓ page
 * even in the editor (replacing Monaco's "move line"), Ctrl+Shift+P opens the palette, F8 walks low-confidence words.
 * A key that runs a command goes no further; the others are left alone. The handlers may change every render: the
 * latest are called.
 */
import { useEffect, useRef } from 'react';
import { commandForKey, type KeyHandlers, type keyGroups } from '../logic/keymap.js';
import { keyContext } from './keyContext.js';

/** `enabled` false (the review screen behind another view, a dialog open) leaves every key alone. */
export function useCommandKeys<G extends keyof typeof keyGroups>(group: G, handlers: KeyHandlers<G>, enabled: boolean): void {
  const latest = useRef(handlers);
  latest.current = handlers;

  useEffect(() => {
    if (!enabled) return;
    const onKey = (event: KeyboardEvent) => {
      const command = commandForKey(group, event, keyContext(event.target));
      if (!command) return;
      event.preventDefault();
      event.stopPropagation();
      latest.current[command]();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [group, enabled]);
}

/**
 * Keys of the review tools, caught in the capture phase before Monaco sees them: Ctrl/Cmd+Shift+P opens the command
 * palette, F8 / Shift+F8 go to the next / previous low-confidence word (the keys are in logic/keymap.ts).
 */
import { useEffect, useRef } from 'react';
import { commandForKey, type KeyHandlers } from '../logic/keymap.js';
import { keyContext } from './keyContext.js';

interface ToolKeys {
  onPalette(): void;
  onMark(direction: 1 | -1): void;
}

export const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

export function useToolKeys(handlers: ToolKeys, enabled: boolean): void {
  const latest = useRef(handlers);
  latest.current = handlers;
  useEffect(() => {
    if (!enabled) return;
    const run: KeyHandlers<'tools'> = {
      palette: () => latest.current.onPalette(),
      'next-unsure': () => latest.current.onMark(1),
      'previous-unsure': () => latest.current.onMark(-1),
    };
    const onKey = (event: KeyboardEvent) => {
      const command = commandForKey('tools', event, keyContext(event.target));
      if (!command) return;
      event.preventDefault();
      event.stopPropagation();
      run[command]();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [enabled]);
}

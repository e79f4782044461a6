/**
 * Keys of the review tools, caught in the capture phase before Monaco sees them: Ctrl/Cmd+Shift+P opens the command
 * palette, F8 / Shift+F8 go to the next / previous low-confidence word.
 */
import { useEffect, useRef } from 'react';

interface ToolKeys {
  onPalette(): void;
  onMark(direction: 1 | -1): void;
}

export const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
/** The command key as shown in shortcuts. */
export const commandKey = isMac ? '⌘' : 'Ctrl';

export function useToolKeys(handlers: ToolKeys, enabled: boolean): void {
  const latest = useRef(handlers);
  latest.current = handlers;
  useEffect(() => {
    if (!enabled) return;
    const onKey = (event: KeyboardEvent) => {
      const command = event.ctrlKey || event.metaKey;
      if (command && event.shiftKey && !event.altKey && event.key.toLowerCase() === 'p') latest.current.onPalette();
      else if (event.key === 'F8' && !command && !event.altKey) latest.current.onMark(event.shiftKey ? -1 : 1);
      else return;
      event.preventDefault();
      event.stopPropagation();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [enabled]);
}

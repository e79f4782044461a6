/** Where a key was pressed, for the keymap's scopes (logic/keymap.ts). */
import type { KeyContext } from '../logic/keymap.js';

/** In the Markdown editor or any text box. */
export function isTextTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.closest('.monaco-editor')) return true;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

export function keyContext(target: EventTarget | null): KeyContext {
  return {
    inText: isTextTarget(target),
    inFieldsPanel: target instanceof HTMLElement && target.closest('.fields-panel') !== null,
  };
}

/** Shortcuts print ⌘ and ⌥ on a Mac (the keymap's `command` is Ctrl elsewhere). */
export const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

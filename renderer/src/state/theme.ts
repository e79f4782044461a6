/**
 * Light and dark themes. The preference (system, light, dark) is kept in localStorage — a display preference of this
 * browser profile, not of the project — and "system" follows `prefers-color-scheme` as it changes. The resolved theme
 * is set as `data-theme` on <html> (the CSS variables switch on it) and as Monaco's theme (global to every editor).
 */
import { useSyncExternalStore } from 'react';
import { monaco } from '../editor/monacoSetup.js';

export type ThemePreference = 'system' | 'light' | 'dark';
export type Theme = 'light' | 'dark';

const storageKey = 'recto.theme';
const listeners = new Set<() => void>();
const media = typeof window !== 'undefined' && window.matchMedia ? window.matchMedia('(prefers-color-scheme: dark)') : null;

function readPreference(): ThemePreference {
  try {
    const stored = localStorage.getItem(storageKey);
    return stored === 'light' || stored === 'dark' ? stored : 'system';
  } catch {
    return 'system';
  }
}

let preference: ThemePreference = readPreference();

export function resolvedTheme(): Theme {
  if (preference !== 'system') return preference;
  return media?.matches ? 'dark' : 'light';
}

export function currentMonacoTheme(): string {
  return resolvedTheme() === 'dark' ? 'recto-dark' : 'recto-light';
}

function apply(): void {
  const theme = resolvedTheme();
  document.documentElement.dataset['theme'] = theme;
  document.documentElement.style.colorScheme = theme;
  monaco.editor.setTheme(currentMonacoTheme());
  for (const listener of listeners) listener();
}

export function setThemePreference(next: ThemePreference): void {
  preference = next;
  try {
    if (next === 'system') localStorage.removeItem(storageKey);
    else localStorage.setItem(storageKey, next);
  } catch {
    // Storage refused (private mode): the choice holds for this session.
  }
  apply();
}

/** Light → dark → light, from whatever is showing now. */
export function toggleTheme(): void {
  setThemePreference(resolvedTheme() === 'dark' ? 'light' : 'dark');
}

/** Applies the stored preference and follows the system's changes; called once at start. */
export function initTheme(): void {
  media?.addEventListener('change', () => preference === 'system' && apply());
  apply();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

export function useTheme(): { preference: ThemePreference; theme: Theme } {
  const pref = useSyncExternalStore(subscribe, () => preference);
  const theme = useSyncExternalStore(subscribe, resolvedTheme);
  return { preference: pref, theme };
}

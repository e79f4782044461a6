import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ShortcutSheet } from '../components/fields/ShortcutSheet.js';
import { chordLabel, chordsLabel, commandForKey, keyGroups, reviewKeymap, shortcutOf, type Chord, type KeyBinding, type KeyContext } from './keymap.js';

const bindings = reviewKeymap as readonly KeyBinding[];
const groups = Object.keys(keyGroups) as (keyof typeof keyGroups)[];

const eventFor = (chord: Chord) => ({ key: chord.key, ctrlKey: Boolean(chord.command), metaKey: false, shiftKey: Boolean(chord.shift), altKey: Boolean(chord.alt) });
/** A place where the chord's scope holds. */
function contextFor(scope: KeyBinding['scope']): KeyContext {
  if (scope === 'field') return { inText: false, inFieldsPanel: true, onField: true };
  if (scope === 'fields-panel') return { inText: false, inFieldsPanel: true };
  return { inText: false, inFieldsPanel: false };
}

describe('review keymap', () => {
  it('puts every bound command in exactly one listener group, and nothing else there', () => {
    const grouped = groups.flatMap((group) => [...keyGroups[group]] as string[]);
    const bound = bindings.filter((binding) => !binding.browser).map((binding) => binding.command);
    expect([...grouped].sort()).toEqual([...bound].sort());
    expect(new Set(bindings.map((binding) => binding.command)).size).toBe(bindings.length);
  });

  it('runs each listed chord as its own command, in its own group only', () => {
    for (const binding of bindings.filter((b) => !b.browser)) {
      for (const chord of binding.chords) {
        const where = contextFor(chord.scope ?? binding.scope);
        const claims = groups.map((group) => commandForKey(group, eventFor(chord), where)).filter((command) => command !== null);
        expect(claims, `${binding.command}: ${chordLabel(chord)}`).toEqual([binding.command]);
      }
    }
  });

  it('keeps scoped keys where they belong', () => {
    const typing = { inText: true, inFieldsPanel: false };
    expect(commandForKey('review', eventFor({ key: 'PageDown' }), typing)).toBeNull();
    expect(commandForKey('review', eventFor({ key: 'ArrowDown', alt: true }), typing)).toBe('next-page');
    expect(commandForKey('fieldsPane', eventFor({ key: '?' }), typing)).toBeNull();
    // `?` is Shift+/ on most layouts: Shift is part of the character, not compared.
    expect(commandForKey('fieldsPane', { ...eventFor({ key: '?' }), shiftKey: true }, { inText: false, inFieldsPanel: false })).toBe('shortcuts');
    expect(commandForKey('fieldsPane', eventFor({ key: 'z', command: true }), { inText: false, inFieldsPanel: false })).toBeNull();
    expect(commandForKey('fieldsPane', eventFor({ key: 'Z', command: true }), { inText: false, inFieldsPanel: true })).toBe('undo-field');
    expect(commandForKey('fieldsPane', { ...eventFor({ key: 'Enter', command: true }), ctrlKey: false, metaKey: true }, typing)).toBe('approve-next');
    expect(commandForKey('fieldCell', eventFor({ key: 'Enter' }), { inText: false, inFieldsPanel: true })).toBeNull();
  });

  it('prints chords as people read them', () => {
    expect(chordLabel({ key: 'Enter', command: true, shift: true })).toBe('Ctrl+Shift+Enter');
    expect(chordLabel({ key: 's', command: true }, true)).toBe('⌘+S');
    expect(shortcutOf('next-page')).toBe('Alt+↓ / PageDown');
  });

  it('is what the shortcut sheet shows: one row per binding, with its keys and what it does', () => {
    const html = renderToStaticMarkup(createElement(ShortcutSheet, { onClose: () => undefined }));
    const rows = [...html.matchAll(/<tr data-command="([^"]+)"><td><kbd>([^<]*)<\/kbd><\/td><td>([^<]*)<\/td>/g)];
    const unescape = (text: string) => text.replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>');
    expect(rows.map((row) => [row[1], unescape(row[2]!), unescape(row[3]!)])).toEqual(bindings.map((binding) => [binding.command, chordsLabel(binding), binding.does]));
  });

  it('is the only place the review screen compares keys: every shortcut listener binds through it', () => {
    // Every source of the renderer, as text (Vite's glob import; tests excluded).
    const sources = import.meta.glob<string>(['../**/*.ts', '../**/*.tsx', '!../**/*.test.ts'], { query: '?raw', import: 'default', eager: true });
    const listeners = Object.entries(sources).filter(([, source]) => /addEventListener\('keydown', \w+, true\)/.test(source));
    // One listener for every group (useCommandKeys); a second copy of the wiring is a second place to keep in step.
    expect(listeners.map(([file]) => file)).toEqual(['../state/useCommandKeys.ts']);
    for (const [file, source] of listeners) {
      expect(source, file).toMatch(/commandForKey\(/);
      expect(source, file).not.toMatch(/\bevent\.key\b/);
    }
  });
});

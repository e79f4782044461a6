/**
 * The review screen's keymap, the one source of truth for its shortcuts: the key listeners bind through
 * `commandForKey` (they compare no keys of their own), and the shortcut sheet (`?`) and the command palette print
 * the same entries with `chordsLabel`. A shortcut added here is on the sheet; one that is not here is bound nowhere.
 *
 * Each binding belongs to exactly one listener group (`keyGroups`), whose handler record is typed over it, so a
 * binding without a handler does not compile.
 */

/** Where a chord counts. */
export type KeyScope =
  /** Anywhere on the review screen, even while typing in the editor (caught before Monaco). */
  | 'anywhere'
  /** Not while typing in the editor or a text box (there PageUp scrolls and `?` types). */
  | 'outside-text'
  /** With the focus in the fields panel, not in a text box. */
  | 'fields-panel'
  /** On a focused field value. */
  | 'field';

export interface Chord {
  /** `KeyboardEvent.key`; single letters match either case. */
  key: string;
  /** Ctrl, or ⌘ on a Mac. */
  command?: boolean;
  shift?: boolean;
  alt?: boolean;
  /** Overrides the binding's scope for this chord. */
  scope?: KeyScope;
}

export interface KeyBinding {
  command: string;
  chords: Chord[];
  scope: KeyScope;
  does: string;
  /** Where the same command is without the keyboard (nothing is reachable only by key). */
  alsoAs: string;
  /** The browser's own focus order does this (Tab); listed, not bound. */
  browser?: true;
}

export const reviewKeymap = [
  { command: 'approve-next', chords: [{ key: 'Enter', command: true }], scope: 'anywhere', does: 'Approve the page and open the next page needing attention', alsoAs: 'Approve ▸ in the review bar' },
  { command: 'reject', chords: [{ key: 'Enter', command: true, shift: true }], scope: 'anywhere', does: 'Reject the page with a reason', alsoAs: 'Reject… in the review bar' },
  { command: 'next-attention', chords: [{ key: 'n', alt: true }], scope: 'anywhere', does: 'Next page needing attention (within the curation filter)', alsoAs: 'Next needing attention ▸' },
  { command: 'previous-attention', chords: [{ key: 'p', alt: true }], scope: 'anywhere', does: 'Previous page needing attention (within the curation filter)', alsoAs: 'The command palette' },
  { command: 'next-failing-rule', chords: [{ key: 'r', alt: true }], scope: 'anywhere', does: 'Next failing rule (selects its fields and boxes)', alsoAs: 'A failing rule in the fields panel' },
  { command: 'zoom-to-field', chords: [{ key: 'z', alt: true }], scope: 'anywhere', does: 'Zoom the page to the selected or focused field (Fit width / Fit page return)', alsoAs: 'Click a field' },
  { command: 'focus-fields', chords: [{ key: 'f', command: true, shift: true }], scope: 'anywhere', does: 'Show the invoice fields and focus the first one', alsoAs: 'Fields strip / › in the panel' },
  { command: 'next-field', chords: [{ key: 'Tab' }], scope: 'fields-panel', does: 'Next field in the panel', alsoAs: 'Click a field', browser: true },
  { command: 'previous-field', chords: [{ key: 'Tab', shift: true }], scope: 'fields-panel', does: 'Previous field in the panel', alsoAs: 'Click a field', browser: true },
  { command: 'edit-field', chords: [{ key: 'Enter' }, { key: 'F2' }], scope: 'field', does: 'Edit the focused field (Enter saves, Escape cancels)', alsoAs: 'Double-click a field' },
  { command: 'undo-field', chords: [{ key: 'z', command: true }], scope: 'fields-panel', does: 'Undo the last field correction', alsoAs: '↶ in the panel' },
  { command: 'previous-page', chords: [{ key: 'ArrowUp', alt: true }, { key: 'PageUp', scope: 'outside-text' }], scope: 'anywhere', does: 'Previous page', alsoAs: '‹ above the page' },
  { command: 'next-page', chords: [{ key: 'ArrowDown', alt: true }, { key: 'PageDown', scope: 'outside-text' }], scope: 'anywhere', does: 'Next page', alsoAs: '› above the page' },
  { command: 'history-back', chords: [{ key: 'ArrowLeft', alt: true }], scope: 'anywhere', does: 'Back to the page or view shown before', alsoAs: 'The browser\'s Back' },
  { command: 'history-forward', chords: [{ key: 'ArrowRight', alt: true }], scope: 'anywhere', does: 'Forward again', alsoAs: 'The browser\'s Forward' },
  { command: 'save', chords: [{ key: 's', command: true }], scope: 'anywhere', does: 'Save the Markdown now', alsoAs: 'Saved automatically; Save now in the palette' },
  { command: 'next-unsure', chords: [{ key: 'F8' }], scope: 'anywhere', does: 'Next low-confidence word', alsoAs: 'The command palette' },
  { command: 'previous-unsure', chords: [{ key: 'F8', shift: true }], scope: 'anywhere', does: 'Previous low-confidence word', alsoAs: 'The command palette' },
  { command: 'palette', chords: [{ key: 'p', command: true, shift: true }, { key: 'F1' }], scope: 'anywhere', does: 'Command palette (every action by name, with its key)', alsoAs: '—' },
  { command: 'shortcuts', chords: [{ key: '?' }], scope: 'outside-text', does: 'This sheet', alsoAs: 'Shortcuts in the review bar' },
] as const satisfies readonly KeyBinding[];

export type KeyCommand = (typeof reviewKeymap)[number]['command'];

/** Which listener handles which commands (each bound command in exactly one group; each group bound by useCommandKeys but the field cell's). */
export const keyGroups = {
  /** The workspace: paging and saving. */
  review: ['previous-page', 'next-page', 'history-back', 'history-forward', 'save'],
  /** useReviewTools: the review tools. */
  tools: ['palette', 'next-unsure', 'previous-unsure'],
  /** useFieldsPane: the invoice review. */
  fieldsPane: ['approve-next', 'reject', 'next-attention', 'previous-attention', 'next-failing-rule', 'zoom-to-field', 'focus-fields', 'undo-field', 'shortcuts'],
  /** FieldValueCell: a focused field. */
  fieldCell: ['edit-field'],
} as const satisfies Record<string, readonly KeyCommand[]>;

/** The handlers of one listener group: one per command, none missing. */
export type KeyHandlers<G extends keyof typeof keyGroups> = Record<(typeof keyGroups)[G][number], () => void>;

export interface KeyLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

/** Where the key was pressed. */
export interface KeyContext {
  /** In the editor or a text box. */
  inText: boolean;
  /** Inside the fields panel. */
  inFieldsPanel: boolean;
  /** On a focused field value. */
  onField?: boolean;
}

/** Punctuation such as `?` already says whether Shift was held (it differs per layout): Shift is not compared. */
const shiftIsInTheKey = (key: string) => key.length === 1 && !/[a-z0-9]/i.test(key);

function chordMatches(chord: Chord, event: KeyLike): boolean {
  const sameKey = chord.key.length === 1 ? chord.key.toLowerCase() === event.key.toLowerCase() : chord.key === event.key;
  if (!sameKey) return false;
  if (Boolean(chord.command) !== (event.ctrlKey || event.metaKey)) return false;
  if (Boolean(chord.alt) !== event.altKey) return false;
  return shiftIsInTheKey(chord.key) || Boolean(chord.shift) === event.shiftKey;
}

function inScope(scope: KeyScope, where: KeyContext): boolean {
  switch (scope) {
    case 'anywhere':
      return true;
    case 'outside-text':
      return !where.inText;
    case 'fields-panel':
      return where.inFieldsPanel && !where.inText;
    case 'field':
      return where.onField === true;
  }
}

/** The command of `group` that this key press runs here, or null. */
export function commandForKey<G extends keyof typeof keyGroups>(group: G, event: KeyLike, where: KeyContext): (typeof keyGroups)[G][number] | null {
  const commands: readonly string[] = keyGroups[group];
  for (const binding of reviewKeymap as readonly KeyBinding[]) {
    if (!commands.includes(binding.command) || binding.browser) continue;
    if (binding.chords.some((chord) => chordMatches(chord, event) && inScope(chord.scope ?? binding.scope, where))) {
      return binding.command as (typeof keyGroups)[G][number];
    }
  }
  return null;
}

const keyNames: Record<string, string> = { ArrowUp: '↑', ArrowDown: '↓', ArrowLeft: '←', ArrowRight: '→' };

/** One chord as printed: `Ctrl+Shift+Enter`, `Alt+↓`, `⌘+S` on a Mac. */
export function chordLabel(chord: Chord, mac = false): string {
  const parts: string[] = [];
  if (chord.command) parts.push(mac ? '⌘' : 'Ctrl');
  if (chord.alt) parts.push(mac ? '⌥' : 'Alt');
  if (chord.shift) parts.push('Shift');
  parts.push(keyNames[chord.key] ?? (chord.key.length === 1 ? chord.key.toUpperCase() : chord.key));
  return parts.join('+');
}

const scopeNotes: Partial<Record<KeyScope, string>> = { 'fields-panel': ' (in the fields panel)', field: ' (on a field)' };

/** A binding's chords as printed on the sheet: `Alt+↓ or PageDown`. */
export function chordsLabel(binding: KeyBinding, mac = false): string {
  return binding.chords.map((chord) => chordLabel(chord, mac)).join(' or ') + (scopeNotes[binding.scope] ?? '');
}

/** The printed chords of one command (for the palette and button titles). */
export function shortcutOf(command: KeyCommand, mac = false): string {
  const binding = (reviewKeymap as readonly KeyBinding[]).find((candidate) => candidate.command === command)!;
  return binding.chords.map((chord) => chordLabel(chord, mac)).join(' / ');
}

/**
 * The review screen's keyboard shortcuts, listed once: the shortcut sheet (`?`) shows this list, and every entry has
 * a button or menu item as well, so nothing is reachable only by key.
 */
export interface Shortcut {
  keys: string;
  does: string;
  /** Where the same command is without the keyboard. */
  button: string;
}

export const reviewShortcuts: Shortcut[] = [
  { keys: 'Ctrl+Enter', does: 'Approve the page and open the next page needing attention', button: 'Approve ▸ in the review bar' },
  { keys: 'Ctrl+Shift+Enter', does: 'Reject the page with a reason', button: 'Reject… in the review bar' },
  { keys: 'Alt+N', does: 'Next page needing attention', button: 'Next needing attention ▸' },
  { keys: 'Alt+R', does: 'Next failing rule (selects its fields and boxes)', button: 'A failing rule in the fields panel' },
  { keys: 'Ctrl+Shift+F', does: 'Show the invoice fields and focus the first one', button: 'Fields strip / › in the panel' },
  { keys: 'Tab / Shift+Tab', does: 'Next / previous field in the panel', button: 'Click a field' },
  { keys: 'Enter or F2', does: 'Edit the focused field (Enter saves, Escape cancels)', button: 'Double-click a field' },
  { keys: 'Ctrl+Z (in the panel)', does: 'Undo the last field correction', button: '↶ in the panel' },
  { keys: 'Alt+↑ / Alt+↓, PageUp / PageDown', does: 'Previous / next page', button: '‹ › above the page' },
  { keys: 'Ctrl+S', does: 'Save the Markdown now', button: 'Saved automatically' },
  { keys: '?', does: 'This sheet', button: 'Shortcuts in the review bar' },
];

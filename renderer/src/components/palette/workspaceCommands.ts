/**
 * Every action of the review screen as a palette command, with the shortcut that also runs it. Each command the
 * keymap binds is here under the keymap's own name and prints the keymap's chords (workspaceCommands.test.ts).
 */
import type { ReviewStatus } from '../../../../app/model/page.js';
import { setThemePreference, toggleTheme } from '../../state/theme.js';
import type { EditorTab } from '../EditorPane.js';
import type { Command } from './CommandPalette.js';
import { shortcutOf, type KeyHandlers } from '../../logic/keymap.js';
import { isMac } from '../../state/keyContext.js';

export interface WorkspaceActions {
  hasPage: boolean;
  setReviewStatus(status: ReviewStatus): void;
  /** Approves every page of the document, its exceptions listed first (approval/approvalGate.ts). */
  approveDocument?(): void;
  step(delta: number): void;
  save(): void;
  reread(): void;
  showTab(tab: EditorTab): void;
  nextMark(direction: 1 | -1): void;
  showView(view: 'curation' | 'evaluate' | 'suppliers'): void;
  /** Opens the file chooser (native dialog in Electron, the upload picker in the browser). */
  importFiles(): void;
  /** The curation view with its export dialog open. */
  exportCorpus(): void;
  /** The curation view with the invoices export dialog open. */
  exportInvoices(): void;
  history(direction: 'back' | 'forward'): void;
  /** Opens the table grid again: the table's at the cursor, else the page's first table. */
  openGrid(): void;
  /** The invoice review's actions (useFieldsPane), bound to keys there. */
  fields: KeyHandlers<'fieldsPane'>;
}

export function workspaceCommands(actions: WorkspaceActions): Command[] {
  const page = actions.hasPage;
  const { fields } = actions;
  const key = (command: Parameters<typeof shortcutOf>[0]) => shortcutOf(command, isMac);
  return [
    { id: 'approve', title: 'Approve page (stay here)', enabled: page, run: () => actions.setReviewStatus('approved') },
    { id: 'approve-document', title: 'Approve whole document', enabled: page && !!actions.approveDocument, run: () => actions.approveDocument?.() },
    { id: 'approve-next', title: 'Approve page and open the next needing attention', shortcut: key('approve-next'), enabled: page, run: fields['approve-next'] },
    { id: 'reject', title: 'Reject page with a reason…', shortcut: key('reject'), enabled: page, run: fields.reject },
    { id: 'next-attention', title: 'Next page needing attention', shortcut: key('next-attention'), run: fields['next-attention'] },
    { id: 'previous-attention', title: 'Previous page needing attention', shortcut: key('previous-attention'), run: fields['previous-attention'] },
    { id: 'next-failing-rule', title: 'Next failing rule', shortcut: key('next-failing-rule'), enabled: page, run: fields['next-failing-rule'] },
    { id: 'zoom-to-field', title: 'Zoom the page to the field', shortcut: key('zoom-to-field'), enabled: page, run: fields['zoom-to-field'] },
    { id: 'focus-fields', title: 'Show the invoice fields and focus the first', shortcut: key('focus-fields'), enabled: page, run: fields['focus-fields'] },
    { id: 'undo-field', title: 'Undo the last field correction', shortcut: key('undo-field'), enabled: page, run: fields['undo-field'] },
    { id: 'shortcuts', title: 'Keyboard shortcuts', shortcut: key('shortcuts'), run: fields.shortcuts },
    { id: 'history-back', title: 'Back (page or view shown before)', shortcut: key('history-back'), run: () => actions.history('back') },
    { id: 'history-forward', title: 'Forward', shortcut: key('history-forward'), run: () => actions.history('forward') },
    { id: 'in-review', title: 'Mark page as in review', enabled: page, run: () => actions.setReviewStatus('in-review') },
    { id: 'unreviewed', title: 'Mark page as unreviewed', enabled: page, run: () => actions.setReviewStatus('unreviewed') },
    { id: 'next-page', title: 'Next page', shortcut: key('next-page'), run: () => actions.step(1) },
    { id: 'previous-page', title: 'Previous page', shortcut: key('previous-page'), run: () => actions.step(-1) },
    { id: 'save', title: 'Save now', shortcut: key('save'), enabled: page, run: actions.save },
    { id: 'next-unsure', title: 'Next low-confidence word', shortcut: key('next-unsure'), enabled: page, run: () => actions.nextMark(1) },
    { id: 'previous-unsure', title: 'Previous low-confidence word', shortcut: key('previous-unsure'), enabled: page, run: () => actions.nextMark(-1) },
    { id: 'show-markdown', title: 'Show the Markdown', enabled: page, run: () => actions.showTab('markdown') },
    { id: 'show-preview', title: 'Show the preview', enabled: page, run: () => actions.showTab('preview') },
    { id: 'show-changes', title: 'Show changes and revision history', enabled: page, run: () => actions.showTab('changes') },
    { id: 'open-grid', title: 'Open the table grid', enabled: page, run: actions.openGrid },
    { id: 'reread', title: 'Read this page again', enabled: page, run: actions.reread },
    { id: 'import', title: 'Import PDFs or images…', run: actions.importFiles },
    { id: 'export', title: 'Export the corpus…', run: actions.exportCorpus },
    { id: 'export-invoices', title: 'Export invoices…', run: actions.exportInvoices },
    { id: 'curation', title: 'Go to Curation', run: () => actions.showView('curation') },
    { id: 'evaluate', title: 'Go to Evaluate', run: () => actions.showView('evaluate') },
    { id: 'suppliers', title: 'Go to Suppliers', run: () => actions.showView('suppliers') },
    { id: 'theme-toggle', title: 'Toggle dark / light theme', run: toggleTheme },
    { id: 'theme-dark', title: 'Theme: dark', run: () => setThemePreference('dark') },
    { id: 'theme-light', title: 'Theme: light', run: () => setThemePreference('light') },
    { id: 'theme-system', title: 'Theme: follow the system', run: () => setThemePreference('system') },
  ];
}

/** Every action of the review screen as a palette command, with the shortcut that also runs it. */
import type { ReviewStatus } from '../../../../app/model/page.js';
import { setThemePreference, toggleTheme } from '../../state/theme.js';
import type { EditorTab } from '../EditorPane.js';
import type { Command } from './CommandPalette.js';
import { shortcutOf } from '../../logic/keymap.js';
import { isMac } from './useToolKeys.js';

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
  showView(view: 'curation' | 'evaluate'): void;
  /** Opens the file chooser (native dialog in Electron, the upload picker in the browser). */
  importFiles(): void;
}

export function workspaceCommands(actions: WorkspaceActions): Command[] {
  const page = actions.hasPage;
  return [
    { id: 'approve', title: 'Approve page', enabled: page, run: () => actions.setReviewStatus('approved') },
    { id: 'approve-document', title: 'Approve whole document', enabled: page && !!actions.approveDocument, run: () => actions.approveDocument?.() },
    { id: 'reject', title: 'Reject page', enabled: page, run: () => actions.setReviewStatus('rejected') },
    { id: 'in-review', title: 'Mark page as in review', enabled: page, run: () => actions.setReviewStatus('in-review') },
    { id: 'unreviewed', title: 'Mark page as unreviewed', enabled: page, run: () => actions.setReviewStatus('unreviewed') },
    { id: 'next-page', title: 'Next page', shortcut: shortcutOf('next-page', isMac), run: () => actions.step(1) },
    { id: 'previous-page', title: 'Previous page', shortcut: shortcutOf('previous-page', isMac), run: () => actions.step(-1) },
    { id: 'save', title: 'Save now', shortcut: shortcutOf('save', isMac), enabled: page, run: actions.save },
    { id: 'next-unsure', title: 'Next low-confidence word', shortcut: shortcutOf('next-unsure', isMac), enabled: page, run: () => actions.nextMark(1) },
    { id: 'previous-unsure', title: 'Previous low-confidence word', shortcut: shortcutOf('previous-unsure', isMac), enabled: page, run: () => actions.nextMark(-1) },
    { id: 'show-markdown', title: 'Show the Markdown', enabled: page, run: () => actions.showTab('markdown') },
    { id: 'show-preview', title: 'Show the preview', enabled: page, run: () => actions.showTab('preview') },
    { id: 'show-changes', title: 'Show changes and revision history', enabled: page, run: () => actions.showTab('changes') },
    { id: 'reread', title: 'Read this page again', enabled: page, run: actions.reread },
    { id: 'import', title: 'Import PDFs or images…', run: actions.importFiles },
    { id: 'curation', title: 'Go to Curation', run: () => actions.showView('curation') },
    { id: 'evaluate', title: 'Go to Evaluate', run: () => actions.showView('evaluate') },
    { id: 'theme-toggle', title: 'Toggle dark / light theme', run: toggleTheme },
    { id: 'theme-dark', title: 'Theme: dark', run: () => setThemePreference('dark') },
    { id: 'theme-light', title: 'Theme: light', run: () => setThemePreference('light') },
    { id: 'theme-system', title: 'Theme: follow the system', run: () => setThemePreference('system') },
  ];
}

import { describe, expect, it, vi } from 'vitest';

// The theme switch drives Monaco, which needs a window; the palette's list does not.
vi.mock('../../state/theme.js', () => ({ toggleTheme: () => undefined, setThemePreference: () => undefined }));
import { reviewKeymap, shortcutOf, type KeyBinding } from '../../logic/keymap.js';
import { workspaceCommands, type WorkspaceActions } from './workspaceCommands.js';

const nothing = () => undefined;
const actions: WorkspaceActions = {
  hasPage: true, setReviewStatus: nothing, step: nothing, save: nothing, reread: nothing, showTab: nothing, nextMark: nothing, showView: nothing,
  importFiles: nothing, exportCorpus: nothing, exportInvoices: nothing, history: nothing, openGrid: nothing,
  fields: { 'approve-next': nothing, reject: nothing, 'next-attention': nothing, 'previous-attention': nothing, 'next-failing-rule': nothing, 'zoom-to-field': nothing, 'focus-fields': nothing, 'undo-field': nothing, shortcuts: nothing },
};

/** Bound to one focused field or done by the browser, not commands of the screen; the palette is the palette. */
const notScreenCommands = new Set(['edit-field', 'palette']);

describe('the command palette', () => {
  const commands = workspaceCommands(actions);
  it('lists every command of the keymap with its key', () => {
    for (const binding of reviewKeymap as readonly KeyBinding[]) {
      if (binding.browser || notScreenCommands.has(binding.command)) continue;
      const command = commands.find((candidate) => candidate.id === binding.command);
      expect(command, binding.command).toBeDefined();
      expect(command!.shortcut, binding.command).toBe(shortcutOf(binding.command as Parameters<typeof shortcutOf>[0]));
    }
  });
  it('offers the actions an analyst looks for by name', () => {
    const titles = commands.map((command) => command.title.toLowerCase());
    for (const wanted of ['next page needing attention', 'next failing rule', 'keyboard shortcuts', 'export the corpus', 'export invoices', 'go to suppliers', 'open the table grid']) {
      expect(titles.some((title) => title.includes(wanted)), wanted).toBe(true);
    }
  });
  it('takes the analyst to the Suppliers view and to the invoices export', () => {
    const showView = vi.fn();
    const exportInvoices = vi.fn();
    const list = workspaceCommands({ ...actions, showView, exportInvoices });
    list.find((command) => command.id === 'suppliers')!.run();
    list.find((command) => command.id === 'export-invoices')!.run();
    expect(showView).toHaveBeenCalledWith('suppliers');
    expect(exportInvoices).toHaveBeenCalledOnce();
  });
  it('opens the table grid again after it was closed', () => {
    const openGrid = vi.fn();
    workspaceCommands({ ...actions, openGrid }).find((command) => command.id === 'open-grid')!.run();
    expect(openGrid).toHaveBeenCalledOnce();
  });
  it('opens with F1 as well as Ctrl+Shift+P', () => {
    expect(shortcutOf('palette')).toBe('Ctrl+Shift+P / F1');
  });
});

/**
 * Monaco with only what a Markdown editor needs: the editor API, the contributions analysts use (find/replace,
 * clipboard, folding, multi-cursor, word and line operations, bracket matching), the Markdown grammar, and the editor
 * worker. The full `editor.main` would also pull every language and the TypeScript worker (several MB) for nothing.
 * The worker is bundled by Vite (`?worker`), so it loads from 'self' under the CSP (`worker-src 'self' blob:`).
 */
import * as monaco from 'monaco-editor/editor/editor.api';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import 'monaco-editor/editor/browser/coreCommands';
import 'monaco-editor/editor/contrib/bracketMatching/browser/bracketMatching';
import 'monaco-editor/editor/contrib/clipboard/browser/clipboard';
import 'monaco-editor/editor/contrib/contextmenu/browser/contextmenu';
import 'monaco-editor/editor/contrib/cursorUndo/browser/cursorUndo';
import 'monaco-editor/editor/contrib/find/browser/findController';
import 'monaco-editor/editor/contrib/folding/browser/folding';
import 'monaco-editor/editor/contrib/linesOperations/browser/linesOperations';
import 'monaco-editor/editor/contrib/multicursor/browser/multicursor';
import 'monaco-editor/editor/contrib/wordHighlighter/browser/wordHighlighter';
import 'monaco-editor/editor/contrib/wordOperations/browser/wordOperations';
import 'monaco-editor/editor/contrib/dnd/browser/dnd';
import 'monaco-editor/editor/contrib/hover/browser/hoverContribution';
import 'monaco-editor/features/find/register';
import 'monaco-editor/languages/definitions/markdown/register';

self.MonacoEnvironment = {
  getWorker: () => new EditorWorker(),
};

monaco.editor.defineTheme('recto-light', {
  base: 'vs',
  inherit: true,
  rules: [],
  colors: {
    'editor.background': '#ffffff',
    'editorLineNumber.foreground': '#a0a7b4',
    'editor.lineHighlightBackground': '#f5f7fa',
  },
});

monaco.editor.defineTheme('recto-dark', {
  base: 'vs-dark',
  inherit: true,
  rules: [],
  colors: {
    'editor.background': '#181b20',
    'editorLineNumber.foreground': '#5c6370',
    'editor.lineHighlightBackground': '#20242b',
  },
});

export { monaco };

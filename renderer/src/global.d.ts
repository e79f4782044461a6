import type { editor } from 'monaco-editor/editor/editor.api';
import type { RectoBridge } from './rectoBridge.js';

declare global {
  interface Window {
    /** Present only in the Electron shell (set by the preload). */
    rectoBridge?: RectoBridge;
    /** The Markdown editor, exposed in every build so e2e tests can read and set the text reliably. */
    __rectoEditor?: editor.IStandaloneCodeEditor;
  }
}

export {};

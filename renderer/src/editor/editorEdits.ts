/**
 * Edits that the review tools (grid, formula editor, restore) make to the Markdown go through Monaco as ordinary edits:
 * they land on the undo stack, move the element spans and reach the autosave exactly like typing does.
 */
import { monaco } from './monacoSetup.js';

export type MarkdownEditorInstance = monaco.editor.IStandaloneCodeEditor;

export function rangeOf(model: monaco.editor.ITextModel, start: number, end: number): monaco.Range {
  const from = model.getPositionAt(start);
  const to = model.getPositionAt(end);
  return new monaco.Range(from.lineNumber, from.column, to.lineNumber, to.column);
}

/** Replaces [start, end) with `text` as one undoable edit; the cursor is left at `cursorAt` (an offset after the edit). */
export function replaceText(editor: MarkdownEditorInstance, start: number, end: number, text: string, cursorAt = start): void {
  const model = editor.getModel();
  if (!model || model.getValueInRange(rangeOf(model, start, end)) === text) return;
  editor.pushUndoStop();
  editor.executeEdits('recto-tools', [{ range: rangeOf(model, start, end), text, forceMoveMarkers: true }]);
  editor.pushUndoStop();
  const position = model.getPositionAt(cursorAt);
  editor.setSelection(new monaco.Selection(position.lineNumber, position.column, position.lineNumber, position.column));
}

/** Selects [start, end), scrolls it into the middle of the view and gives the editor the focus. */
export function selectAndReveal(editor: MarkdownEditorInstance, start: number, end: number): void {
  const model = editor.getModel();
  if (!model) return;
  const range = rangeOf(model, start, end);
  editor.setSelection(range);
  editor.revealRangeInCenterIfOutsideViewport(range);
  editor.focus();
}

/**
 * The Markdown editor's text and cursor as React state, for the review tools that follow the cursor (table grid,
 * formula editor) and count what is on the page (confidence marks). Read from Monaco's model directly, so the tools
 * see every keystroke (the editing session's `liveText` is throttled for the preview).
 */
import { useEffect, useState } from 'react';
import type { MarkdownEditorInstance } from '../editor/editorEdits.js';

export interface EditorState {
  text: string;
  cursor: number;
  /** Bumped when the model's text is replaced wholesale (another page loaded), not on edits. */
  generation: number;
}

export function useEditorState(editor: MarkdownEditorInstance | null): EditorState {
  const [state, setState] = useState<EditorState>({ text: '', cursor: 0, generation: 0 });
  useEffect(() => {
    const model = editor?.getModel();
    if (!editor || !model) return;
    const read = (generationStep: number) =>
      setState((previous) => ({
        text: model.getValue(),
        cursor: model.getOffsetAt(editor.getPosition() ?? { lineNumber: 1, column: 1 }),
        generation: previous.generation + generationStep,
      }));
    read(1);
    const content = editor.onDidChangeModelContent((event) => read(event.isFlush ? 1 : 0));
    const cursor = editor.onDidChangeCursorPosition((event) =>
      setState((previous) => ({ ...previous, cursor: model.getOffsetAt(event.position) })),
    );
    return () => {
      content.dispose();
      cursor.dispose();
    };
  }, [editor]);
  return state;
}

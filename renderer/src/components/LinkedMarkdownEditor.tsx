/**
 * The Markdown side of the box↔cursor link: the editor, told which element's text to highlight and reveal, telling
 * where its cursor is; beside it the panel that follows the cursor (table grid, formula). What links the two sides is
 * useBoxCursorLink; the text and its autosave are the editing session's.
 */
import { MarkdownEditor } from './MarkdownEditor.js';
import { CursorPanels, type GridAsk, type PageImage } from './tools/CursorPanels.js';
import type { MarkdownEditorInstance } from '../editor/editorEdits.js';
import type { TextChange } from '../logic/spanMap.js';
import type { useBoxCursorLink } from '../state/useBoxCursorLink.js';
import type { EditorContent } from '../state/useEditingSession.js';

interface LinkedMarkdownEditorProps {
  link: ReturnType<typeof useBoxCursorLink>;
  content: EditorContent | null;
  onChange(text: string, changes: TextChange[]): void;
  /** The editor is on screen (the Markdown tab, a page with text); hidden, it keeps its state. */
  shown: boolean;
  hasText: boolean;
  editor: MarkdownEditorInstance | null;
  onEditor(editor: MarkdownEditorInstance | null): void;
  image: PageImage | null;
  /** Opens the table grid again after it was closed (CursorPanels). */
  openGrid?: GridAsk | null;
}

export function LinkedMarkdownEditor({ link, content, onChange, shown, hasText, editor, onEditor, image, openGrid }: LinkedMarkdownEditorProps) {
  return (
    <div className="editor-split">
      <div className="editor-host">
        <MarkdownEditor
          onEditor={onEditor}
          content={content}
          readOnly={!hasText}
          onChange={onChange}
          onCursor={link.onCursor}
          selectedSpan={link.selectedSpan}
          hoveredSpan={link.hoveredSpan}
          reveal={link.reveal}
          hidden={!shown}
        />
      </div>
      {shown && <CursorPanels editor={editor} elements={link.elements} image={image} openGrid={openGrid} />}
    </div>
  );
}

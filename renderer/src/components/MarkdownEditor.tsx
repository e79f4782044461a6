/**
 * Monaco holding the page's Markdown. The parent decides what text is loaded (`content.key` changes → replace the
 * text); edits flow up as the new text plus the exact changes (for keeping element spans aligned); the cursor's
 * offset flows up for highlighting the box under it. Element spans are shown as decorations.
 */
import { useEffect, useLayoutEffect, useRef } from 'react';
import type { Span } from '../../../app/model/extraction.js';
import { monaco } from '../editor/monacoSetup.js';
import { currentMonacoTheme } from '../state/theme.js';
import type { TextChange } from '../logic/spanMap.js';
import type { EditorContent } from '../state/useEditingSession.js';

interface MarkdownEditorProps {
  content: EditorContent | null;
  readOnly: boolean;
  onChange(text: string, changes: TextChange[]): void;
  onCursor(offset: number): void;
  selectedSpan: Span | null;
  hoveredSpan: Span | null;
  /** A request to move the cursor to a span; `serial` makes repeated requests for the same span count. */
  reveal: { span: Span; serial: number } | null;
  hidden: boolean;
  /** Hands the Monaco instance to the review tools (grid, formula editor, confidence marks), null when it goes. */
  onEditor?(editor: monaco.editor.IStandaloneCodeEditor | null): void;
}

export function MarkdownEditor(props: MarkdownEditorProps) {
  const container = useRef<HTMLDivElement>(null);
  const editorRef = useRef<monaco.editor.IStandaloneCodeEditor | null>(null);
  const decorations = useRef<monaco.editor.IEditorDecorationsCollection | null>(null);
  const applyingContent = useRef(false);
  const callbacks = useRef(props);
  callbacks.current = props;

  // Layout effects (creation, then content), so a page's text is in the editor before the browser paints the page.
  useLayoutEffect(() => {
    const model = monaco.editor.createModel('', 'markdown');
    const editor = monaco.editor.create(container.current!, {
      model,
      theme: currentMonacoTheme(),
      automaticLayout: true,
      wordWrap: 'on',
      minimap: { enabled: false },
      fontSize: 13,
      lineHeight: 20,
      fontFamily: 'ui-monospace, "SF Mono", "Cascadia Code", Menlo, Consolas, "DejaVu Sans Mono", monospace',
      scrollBeyondLastLine: false,
      renderLineHighlight: 'line',
      padding: { top: 10, bottom: 10 },
      unicodeHighlight: { ambiguousCharacters: false },
      occurrencesHighlight: 'off',
      stickyScroll: { enabled: false },
      lineNumbersMinChars: 3,
      tabSize: 2,
    });
    editorRef.current = editor;
    decorations.current = editor.createDecorationsCollection();
    window.__rectoEditor = editor;
    callbacks.current.onEditor?.(editor);

    const contentListener = editor.onDidChangeModelContent((event) => {
      if (applyingContent.current) return;
      const changes: TextChange[] = event.changes.map((change) => ({
        offset: change.rangeOffset,
        removedLength: change.rangeLength,
        insertedLength: change.text.length,
      }));
      callbacks.current.onChange(model.getValue(), changes);
    });
    const cursorListener = editor.onDidChangeCursorPosition((event) => {
      if (applyingContent.current) return;
      callbacks.current.onCursor(model.getOffsetAt(event.position));
    });
    return () => {
      contentListener.dispose();
      cursorListener.dispose();
      if (window.__rectoEditor === editor) delete window.__rectoEditor;
      callbacks.current.onEditor?.(null);
      editor.dispose();
      model.dispose();
    };
  }, []);

  // Replace the text only when the parent asks (content.key), never on every render.
  const contentKey = props.content?.key ?? null;
  useLayoutEffect(() => {
    const editor = editorRef.current;
    const model = editor?.getModel();
    if (!editor || !model) return;
    const text = callbacks.current.content?.text ?? '';
    if (model.getValue() === text) return;
    applyingContent.current = true;
    try {
      model.setValue(text);
      editor.setScrollTop(0);
    } finally {
      applyingContent.current = false;
    }
  }, [contentKey]);

  useEffect(() => {
    editorRef.current?.updateOptions({ readOnly: props.readOnly });
  }, [props.readOnly]);

  useEffect(() => {
    const editor = editorRef.current;
    const model = editor?.getModel();
    if (!editor || !model || !decorations.current) return;
    const toRange = (span: Span) => {
      const start = model.getPositionAt(span[0]);
      const end = model.getPositionAt(span[1]);
      return new monaco.Range(start.lineNumber, start.column, end.lineNumber, end.column);
    };
    const next: monaco.editor.IModelDeltaDecoration[] = [];
    if (props.selectedSpan && props.selectedSpan[1] > props.selectedSpan[0]) {
      next.push({ range: toRange(props.selectedSpan), options: { className: 'span-selected', isWholeLine: false } });
    }
    if (props.hoveredSpan && props.hoveredSpan[1] > props.hoveredSpan[0]) {
      next.push({
        range: toRange(props.hoveredSpan),
        options: { className: 'span-hovered', overviewRuler: { color: '#3b82f6', position: monaco.editor.OverviewRulerLane.Center } },
      });
    }
    decorations.current.set(next);
  }, [props.selectedSpan, props.hoveredSpan, props.content?.key]);

  useEffect(() => {
    const editor = editorRef.current;
    const model = editor?.getModel();
    if (!editor || !model || !props.reveal) return;
    const start = model.getPositionAt(props.reveal.span[0]);
    editor.setSelection(new monaco.Selection(start.lineNumber, start.column, start.lineNumber, start.column));
    editor.revealPositionInCenterIfOutsideViewport(start);
    editor.focus();
  }, [props.reveal]);

  return <div className="editor" data-testid="editor" ref={container} hidden={props.hidden} />;
}

/**
 * Confidence marks in the editor and on the page: every word or element below the threshold is underlined in the
 * Markdown (Monaco decorations, which then move with the analyst's edits) and tinted on the page image. F8 / Shift+F8
 * jump to the next / previous mark; a mark counts as looked at once the cursor has been in it, and the status bar
 * counts the marks not yet looked at.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Extraction } from '../../../app/model/extraction.js';
import { rangeOf, selectAndReveal, type MarkdownEditorInstance } from '../editor/editorEdits.js';
import { monaco } from '../editor/monacoSetup.js';
import { confidenceMarks, neighbourMark, type ConfidenceMark } from '../logic/confidenceMarks.js';
import { mapSpansThroughEdit } from '../logic/spanMap.js';

const thresholdKey = 'recto.confidenceThreshold';
/**
 * Default threshold: tesseract's word confidences on clean scans sit mostly above 0.85; below 0.6 a word is more often
 * misread than not. Text-layer words carry ~1 and are never marked.
 */
export const defaultConfidenceThreshold = 0.6;

function storedThreshold(): number {
  try {
    const value = Number(localStorage.getItem(thresholdKey));
    return value > 0 && value <= 1 ? value : defaultConfidenceThreshold;
  } catch {
    return defaultConfidenceThreshold;
  }
}

export interface ConfidenceMarksState {
  marks: ConfidenceMark[];
  /** Indexes into `marks` of those the cursor has been in. */
  visited: ReadonlySet<number>;
  /** Marks with a place in the text (the others are only tinted on the page). */
  placedCount: number;
  left: number;
  threshold: number;
  setThreshold(value: number): void;
  next(direction: 1 | -1): void;
}

/** No mark visited yet; a set that is already empty stays the same state, so a page switch renders nothing for it. */
const noneVisited = (previous: ReadonlySet<number>): ReadonlySet<number> => (previous.size === 0 ? previous : new Set<number>());

export function useConfidenceMarks(editor: MarkdownEditorInstance | null, extraction: Extraction | null): ConfidenceMarksState {
  const [threshold, setThresholdState] = useState(storedThreshold);
  const marks = useMemo(() => (extraction ? confidenceMarks(extraction, threshold) : []), [extraction, threshold]);
  const placed = useMemo(() => marks.map((mark, index) => ({ mark, index })).filter(({ mark }) => mark.span[1] > mark.span[0]), [marks]);
  const [visited, setVisited] = useState<ReadonlySet<number>>(new Set());
  const collection = useRef<monaco.editor.IEditorDecorationsCollection | null>(null);
  // Lay the marks on the text as loaded (a saved revision may differ from the engine's Markdown: map through the diff),
  // and again when the editor's text is replaced wholesale without a new reading (the page's text reloaded).
  const markdown = extraction?.markdown ?? null;
  useEffect(() => {
    const model = editor?.getModel();
    if (!editor || !model) return;
    const decorations = editor.createDecorationsCollection();
    collection.current = decorations;
    const lay = () => {
      if (markdown !== null) {
        const spans = mapSpansThroughEdit(markdown, model.getValue(), placed.map(({ mark }) => mark.span));
        decorations.set(
          placed.map(({ mark }, i) => ({
            range: rangeOf(model, spans[i]![0], spans[i]![1]),
            options: {
              inlineClassName: 'low-confidence',
              hoverMessage: { value: `Confidence ${Math.round(mark.confidence * 100)} % (below ${Math.round(threshold * 100)} %) · F8 next` },
              stickiness: monaco.editor.TrackedRangeStickiness.NeverGrowsWhenTypingAtEdges,
              overviewRuler: { color: '#d97706', position: monaco.editor.OverviewRulerLane.Right },
            },
          })),
        );
      }
      setVisited(noneVisited);
    };
    lay();
    // Laid again in a task of its own, not from the editor's event: a page switch replaces the text (in the editor's
    // layout effect) before this effect runs again with the new page's reading, and that run cancels this one — laying
    // the old page's marks on the new text, and rendering the review screen once more for it, inside the switch, would
    // be work thrown away.
    let relay: ReturnType<typeof setTimeout> | undefined;
    const listener = editor.onDidChangeModelContent((event) => {
      if (!event.isFlush) return;
      clearTimeout(relay);
      relay = setTimeout(lay, 0);
    });
    return () => {
      listener.dispose();
      clearTimeout(relay);
      decorations.clear();
      if (collection.current === decorations) collection.current = null;
    };
  }, [editor, placed, markdown, threshold]);

  const currentSpans = useCallback((): [number, number][] => {
    const model = editor?.getModel();
    if (!model || !collection.current) return [];
    return collection.current.getRanges().map((range) => [model.getOffsetAt(range.getStartPosition()), model.getOffsetAt(range.getEndPosition())]);
  }, [editor]);

  // The cursor inside a mark: it has been looked at. Followed from Monaco directly (no React state per cursor move).
  useEffect(() => {
    const model = editor?.getModel();
    if (!editor || !model) return;
    const listener = editor.onDidChangeCursorPosition((event) => {
      const offset = model.getOffsetAt(event.position);
      const inside = currentSpans().findIndex(([start, end]) => end > start && offset >= start && offset <= end);
      const index = inside >= 0 ? placed[inside]?.index : undefined;
      if (index !== undefined) setVisited((previous) => (previous.has(index) ? previous : new Set(previous).add(index)));
    });
    return () => listener.dispose();
  }, [editor, currentSpans, placed]);

  const next = useCallback(
    (direction: 1 | -1) => {
      if (!editor) return;
      const model = editor.getModel();
      const selection = editor.getSelection();
      if (!model || !selection) return;
      const spans = currentSpans();
      const target = neighbourMark(spans, [model.getOffsetAt(selection.getStartPosition()), model.getOffsetAt(selection.getEndPosition())], direction);
      if (target === null) return;
      selectAndReveal(editor, spans[target]![0], spans[target]![1]);
    },
    [editor, currentSpans],
  );

  const setThreshold = useCallback((value: number) => {
    const clamped = Math.min(1, Math.max(0.01, value));
    setThresholdState(clamped);
    try {
      localStorage.setItem(thresholdKey, String(clamped));
    } catch {
      // Not stored: the value holds for this session.
    }
  }, []);

  const placedVisited = placed.filter(({ index }) => visited.has(index)).length;
  return { marks, visited, placedCount: placed.length, left: placed.length - placedVisited, threshold, setThreshold, next };
}

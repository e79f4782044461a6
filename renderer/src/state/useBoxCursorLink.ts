/**
 * The link between the boxes on the page image and the Markdown: the cursor in the text selects the element whose
 * span holds it (box ← cursor), and a click on a box selects it and reveals its text (box → cursor). Spans follow the
 * analyst's edits (the editing session keeps them aligned). A selection belongs to the page it was made on: a move
 * to another page (`navigation`) drops it in the same render.
 */
import { useCallback, useMemo, useRef, useState } from 'react';
import type { Extraction, Span } from '../../../app/model/extraction.js';
import { elementAtOffset } from '../logic/spanMap.js';

interface BoxCursorLinkOptions {
  extraction: Extraction | null;
  /** The elements' spans as moved by the analyst's edits (useEditingSession), by element index. */
  spans: readonly Span[];
  /** Counts moves to another page (usePageSelection). */
  navigation: number;
  /** A box with text was clicked: the text must be on screen to reveal it. */
  onShowText(): void;
}

export function useBoxCursorLink({ extraction, spans, navigation, onShowText }: BoxCursorLinkOptions) {
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [hoveredId, setHoveredId] = useState<string | null>(null);
  const [followSelection, setFollowSelection] = useState(false);
  const [reveal, setReveal] = useState<{ span: Span; serial: number } | null>(null);
  const [linkedNavigation, setLinkedNavigation] = useState(navigation);
  if (linkedNavigation !== navigation) {
    setLinkedNavigation(navigation);
    setSelectedId(null);
    setHoveredId(null);
    setReveal(null);
  }
  const onShowTextLatest = useRef(onShowText);
  onShowTextLatest.current = onShowText;

  // Elements with their spans moved along with the analyst's edits.
  const elements = useMemo(
    () => (extraction?.elements ?? []).map((element, index) => ({ ...element, span: spans[index] ?? element.span })),
    [extraction, spans],
  );
  const spanOf = (id: string | null) => elements.find((element) => element.id === id)?.span ?? null;

  const onCursor = useCallback(
    (offset: number) => {
      setSelectedId(elementAtOffset(elements, offset)?.id ?? null);
      setFollowSelection(true);
    },
    [elements],
  );
  const onBoxSelect = useCallback(
    (id: string) => {
      setSelectedId(id);
      setFollowSelection(false);
      const span = elements.find((element) => element.id === id)?.span;
      if (span && span[1] > span[0]) {
        onShowTextLatest.current();
        setReveal((previous) => ({ span, serial: (previous?.serial ?? 0) + 1 }));
      }
    },
    [elements],
  );

  return {
    elements,
    selectedId,
    hoveredId,
    setHoveredId,
    followSelection,
    reveal,
    selectedSpan: spanOf(selectedId),
    hoveredSpan: spanOf(hoveredId),
    selectedElement: elements.find((element) => element.id === selectedId) ?? null,
    onCursor,
    onBoxSelect,
  };
}

/**
 * The link between the boxes on the page image and the Markdown: the cursor in the text selects the element whose
 * span holds it (box ← cursor), and a click on a box selects it and reveals its text (box → cursor). Spans follow the
 * analyst's edits (the editing session keeps them aligned). A selection belongs to the page it was made on: after a
 * move to another page (`navigation`) it reads as none, in the very render that shows the new page.
 */
import { useCallback, useMemo, useRef, useState, type SetStateAction } from 'react';
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

interface PageLink {
  selectedId: string | null;
  hoveredId: string | null;
  reveal: { span: Span; serial: number } | null;
}

const noLink: PageLink = { selectedId: null, hoveredId: null, reveal: null };

export function useBoxCursorLink({ extraction, spans, navigation, onShowText }: BoxCursorLinkOptions) {
  // Kept with the move it was made after; a link of an earlier page reads as none (no extra render to clear it).
  const [stored, setStored] = useState<PageLink & { navigation: number }>({ ...noLink, navigation });
  const { selectedId, hoveredId, reveal } = stored.navigation === navigation ? stored : noLink;
  const [followSelection, setFollowSelection] = useState(false);
  const navigationLatest = useRef(navigation);
  navigationLatest.current = navigation;
  const onShowTextLatest = useRef(onShowText);
  onShowTextLatest.current = onShowText;
  /** Changes one part of this page's link. */
  const update = useCallback(<K extends keyof PageLink>(key: K, value: SetStateAction<PageLink[K]>) => {
    setStored((previous) => {
      const current = previous.navigation === navigationLatest.current ? previous : { ...noLink, navigation: navigationLatest.current };
      const next = typeof value === 'function' ? (value as (before: PageLink[K]) => PageLink[K])(current[key]) : value;
      return next === current[key] ? current : { ...current, [key]: next };
    });
  }, []);
  const setSelectedId = useCallback((id: string | null) => update('selectedId', id), [update]);
  const setHoveredId = useCallback((id: string | null) => update('hoveredId', id), [update]);
  const setReveal = useCallback((reveal: SetStateAction<PageLink['reveal']>) => update('reveal', reveal), [update]);

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
    [elements, setSelectedId],
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
    [elements, setSelectedId, setReveal],
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

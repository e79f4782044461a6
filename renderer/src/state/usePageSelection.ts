/**
 * Which page the review screen shows, and moving between pages: the page's data (its review, asked for ahead in a
 * cache shared with the fields), its editing session, and the ways to another page (the rail, Alt+↑/↓, another view's
 * request, an import). Leaving a page first saves its pending text; `navigation` counts the moves, so that what
 * belongs to one page (a selected box) is dropped with it (useBoxCursorLink).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { DocumentSummary } from '../../../app/model/page.js';
import { keepOrFirstPage, neighbourPage } from '../logic/pageNavigation.js';
import { useClient, useContractEvent, useOnReconnect } from './contractContext.js';
import { PageDataCache } from './pageDataCache.js';
import { useEditingSession } from './useEditingSession.js';
import { usePageReview } from './usePageReview.js';

interface PageSelectionOptions {
  documents: DocumentSummary[] | null;
  /** False while another view is shown: leaving for it saves what is pending. */
  active: boolean;
  /** A page another view asked to open; `serial` makes asking for the same page twice count. */
  openRequest: { pageId: string; serial: number } | null;
  /** Pending text was saved after the workspace was hidden. */
  onSavedWhileHidden(): void;
  /** The page on screen changed. */
  onPageShown?(pageId: string | null): void;
}

export function usePageSelection({ documents, active, openRequest, onSavedWhileHidden, onPageShown }: PageSelectionOptions) {
  const client = useClient();
  const [pageId, setPageId] = useState<string | null>(null);
  const [navigation, setNavigation] = useState(0);
  const pageData = useMemo(() => new PageDataCache(client), [client]);
  useContractEvent('page.updated', ({ pageId: updated, documentId }) => pageData.pageUpdated(updated, documentId));
  useContractEvent('documents.changed', () => pageData.clear());
  useOnReconnect(() => pageData.clear());
  const { review, error: reviewError, reload: reloadReview } = usePageReview(pageId, pageData);
  const session = useEditingSession(review, reloadReview);

  useEffect(() => {
    if (documents) setPageId((current) => keepOrFirstPage(documents, current));
  }, [documents]);

  const goToNow = (target: string | null) => {
    if (!target || target === pageId) return;
    session.flushThen(() => {
      setPageId(target);
      setNavigation((count) => count + 1);
    });
  };
  // One function for the workspace's life: the rail and the panels it is handed to (memoised) do not render again
  // because the editing session or the page changed.
  const goToLatest = useRef(goToNow);
  goToLatest.current = goToNow;
  const goTo = useCallback((target: string | null) => goToLatest.current(target), []);
  const step = useCallback((delta: number) => goTo(neighbourPage(documents ?? [], pageId, delta)), [documents, goTo, pageId]);

  const onPageShownLatest = useRef(onPageShown);
  onPageShownLatest.current = onPageShown;
  useEffect(() => onPageShownLatest.current?.(pageId), [pageId]);

  // Opening a page from the curation view.
  useEffect(() => {
    if (openRequest) goToLatest.current(openRequest.pageId);
  }, [openRequest]);

  // Leaving for another view saves what is pending, so that view sees the correction.
  const onSavedWhileHiddenLatest = useRef(onSavedWhileHidden);
  onSavedWhileHiddenLatest.current = onSavedWhileHidden;
  const saveNow = session.saveNow;
  useEffect(() => {
    if (!active) void saveNow().then(() => onSavedWhileHiddenLatest.current());
  }, [active, saveNow]);

  return { pageId, navigation, goTo, step, pageData, review, reviewError, reloadReview, session };
}

/**
 * Once a page is on screen, the pages the analyst is likely to open next are asked for (and decoded) ahead — in a task
 * of their own after the switch's: a switch by key runs its effects inside the keydown's task, before the page can be
 * painted, and the requests' main-thread work (a `fetch` each, a few ms on busy cores) does not need to be there. Not
 * cancelled when the analyst moves on first: the page after next is the one the next-but-one switch will want.
 */
export function usePrefetchAhead(pageData: PageDataCache, documents: DocumentSummary[] | null, shownPageId: string | null, nextNeedingAttention: string | null): void {
  useEffect(() => {
    if (!shownPageId || !documents) return;
    const ahead = [
      neighbourPage(documents, shownPageId, 1),
      neighbourPage(documents, shownPageId, -1),
      nextNeedingAttention,
      neighbourPage(documents, shownPageId, 2),
    ];
    setTimeout(() => pageData.prefetch(ahead), 0);
  }, [pageData, documents, shownPageId, nextNeedingAttention]);
}

/**
 * The editing session of the page on screen: which text the editor holds, the autosave that turns edits into
 * revisions, and the element spans kept aligned with the text as it changes.
 *
 * A refetched review (after our own save, or a `page.updated`) never overwrites text the analyst has not saved; it
 * replaces the editor's text only when the stored text changed underneath a clean editor (another window, a reread).
 *
 * A save that met a newer revision (conflict) holds the session until the analyst chooses in the three-way view:
 * `resolveConflict` sends the choice on the newer revision as base, and the editor goes on from what it saved.
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { PageReview } from '../../../app/contract/methods.js';
import { ContractError } from '../../../app/contract/client.js';
import { conflictDetailSchema, type ConflictChoice } from '../../../app/contract/conflicts.js';
import type { Extraction, Span } from '../../../app/model/extraction.js';
import { Autosave, type SaveState } from '../logic/autosave.js';
import { applyChangesToSpans, mapSpansThroughEdit, type TextChange } from '../logic/spanMap.js';
import { useClient } from './contractContext.js';

/** The text the editor is to hold. */
export interface EditorContent {
  /** Changes whenever the parent wants the editor's text replaced (another page, a reload from the store). */
  key: string;
  text: string;
}

function alignSpans(extraction: Extraction | null, text: string): Span[] {
  if (!extraction) return [];
  return mapSpansThroughEdit(
    extraction.markdown,
    text,
    extraction.elements.map((element) => element.span),
  );
}

export function useEditingSession(review: PageReview | null, onSaved: () => void) {
  const client = useClient();
  const session = useRef<{ pageId: string; autosave: Autosave } | null>(null);
  const textRef = useRef('');
  const generation = useRef(0);
  const [content, setContent] = useState<EditorContent | null>(null);
  const [saveState, setSaveState] = useState<SaveState | null>(null);
  const [spans, setSpans] = useState<Span[]>([]);
  const [live, setLive] = useState<{ pageId: string | null; text: string }>({ pageId: null, text: '' });
  const onSavedRef = useRef(onSaved);
  onSavedRef.current = onSaved;
  // Mine, where a choice met a newer revision again: the text that choice sent (kept as the new conflict), not the
  // editor's; null while mine is the editor's text (the autosave's own conflict, and any keystrokes after it).
  const chosenMine = useRef<string | null>(null);

  // A new review is taken in the render that brings it (React re-runs this component at once, before its children):
  // the new page's text, spans and save state are in that one render, which shows the page. Taken in an effect after
  // the commit, as before, it cost a second render of the whole review screen per page switch (~5 ms of main thread,
  // several times that on a busy machine). The autosave for a new text is made in the layout effect below.
  const [taken, setTaken] = useState<PageReview | null>(null);
  const starting = useRef<{ pageId: string; text: string; parentId: string | null } | null>(null);
  if (review !== taken) {
    setTaken(review);
    if (review) {
      const pageId = review.page.id;
      const extraction = review.extraction;
      const storedText = review.latestRevision?.text ?? extraction?.markdown ?? null;
      const current = session.current;
      const busy = current !== null && (current.autosave.hasUnsavedChanges || current.autosave.currentState.kind === 'saving');
      // A refetch of the page being edited never overwrites unsaved text; the same text keeps the session.
      if (current?.pageId === pageId && storedText !== null && (busy || storedText === textRef.current)) {
        setSpans(alignSpans(extraction, textRef.current));
      } else {
        start(pageId, storedText, review.latestRevision?.id ?? null, extraction);
      }
    }
  }

  /** The editor holds `storedText` (null: none yet) on `parentId`; its autosave is made in the layout effect below. */
  function start(pageId: string, storedText: string | null, parentId: string | null, extraction: Extraction | null) {
    const text = storedText ?? '';
    chosenMine.current = null;
    starting.current = { pageId, text, parentId };
    textRef.current = text;
    setLive({ pageId, text });
    setContent(storedText === null ? null : { key: `${pageId}#${++generation.current}`, text });
    setSaveState(storedText === null ? null : { kind: 'saved' });
    setSpans(alignSpans(extraction, text));
  }

  // The autosave of a text just taken, before the browser paints it (edits can only come after).
  useLayoutEffect(() => {
    const next = starting.current;
    if (!next) return;
    starting.current = null;
    session.current?.autosave.dispose();
    const { pageId } = next;
    const autosave: Autosave = new Autosave({
      savedText: next.text,
      parentId: next.parentId,
      save: (text, parentId) => client.call('revisions.save', { pageId, text, parentId }),
      onState: (state) => {
        if (session.current?.autosave === autosave) setSaveState(state);
      },
      onSaved: () => onSavedRef.current(),
    });
    session.current = { pageId, autosave };
  });

  useEffect(() => () => session.current?.autosave.dispose(), []);

  // The spans and the live text (the preview, the invoice rules) follow each edit in one render: React batches what
  // one editor change sets. Not held back to the next frame (as it was): that left each keystroke waiting up to a frame
  // before its render could start, and moving the spans apart from the text cost a second render per keystroke.
  const onChange = useCallback((text: string, changes: TextChange[]) => {
    textRef.current = text;
    setSpans((previous) => applyChangesToSpans(previous, changes));
    setLive((previous) => (previous.text === text ? previous : { pageId: previous.pageId, text }));
    session.current?.autosave.edit(text);
  }, []);

  const saveNow = useCallback(async () => {
    await session.current?.autosave.flush();
  }, []);

  /**
   * Saves pending text, then runs `next` — unless the save failed, so no correction is dropped silently, or met a
   * newer revision: the choice in the three-way view comes first (leaving would hide the kept text from its author).
   */
  const flushThen = useCallback((next: () => void) => {
    const autosave = session.current?.autosave;
    if (autosave?.currentState.kind === 'conflict') return;
    if (!autosave || !autosave.hasUnsavedChanges) {
      next();
      return;
    }
    void autosave.flush().then(() => {
      const after = autosave.currentState.kind;
      if (after !== 'error' && after !== 'conflict') next();
    });
  }, []);

  // Closing the window with unsaved text: ask the browser to confirm.
  useEffect(() => {
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (session.current?.autosave.hasUnsavedChanges) {
        void session.current.autosave.flush();
        event.preventDefault();
      }
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, []);

  // The render that brings a new page runs before the layout effect above: its live text is the new page's stored text
  // already, not the page just left (which would make the invoice rules re-read the old page's tables against the new
  // page's reading, then again one render later — ~5 ms of main thread per page switch).
  const liveText = review && live.pageId !== review.page.id ? (review.latestRevision?.text ?? review.extraction?.markdown ?? '') : live.text;

  /**
   * The analyst's choice in the three-way view: `theirs` keeps the newer revision, `mine` the editor's text (the kept
   * one, or what was typed after it, sent as a merge), `merged` the text given. Saved on theirs as base; a newer one
   * since is a conflict again, shown in its place. Resolves to an error message, or null when chosen.
   */
  const takenRef = useRef(taken);
  takenRef.current = taken;
  const resolveConflict = useCallback(
    async (choice: ConflictChoice, mergedText?: string): Promise<string | null> => {
      const current = session.current;
      const state = current?.autosave.currentState;
      if (!current || state?.kind !== 'conflict') return null;
      const { conflict } = state;
      const typed = chosenMine.current ?? current.autosave.text;
      const [sent, text] = choice === 'mine' && typed !== conflict.text ? (['merged', typed] as const) : ([choice, choice === 'merged' ? mergedText : undefined] as const);
      try {
        const reply = await client.call('revisions.resolveConflict', { conflictId: conflict.id, choice: sent, text, parentId: conflict.theirs.id });
        if (session.current !== current) return null;
        const saved = reply.revision ?? conflict.theirs;
        start(current.pageId, saved.text, saved.id, takenRef.current?.extraction ?? null);
        onSavedRef.current();
        return null;
      } catch (error) {
        const again = error instanceof ContractError && error.code === 'conflict' ? conflictDetailSchema.safeParse(error.detail) : null;
        if (again?.success && again.data.kind === 'revision') {
          chosenMine.current = again.data.conflict.text;
          current.autosave.conflicted(again.data.conflict);
          return null;
        }
        return error instanceof Error ? error.message : String(error);
      }
    },
    [client],
  );

  /** Mine in the three-way view. */
  const conflictMine = saveState?.kind === 'conflict' ? (chosenMine.current ?? liveText) : null;

  return { content, saveState, spans, liveText, onChange, saveNow, flushThen, resolveConflict, conflictMine };
}

/**
 * The invoice fields of the document under review (`fields.document`: the engine's fields merged over its pages, the
 * analyst's field revisions), the values the rules see (corrections applied; the on-screen page's line items re-read
 * once its Markdown tables are edited) and the rule results — recomputed on every field edit and every change of the
 * Markdown (pure and fast: no request on the way).
 *
 * Each save names the field's latest revision the analyst saw (`basedOn`); one that met a newer revision (another
 * analyst, another window) is kept on the main side as a conflict, listed here until the analyst chooses.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { DocumentFieldsReply, FieldRevision } from '../../../app/contract/fields.js';
import { ContractError } from '../../../app/contract/client.js';
import { conflictDetailSchema, type FieldConflict } from '../../../app/contract/conflicts.js';
import type { PageReview } from '../../../app/contract/methods.js';
import {
  applyFieldCorrections,
  correctedPaths,
  detectNumberFormat,
  emptyFieldValues,
  linesForText,
  documentRuleResults,
  replacePageLines,
  reviewRules,
  type FieldCorrection,
  type FieldValue,
  undoTarget,
} from '../../../app/invoice/review/index.js';
import { useClient, useContractEvent, useOnReconnect } from './contractContext.js';
import type { PageDataCache } from './pageDataCache.js';
import { keepIfSame } from '../logic/sameAnswer.js';

const toCorrections = (revisions: readonly FieldRevision[]): FieldCorrection[] =>
  revisions.map((r) => ({ field: r.field, value: r.toEngine ? { engine: true as const } : r.newValue }));

const PENDING = 'pending-';

/** The field's latest stored revision among those shown (null: none, the engine's value). */
const latestOf = (revisions: readonly FieldRevision[], field: string): string | null =>
  revisions.findLast((r) => r.field === field && !r.id.startsWith(PENDING))?.id ?? null;

/** The field conflict a refusal carries, or null for any other error. */
function fieldConflictOf(error: unknown): FieldConflict | null {
  if (!(error instanceof ContractError) || error.code !== 'conflict') return null;
  const detail = conflictDetailSchema.safeParse(error.detail);
  return detail.success && detail.data.kind === 'field' ? detail.data.conflict : null;
}

/**
 * `selectedPageId`: the page being opened, taken from `cache` (asked for ahead, or now, in parallel with the page's
 * review, not after it); the values shown are those of `review`'s page.
 */
export function useFieldReview(selectedPageId: string | null, review: PageReview | null, liveText: string, cache: PageDataCache) {
  const client = useClient();
  const pageId = review?.page.id ?? null;
  const documentId = review?.page.documentId ?? null;
  const [reply, setReply] = useState<(DocumentFieldsReply & { pageId: string }) | null>(null);
  const [error, setError] = useState<string | null>(null);
  const wanted = useRef(selectedPageId);
  wanted.current = selectedPageId;

  const reload = useCallback(async () => {
    const requested = wanted.current;
    if (!requested) return setReply(null);
    try {
      const next = await client.call('fields.document', { pageId: requested });
      // The same fields again (the reply to our own save already shown) keep the same object: nothing recomputes.
      const shown = { ...next, pageId: requested };
      if (wanted.current === requested) setReply((previous) => keepIfSame(previous, shown));
    } catch (caught) {
      if (wanted.current === requested) setError(caught instanceof Error ? caught.message : String(caught));
    }
  }, [client]);

  // Fields fetched ahead are taken in the render that selects the page (as usePageReview: no extra render).
  const cachedNow = selectedPageId && reply?.pageId !== selectedPageId ? cache.peekFields(selectedPageId) : null;
  if (cachedNow) setReply({ ...cachedNow, pageId: selectedPageId! });
  useEffect(() => {
    setError(null);
    if (!selectedPageId) return setReply(null);
    if (cache.peekFields(selectedPageId)) return;
    cache.fields(selectedPageId).then(
      (next) => wanted.current === selectedPageId && setReply({ ...next, pageId: selectedPageId }),
      (caught: unknown) => wanted.current === selectedPageId && setError(caught instanceof Error ? caught.message : String(caught)),
    );
  }, [selectedPageId, cache]);
  // A re-read or another window's edit announces itself: the fields follow (not on every new review object).
  useContractEvent('page.updated', (payload) => {
    if (payload.documentId === documentId) void reload();
  });
  useOnReconnect(() => void reload());

  // The render that opens a page fetched ahead shows its fields at once (the state catches up in the effect above).
  const cachedFields = reply && reply.pageId === pageId ? null : cache.peekFields(pageId);
  const current = reply && reply.pageId === pageId ? reply : cachedFields;
  const engine = current?.engine ?? null;
  const revisions = useMemo(() => current?.revisions ?? [], [current]);
  const corrections = useMemo(() => toCorrections(revisions), [revisions]);
  const extraction = review?.extraction ?? null;
  const text = liveText || extraction?.markdown || '';
  const values = useMemo(() => {
    if (!engine && revisions.length === 0) return null;
    let base = engine?.values ?? emptyFieldValues();
    const range = engine?.pageLines.find((r) => r.pageId === pageId);
    if (engine && range && pageId) {
      const pageLines = engine.values.lines.slice(range.start, range.start + range.count);
      const lines = linesForText({ ...engine.values, lines: pageLines }, extraction?.markdown ?? '', text);
      if (lines !== pageLines) base = replacePageLines(engine.values, engine.pageLines, pageId, lines);
    }
    return applyFieldCorrections(base, corrections);
  }, [engine, revisions.length, corrections, extraction, text, pageId]);
  const documentText = `${text}\n\n${current?.otherPagesText ?? ''}`;
  const format = useMemo(() => detectNumberFormat(Object.values(engine?.sources ?? {}).map((s) => s.text)), [engine]);
  const corrected = useMemo(() => correctedPaths(corrections), [corrections]);
  // One list with the queue's: where the XML is the invoice, its own values are the EN 16931 engine's to check.
  const rules = useMemo(() => (values ? documentRuleResults(reviewRules(values, documentText, format), engine?.origin ?? 'page', corrected) : []), [values, documentText, format, engine, corrected]);

  // The revisions as last shown or saved, for the base of the next save; saves go one after another, so each one's
  // base is the one before it (two quick edits of one field are no conflict with each other).
  const revisionsRef = useRef<readonly FieldRevision[]>(revisions);
  revisionsRef.current = revisions;
  const saving = useRef<Promise<void>>(Promise.resolve());
  // Where an edit box was opened, the field's revision then: the edit is based on the value it showed, even if a
  // newer one arrived while the analyst typed (that one would otherwise be written over unseen).
  const editBases = useRef(new Map<string, string | null>());
  // (With a save of the same field still on its way, the box shows that save's value: the base is what it stores.)
  const beginEdit = useCallback((field: string) => {
    const shown = revisionsRef.current;
    if (shown.some((r) => r.field === field && r.id.startsWith(PENDING))) editBases.current.delete(field);
    else editBases.current.set(field, latestOf(shown, field));
  }, []);
  // A box closed without a save leaves no base behind (a later "use XML" is based on what it shows then).
  const endEdit = useCallback((field: string) => editBases.current.delete(field), []);
  const [conflicts, setConflicts] = useState<FieldConflict[]>([]);
  useEffect(() => setConflicts([]), [documentId]);

  const save = useCallback(
    (field: string, value: FieldValue): Promise<void> => {
      if (!pageId) return Promise.resolve();
      // Shown at once; the stored revision replaces the optimistic one when the reply comes.
      const optimistic: FieldRevision = {
        id: `${PENDING}${Date.now()}`, pageId, parentId: null, field, oldValue: null, newValue: value, toEngine: false, undoes: null, author: '', createdAt: new Date().toISOString(),
      };
      setReply((r) => (r ? { ...r, revisions: [...r.revisions, optimistic] } : r));
      const opened = editBases.current.get(field);
      editBases.current.delete(field);
      const run = async () => {
        // The base the edit box opened on; else (a "use XML", a second edit of the same field) the latest saved.
        const basedOn = opened !== undefined ? opened : latestOf(revisionsRef.current, field);
        try {
          const saved = await client.call('fields.save', { pageId, field, value, basedOn });
          revisionsRef.current = [...revisionsRef.current, saved];
          setReply((r) => (r ? { ...r, revisions: r.revisions.map((x) => (x.id === optimistic.id ? saved : x)) } : r));
          setError(null);
        } catch (caught) {
          const conflict = fieldConflictOf(caught);
          if (conflict) setConflicts((shown) => [...shown.filter((c) => c.field !== conflict.field), conflict]);
          else setError(caught instanceof Error ? caught.message : String(caught));
          void reload();
        }
      };
      saving.current = saving.current.then(run);
      return saving.current;
    },
    [client, pageId, reload],
  );

  /** The analyst's choice for a field conflict: theirs kept, or mine saved on theirs. A newer value since is a conflict again. */
  const resolveConflict = useCallback(
    async (conflict: FieldConflict, choice: 'theirs' | 'mine') => {
      try {
        await client.call('fields.resolveConflict', { conflictId: conflict.id, choice, basedOn: conflict.theirs.id });
        setConflicts((shown) => shown.filter((c) => c.id !== conflict.id));
        setError(null);
      } catch (caught) {
        const again = fieldConflictOf(caught);
        if (again) setConflicts((shown) => [...shown.filter((c) => c.id !== conflict.id && c.field !== again.field), again]);
        else setError(caught instanceof Error ? caught.message : String(caught));
      }
      void reload();
    },
    [client, reload],
  );

  const undo = useCallback(async () => {
    if (!pageId) return;
    // The correction on screen is the one taken back (a newer one from elsewhere is refused, not undone unseen).
    const expected = undoTarget(revisionsRef.current.filter((r) => !r.id.startsWith(PENDING)))?.id ?? null;
    await client.call('fields.undo', { pageId, expected }).catch((caught: unknown) => setError(caught instanceof Error ? caught.message : String(caught)));
    void reload();
  }, [client, pageId, reload]);

  return { pageId, engine, values, rules, format, corrected, revisions, save, undo, error, documentText, conflicts, resolveConflict, beginEdit, endEdit };
}

export type FieldReview = ReturnType<typeof useFieldReview>;

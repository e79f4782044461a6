/**
 * The invoice fields of the document under review (`fields.document`: the engine's fields merged over its pages, the
 * analyst's field revisions), the values the rules see (corrections applied; the on-screen page's line items re-read
 * once its Markdown tables are edited) and the rule results — recomputed on every field edit and every change of the
 * Markdown (pure and fast: no request on the way).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { DocumentFieldsReply, FieldRevision } from '../../../app/contract/fields.js';
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
} from '../../../app/invoice/review/index.js';
import { useClient, useContractEvent, useOnReconnect } from './contractContext.js';
import type { PageDataCache } from './pageDataCache.js';
import { keepIfSame } from '../logic/sameAnswer.js';

const toCorrections = (revisions: readonly FieldRevision[]): FieldCorrection[] =>
  revisions.map((r) => ({ field: r.field, value: r.toEngine ? { engine: true as const } : r.newValue }));

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

  const save = useCallback(
    async (field: string, value: FieldValue) => {
      if (!pageId) return;
      // Shown at once; the stored revision replaces the optimistic one when the reply comes.
      const optimistic: FieldRevision = {
        id: `pending-${Date.now()}`, pageId, parentId: null, field, oldValue: null, newValue: value, toEngine: false, undoes: null, author: '', createdAt: new Date().toISOString(),
      };
      setReply((r) => (r ? { ...r, revisions: [...r.revisions, optimistic] } : r));
      try {
        const saved = await client.call('fields.save', { pageId, field, value });
        setReply((r) => (r ? { ...r, revisions: r.revisions.map((x) => (x.id === optimistic.id ? saved : x)) } : r));
        setError(null);
      } catch (caught) {
        setError(caught instanceof Error ? caught.message : String(caught));
        void reload();
      }
    },
    [client, pageId, reload],
  );

  const undo = useCallback(async () => {
    if (!pageId) return;
    await client.call('fields.undo', { pageId }).catch((caught: unknown) => setError(caught instanceof Error ? caught.message : String(caught)));
    void reload();
  }, [client, pageId, reload]);

  return { pageId, engine, values, rules, format, corrected, revisions, save, undo, error, documentText };
}

export type FieldReview = ReturnType<typeof useFieldReview>;

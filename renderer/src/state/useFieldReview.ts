/**
 * The invoice fields of the page under review: the engine's values (through the narrow adapter in
 * app/invoice/review), the analyst's field revisions (`fields.revisions`), the values the rules see (corrections
 * applied, line items re-read once the Markdown's tables are edited) and the rule results — recomputed on every
 * field edit and every keystroke in the Markdown (pure and fast: no request on the way).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { FieldRevision } from '../../../app/contract/fields.js';
import type { PageReview } from '../../../app/contract/methods.js';
import {
  correctedPaths,
  detectNumberFormat,
  readEngineFields,
  reviewRules,
  reviewValues,
  type FieldCorrection,
  type FieldValue,
} from '../../../app/invoice/review/index.js';
import { useClient, useContractEvent } from './contractContext.js';

const toCorrections = (revisions: readonly FieldRevision[]): FieldCorrection[] =>
  revisions.map((r) => ({ field: r.field, value: r.toEngine ? { engine: true as const } : r.newValue }));

export function useFieldReview(review: PageReview | null, liveText: string) {
  const client = useClient();
  const pageId = review?.page.id ?? null;
  const [revisions, setRevisions] = useState<FieldRevision[]>([]);
  const [error, setError] = useState<string | null>(null);
  const wanted = useRef(pageId);
  wanted.current = pageId;

  const reload = useCallback(async () => {
    const requested = wanted.current;
    if (!requested) return setRevisions([]);
    try {
      const next = await client.call('fields.revisions', { pageId: requested });
      if (wanted.current === requested) setRevisions(next);
    } catch (caught) {
      if (wanted.current === requested) setError(caught instanceof Error ? caught.message : String(caught));
    }
  }, [client]);

  useEffect(() => {
    setRevisions([]);
    setError(null);
    void reload();
  }, [pageId, reload]);
  useContractEvent('page.updated', (payload) => {
    if (payload.pageId === wanted.current) void reload();
  });

  const extraction = review?.extraction ?? null;
  const engine = useMemo(() => readEngineFields(extraction), [extraction]);
  const corrections = useMemo(() => toCorrections(revisions), [revisions]);
  const text = liveText || extraction?.markdown || '';
  const values = useMemo(
    () => (engine ? reviewValues({ engine: engine.values, corrections, engineMarkdown: extraction?.markdown ?? '', currentMarkdown: text }) : null),
    [engine, corrections, extraction, text],
  );
  const rules = useMemo(() => (values ? reviewRules(values, text) : []), [values, text]);
  const format = useMemo(() => detectNumberFormat(Object.values(engine?.sources ?? {}).map((s) => s.text)), [engine]);
  const corrected = useMemo(() => correctedPaths(corrections), [corrections]);

  const save = useCallback(
    async (field: string, value: FieldValue) => {
      if (!pageId) return;
      // Shown at once; the stored revision replaces the optimistic one when the reply comes.
      const optimistic: FieldRevision = {
        id: `pending-${Date.now()}`, pageId, parentId: null, field, oldValue: null, newValue: value, toEngine: false, undoes: null, author: '', createdAt: new Date().toISOString(),
      };
      setRevisions((current) => [...current, optimistic]);
      try {
        const saved = await client.call('fields.save', { pageId, field, value });
        if (wanted.current === pageId) setRevisions((current) => current.map((r) => (r.id === optimistic.id ? saved : r)));
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

  return { engine, values, rules, format, corrected, revisions, save, undo, error };
}

export type FieldReview = ReturnType<typeof useFieldReview>;

import { useCallback, useEffect, useRef, useState } from 'react';
import type { CurationList, CurationSummary } from '../../../app/contract/curation.js';
import { toListRequest, toSummaryFilter, type CurationQuery } from '../logic/curation/curationQuery.js';
import { useClient, useContractEvent, useOnReconnect } from './contractContext.js';
import { useTrailingThrottle } from './useThrottledCallback.js';

/**
 * The curation queue slice and the summary for the current query. Refetched when the query changes, when pages
 * change (`page.updated`, `documents.changed`), after a reconnect, and when `refreshKey` changes (the review screen
 * saved a correction). Only the newest answer is kept, so a slow old query cannot overwrite a newer one.
 */
export function useCuration(query: CurationQuery, refreshKey: number) {
  const client = useClient();
  const [list, setList] = useState<CurationList | null>(null);
  const [summary, setSummary] = useState<CurationSummary | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const generation = useRef(0);

  const listRequest = JSON.stringify(toListRequest(query));
  const summaryFilter = JSON.stringify(toSummaryFilter(query));

  const reload = useCallback(async () => {
    const serial = ++generation.current;
    setLoading(true);
    try {
      const [nextList, nextSummary] = await Promise.all([
        client.call('curation.list', JSON.parse(listRequest)),
        client.call('curation.summary', JSON.parse(summaryFilter)),
      ]);
      if (serial !== generation.current) return;
      setList(nextList);
      setSummary(nextSummary);
      setError(null);
    } catch (caught) {
      if (serial === generation.current) setError(caught instanceof Error ? caught.message : String(caught));
    } finally {
      if (serial === generation.current) setLoading(false);
    }
  }, [client, listRequest, summaryFilter]);

  useEffect(() => {
    void reload();
  }, [reload, refreshKey]);

  const reloadSoon = useTrailingThrottle(() => void reload(), 500);
  useContractEvent('page.updated', reloadSoon);
  useContractEvent('documents.changed', reloadSoon);
  useOnReconnect(reloadSoon);

  return { list, summary, error, loading, reload };
}

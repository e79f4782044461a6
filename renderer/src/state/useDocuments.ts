import { useCallback, useEffect, useState } from 'react';
import type { DocumentSummary } from '../../../app/model/page.js';
import { useClient, useContractEvent, useOnReconnect } from './contractContext.js';
import { useTrailingThrottle } from './useThrottledCallback.js';

const pollWhileReadingMs = 3000;

/** The project's documents and pages, kept fresh from `documents.changed`, `page.updated` and `project.changed`. */
export function useDocuments() {
  const client = useClient();
  const [documents, setDocuments] = useState<DocumentSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  const reload = useCallback(async () => {
    try {
      setDocuments(await client.call('documents.list', {}));
      setError(null);
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
    }
  }, [client]);

  const reloadSoon = useTrailingThrottle(() => void reload(), 250);
  useEffect(() => {
    void reload();
  }, [reload]);
  useContractEvent('documents.changed', reloadSoon);
  useContractEvent('page.updated', reloadSoon);
  useContractEvent('project.changed', reloadSoon);
  useOnReconnect(reloadSoon);

  // Safety net for a missed event: while pages are still waiting or being read, look again every few seconds.
  const unread = documents?.some((document) => document.pages.some((page) => page.status === 'pending' || page.status === 'reading'));
  useEffect(() => {
    if (!unread) return;
    const timer = setInterval(() => void reload(), pollWhileReadingMs);
    return () => clearInterval(timer);
  }, [unread, reload]);

  return { documents, error, reload };
}

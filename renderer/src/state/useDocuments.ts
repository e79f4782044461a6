import { useEffect } from 'react';
import { useContractQuery } from './useContractQuery.js';

const pollWhileReadingMs = 3000;
/** A burst of events (every page of a PDF reporting in) becomes one refetch this long after it. */
const refetchBurstMs = 250;

/** The project's documents and pages, kept fresh from `documents.changed`, `page.updated` and `project.changed`. */
export function useDocuments() {
  const {
    data: documents,
    error,
    reload,
  } = useContractQuery((client) => client.call('documents.list', {}), { refetchOn: ['documents.changed', 'page.updated', 'project.changed'], throttleMs: refetchBurstMs });

  // Safety net for a missed event: while pages are still waiting or being read, look again every few seconds.
  const unread = documents?.some((document) => document.pages.some((page) => page.status === 'pending' || page.status === 'reading'));
  useEffect(() => {
    if (!unread) return;
    const timer = setInterval(() => void reload(), pollWhileReadingMs);
    return () => clearInterval(timer);
  }, [unread, reload]);

  return { documents, error, reload };
}

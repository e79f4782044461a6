/**
 * Reading the page on screen again. A re-read shows the live reading view from the request until its job ends, with
 * any engine: a fast one (a text layer) may read the page between two refetches of its status, which alone would never
 * show it being read.
 */
import { useCallback, useRef, useState } from 'react';
import { useClient, useContractEvent } from './contractContext.js';

/** A re-read's live view stays at least this long, even when the engine was faster. */
const REREAD_MIN_SHOWN_MS = 800;

/** `onAsked`: the re-read was asked for (refetch the page and the document list). */
export function useReread(pageId: string | null, onAsked: () => void) {
  const client = useClient();
  const [rereading, setRereading] = useState<{ pageId: string; jobId: string | null; since: number } | null>(null);
  const finishedJobs = useRef(new Set<string>());
  const endRereading = useCallback((jobId: string | null) => {
    setRereading((current) => {
      if (!current || (jobId !== null && current.jobId !== jobId)) return current;
      // Seen for a moment at least, so a re-read that took 0.3 s is not a flicker the analyst cannot read.
      const left = current.since + REREAD_MIN_SHOWN_MS - performance.now();
      if (left > 0) setTimeout(() => setRereading((now) => (now === current ? null : now)), left);
      return left > 0 ? current : null;
    });
  }, []);
  useContractEvent('job.progress', ({ jobId, state }) => {
    if (state === 'running') return;
    finishedJobs.current.add(jobId);
    endRereading(jobId);
  });
  const reread = async (engine?: string) => {
    if (!pageId) return;
    setRereading({ pageId, jobId: null, since: performance.now() });
    const reply = await client.call('pages.reread', { pageId, engine }).catch(() => null);
    if (!reply || finishedJobs.current.has(reply.jobId)) endRereading(null);
    else setRereading((current) => (current && current.pageId === pageId ? { ...current, jobId: reply.jobId } : current));
    onAsked();
  };
  return { rereading: rereading !== null && rereading.pageId === pageId, reread };
}

/**
 * The shown page's document's match against the project's purchase orders (`matching.document`): null where the
 * project holds none. Asked again when a page of the document changes (a saved field correction emits page.updated)
 * and when the review screen is shown again (master data may have been imported meanwhile);
 * `link` links an invoice line to a PO line (remembered for the supplier) and shows the new match.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { DocumentMatchWire } from '../../../app/contract/matching.js';
import { useClient, useContractEvent, useOnReconnect } from './contractContext.js';
import { whenIdle } from './whenIdle.js';
import { keepIfSame } from '../logic/sameAnswer.js';

export function useDocumentMatch(pageId: string | null, documentId: string | null, active: boolean) {
  const client = useClient();
  const [match, setMatch] = useState<DocumentMatchWire | null>(null);
  const asked = useRef(0);
  const reload = useCallback(async () => {
    const serial = ++asked.current;
    if (!pageId) {
      setMatch(null);
      return;
    }
    try {
      const reply = await client.call('matching.document', { pageId });
      if (serial === asked.current) setMatch((previous) => keepIfSame(previous, reply));
    } catch {
      if (serial === asked.current) setMatch(null);
    }
  }, [client, pageId]);
  // Asked again whenever the review screen comes back on screen: master data imported in another view changes the match.
  useEffect(() => (active ? whenIdle(() => void reload()) : undefined), [reload, active]);
  useContractEvent('page.updated', ({ documentId: changed }) => {
    if (changed === documentId) whenIdle(() => void reload());
  });
  useOnReconnect(() => void reload());
  const link = useCallback(
    async (line: number, target: { poNumber: string; line: number } | null) => {
      if (!pageId) return;
      const serial = ++asked.current;
      const reply = await client.call('matching.link', { pageId, line, target });
      if (serial === asked.current) setMatch(reply);
    },
    [client, pageId],
  );
  return { match, link };
}

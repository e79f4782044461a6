/**
 * Presence: tells the main side which page this window shows (`presence.set`), renewed while it stays, and that it
 * shows nothing when it closes; the main side forgets a window whose socket closed or that stopped renewing.
 */
import { useEffect, useMemo } from 'react';
import { PRESENCE_RENEW_MS } from '../../../app/contract/invoiceQueue.js';
import { useClient } from './contractContext.js';

export function usePresence(pageId: string | null): void {
  const client = useClient();
  // One id per window: two windows of one person are two presences (closing one leaves the other).
  const viewer = useMemo(() => `window-${crypto.randomUUID()}`, []);
  useEffect(() => {
    const tell = () => void client.call('presence.set', { viewer, pageId }).catch(() => undefined);
    tell();
    if (pageId === null) return;
    const timer = setInterval(tell, PRESENCE_RENEW_MS);
    return () => clearInterval(timer);
  }, [client, viewer, pageId]);
  useEffect(() => {
    const leave = () => void client.call('presence.set', { viewer, pageId: null }).catch(() => undefined);
    window.addEventListener('pagehide', leave);
    return () => window.removeEventListener('pagehide', leave);
  }, [client, viewer]);
}

/** The invoice queue's requests, bulk approval, assignment, claims and presence (app/contract/invoiceQueue.ts). */
import type { z } from 'zod';
import type { contractMethods, ReplyOf } from '../../app/contract/methods.js';
import type { invoiceQueueMethods } from '../../app/contract/invoiceQueue.js';
import type { RectoSession } from './rectoSession.js';
import { approveCleanInvoices, invoiceQueueRows } from './invoiceQueue.js';

type QueueMethod = keyof typeof invoiceQueueMethods;
type QueueHandlers = { [M in QueueMethod]: (params: z.output<(typeof contractMethods)[M]['request']>) => Promise<ReplyOf<M>> | ReplyOf<M> };

/**
 * Who this session works as: the reviewer name of the settings. The one place the queue asks (team mode gives each
 * request its own actor; this is where it plugs in).
 */
export function whoAmI(session: RectoSession): string {
  return session.settings.get().authorName;
}

export function invoiceQueueHandlers(session: RectoSession): QueueHandlers {
  const changed = (documentId: string) => session.bus.emit('work.changed', { documentId });
  return {
    'invoices.queue': async () => ({ rows: await invoiceQueueRows(session.store, session.presence.byDocument()), me: whoAmI(session) }),
    'invoices.approveClean': async ({ documentIds }) => {
      const result = await approveCleanInvoices(session.store, documentIds, whoAmI(session));
      for (const { documentId } of result.approved) {
        const pageId = session.store.documents.getDocument(documentId).pages[0]?.id;
        if (pageId) session.bus.emit('page.updated', { pageId, documentId });
      }
      return result;
    },
    'work.assign': ({ documentId, assignee }) => {
      const state = session.store.work.assign(documentId, assignee, whoAmI(session));
      changed(documentId);
      return state;
    },
    'work.claim': ({ documentId, force }) => {
      const state = session.store.work.claim(documentId, whoAmI(session), force ?? false);
      changed(documentId);
      return state;
    },
    'work.release': ({ documentId }) => {
      const state = session.store.work.release(documentId, whoAmI(session));
      changed(documentId);
      return state;
    },
    'work.state': ({ pageId }) => {
      const { documentId } = session.store.documents.getPage(pageId);
      return { ...session.store.work.state(documentId), openBy: session.presence.byDocument().get(documentId) ?? [], me: whoAmI(session) };
    },
    'work.history': ({ documentId }) => {
      session.store.documents.getDocument(documentId);
      return session.store.work.history(documentId);
    },
    'presence.set': ({ viewer, pageId }) => {
      const documentId = pageId === null ? null : session.store.documents.getPage(pageId).documentId;
      session.presence.set(viewer, whoAmI(session), documentId);
      return { ok: true as const };
    },
  };
}

/** The invoice queue's requests, bulk approval, assignment, claims and presence (app/contract/invoiceQueue.ts). */
import type { z } from 'zod';
import type { contractMethods, ReplyOf } from '../../app/contract/methods.js';
import type { invoiceQueueMethods } from '../../app/contract/invoiceQueue.js';
import type { RectoSession } from './rectoSession.js';
import { actorOf, type RequestContext } from './requestContext.js';
import { approveCleanInvoices, invoiceQueueRows } from './invoiceQueue.js';

type QueueMethod = keyof typeof invoiceQueueMethods;
type QueueHandlers = { [M in QueueMethod]: (params: z.output<(typeof contractMethods)[M]['request']>, context?: RequestContext) => Promise<ReplyOf<M>> | ReplyOf<M> };

/** Who the request works as: the signed-in account in team mode, else the reviewer name of the settings. */
const whoAmI = (session: RectoSession, context?: RequestContext): string => actorOf(session, context).name;

export function invoiceQueueHandlers(session: RectoSession): QueueHandlers {
  const changed = (documentId: string) => session.bus.emit('work.changed', { documentId });
  return {
    'invoices.queue': async (_params, context) => ({ rows: await invoiceQueueRows(session.store, session.presence.byDocument()), me: whoAmI(session, context) }),
    'invoices.approveClean': async ({ documentIds }, context) => {
      const result = await approveCleanInvoices(session.store, documentIds, whoAmI(session, context));
      for (const { documentId } of result.approved) {
        const pageId = session.store.documents.getDocument(documentId).pages[0]?.id;
        if (pageId) session.bus.emit('page.updated', { pageId, documentId });
      }
      return result;
    },
    'work.assign': ({ documentId, assignee }, context) => {
      const state = session.store.work.assign(documentId, assignee, whoAmI(session, context));
      changed(documentId);
      return state;
    },
    'work.claim': ({ documentId, force }, context) => {
      const state = session.store.work.claim(documentId, whoAmI(session, context), force ?? false);
      changed(documentId);
      return state;
    },
    'work.release': ({ documentId }, context) => {
      const state = session.store.work.release(documentId, whoAmI(session, context));
      changed(documentId);
      return state;
    },
    'work.state': ({ pageId }, context) => {
      const { documentId } = session.store.documents.getPage(pageId);
      return { ...session.store.work.state(documentId), openBy: session.presence.byDocument().get(documentId) ?? [], me: whoAmI(session, context) };
    },
    'work.history': ({ documentId }) => {
      session.store.documents.getDocument(documentId);
      return session.store.work.history(documentId);
    },
    'presence.set': ({ viewer, pageId }, context) => {
      const documentId = pageId === null ? null : session.store.documents.getPage(pageId).documentId;
      session.presence.set(viewer, whoAmI(session, context), documentId);
      return { ok: true as const };
    },
  };
}

/** The Suppliers view's requests, on the open project's supplier memory (main/store/supplierMemory.ts). */
import type { z } from 'zod';
import type { contractMethods, ReplyOf } from '../../app/contract/methods.js';
import type { RectoSession } from './rectoSession.js';
import { learnFromDocument } from './supplierLearning.js';

type SupplierMethod = 'suppliers.approve' | 'suppliers.list' | 'suppliers.rename' | 'suppliers.merge' | 'suppliers.forget';
type SupplierHandlers = { [M in SupplierMethod]: (params: z.output<(typeof contractMethods)[M]['request']>) => ReplyOf<M> };

export function supplierHandlers(session: RectoSession): SupplierHandlers {
  return {
    'suppliers.approve': ({ pageId }) => {
      session.store.documents.getPage(pageId);
      learnFromDocument(session.store, pageId, true);
      return { ok: true as const };
    },
    'suppliers.list': () => session.store.supplierMemory.list(),
    'suppliers.rename': ({ id, name }) => {
      session.store.supplierMemory.rename(id, name);
      return { ok: true as const };
    },
    'suppliers.merge': ({ into, from }) => {
      session.store.supplierMemory.merge(into, from);
      return { ok: true as const };
    },
    'suppliers.forget': ({ id }) => {
      session.store.supplierMemory.forget(id);
      return { ok: true as const };
    },
  };
}

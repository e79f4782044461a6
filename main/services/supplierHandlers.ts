/** The Suppliers view's requests, on the open project's supplier memory (main/store/supplierMemory.ts). */
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { contractMethods, ReplyOf } from '../../app/contract/methods.js';
import type { RectoSession } from './rectoSession.js';
import { actorOf, type RequestContext } from './requestContext.js';
import { learnFromDocument } from './supplierLearning.js';
import { KnownAccounts, supplierKey } from './bankAccounts.js';
import { SupplierNotFoundError, type ForgottenSupplier } from '../store/supplierMemory.js';
import { CodedError, errorCodes } from '../../app/contract/wire.js';
import { compactId } from '../../app/invoice/identifiers.js';

type SupplierMethod = 'suppliers.approve' | 'suppliers.list' | 'suppliers.rename' | 'suppliers.merge' | 'suppliers.forget' | 'suppliers.undoForget' | 'suppliers.confirmAccount';
type SupplierHandlers = { [M in SupplierMethod]: (params: z.output<(typeof contractMethods)[M]['request']>, context?: RequestContext) => ReplyOf<M> };

/** At most this many forgets can be undone in a session (the oldest undo goes first). */
const MAX_UNDOABLE_FORGETS = 50;

export function supplierHandlers(session: RectoSession): SupplierHandlers {
  // What each forget removed, by its undo token, with the project it was removed from: kept in memory only, so an
  // undo is possible within this session and never applies to another project opened since.
  const forgotten = new Map<string, { store: RectoSession['store']; rows: ForgottenSupplier }>();
  return {
    'suppliers.approve': ({ pageId }) => {
      session.store.documents.getPage(pageId);
      learnFromDocument(session.store, pageId, true);
      return { ok: true as const };
    },
    'suppliers.list': () => {
      const known = KnownAccounts.of(session.store);
      return session.store.supplierMemory.list().map((s) => ({ ...s, unconfirmedIbans: s.ibans.filter((iban) => !known.isKnownIban(s, iban)) }));
    },
    'suppliers.confirmAccount': ({ id, kind, value }, context) => {
      const supplier = session.store.supplierMemory.list().find((s) => s.id === id);
      if (!supplier) throw new SupplierNotFoundError(id);
      // Kept under each key an invoice of this supplier may be found by: each of its VAT IDs, and its name.
      const keys = new Set([...supplier.vatIds.map((vat) => supplierKey(vat, null)), supplierKey(null, supplier.name)].filter((k): k is string => k !== null));
      session.store.transaction(() => keys.forEach((key) => session.store.confirmedAccounts.confirm(key, kind, compactId(value), actorOf(session, context).name)));
      return { ok: true as const };
    },
    'suppliers.rename': ({ id, name }) => {
      session.store.supplierMemory.rename(id, name);
      return { ok: true as const };
    },
    'suppliers.merge': ({ into, from }) => {
      session.store.supplierMemory.merge(into, from);
      return { ok: true as const };
    },
    'suppliers.forget': ({ id }) => {
      const rows = session.store.supplierMemory.forget(id);
      const undo = randomUUID();
      forgotten.set(undo, { store: session.store, rows });
      if (forgotten.size > MAX_UNDOABLE_FORGETS) forgotten.delete(forgotten.keys().next().value!);
      return { ok: true as const, undo };
    },
    'suppliers.undoForget': ({ undo }) => {
      const entry = forgotten.get(undo);
      if (!entry || entry.store !== session.store) throw new CodedError(errorCodes.notFound, 'nothing to undo: that forget was not made in this project during this session');
      forgotten.delete(undo);
      return { ok: true as const, restored: session.store.supplierMemory.restore(entry.rows) };
    },
  };
}

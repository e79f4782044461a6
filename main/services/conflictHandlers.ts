/**
 * The analyst's saves on a base and the choices for their conflicts (app/contract/conflicts.ts). A stale save is kept by
 * the store (saveConflicts.ts) in the transaction that refused it; the refusal leaves here as the error code `conflict`
 * with the kept conflict as its detail, after that transaction committed. `author` is who acts (the caller says).
 */
import type { z } from 'zod';
import type { ConflictDetail, FieldConflict, RevisionConflict } from '../../app/contract/conflicts.js';
import type { contractMethods, ReplyOf } from '../../app/contract/methods.js';
import { CodedError, errorCodes } from '../../app/contract/wire.js';
import { reopenChanged } from '../store/approvalSeals.js';
import { learnFromDocument } from './supplierLearning.js';
import type { RectoSession } from './rectoSession.js';
import { actorOf, type RequestContext } from './requestContext.js';

type Params<M extends keyof typeof contractMethods> = z.output<(typeof contractMethods)[M]['request']>;

/** The refusal of a stale save: names what happened and that nothing was lost; `detail` carries the conflict. */
export class SaveConflictError extends CodedError {
  override name = 'SaveConflictError';
  constructor(message: string, detail: ConflictDetail) {
    super(errorCodes.conflict, message, detail);
  }
}

function textConflictError(conflict: RevisionConflict): SaveConflictError {
  const { theirs } = conflict;
  return new SaveConflictError(
    `The page changed since your edit began: ${theirs.author} saved a newer revision at ${theirs.createdAt}. Your text is kept (conflict ${conflict.id}); choose theirs, yours or a merge.`,
    { kind: 'revision', conflict },
  );
}

function fieldConflictError(conflict: FieldConflict): SaveConflictError {
  const { theirs } = conflict;
  return new SaveConflictError(
    `${conflict.field} changed since your edit began: ${theirs.author} set it to ${JSON.stringify(conflict.theirsValue)} at ${theirs.createdAt}. Your value ${JSON.stringify(conflict.value)} is kept (conflict ${conflict.id}); choose one.`,
    { kind: 'field', conflict },
  );
}

/** `revisions.save`: on its parent, or a conflict. */
export function saveTextEdit(session: RectoSession, { pageId, text, parentId }: Params<'revisions.save'>, author: string): ReplyOf<'revisions.save'> {
  const { store } = session;
  const result = store.transaction(() => {
    const outcome = store.saveConflicts.saveText(pageId, text, author, parentId);
    if ('saved' in outcome) reopenChanged(store, store.documents.getPage(pageId).documentId, 'revisions.save');
    return outcome;
  });
  if ('conflict' in result) throw textConflictError(result.conflict);
  // Other windows (a curation view, a second review window) refetch; the page's checks were recomputed in the save.
  session.bus.emit('page.updated', { pageId, documentId: store.documents.getPage(pageId).documentId });
  return result.saved;
}

/** `fields.save`: on the field's revision the analyst saw, or a conflict. */
export function saveFieldEdit(session: RectoSession, { pageId, field, value, basedOn }: Params<'fields.save'>, author: string): ReplyOf<'fields.save'> {
  const { store } = session;
  const page = store.documents.getPage(pageId);
  const result = store.transaction(() => {
    const outcome = store.saveConflicts.saveField(pageId, field, value, author, basedOn);
    if ('saved' in outcome) reopenChanged(store, page.documentId, 'fields.save');
    return outcome;
  });
  if ('conflict' in result) throw fieldConflictError(result.conflict);
  afterFieldChange(session, pageId, page.documentId);
  return result.saved;
}

function afterFieldChange(session: RectoSession, pageId: string, documentId: string): void {
  learnFromDocument(session.store, pageId);
  session.store.invoiceKeys.refresh(documentId);
  session.bus.emit('page.updated', { pageId, documentId });
}

type ConflictMethod = 'revisions.conflicts' | 'revisions.resolveConflict' | 'fields.conflicts' | 'fields.resolveConflict';

export function conflictHandlers(session: RectoSession): { [M in ConflictMethod]: (params: Params<M>, context?: RequestContext) => ReplyOf<M> } {
  // The open project's store, asked per request: a project opened later, or none yet.
  const current = () => session.store;
  return {
    'revisions.conflicts': ({ pageId, all }) => {
      const store = current();
      store.documents.getPage(pageId);
      return all ? store.saveConflicts.allTextConflicts(pageId) : store.saveConflicts.openTextConflicts(pageId);
    },
    'revisions.resolveConflict': ({ conflictId, choice, text, parentId }, context) => {
      const store = current();
      const result = store.transaction(() => {
        const outcome = store.saveConflicts.resolveText(conflictId, choice, text, parentId, actorOf(session, context).name);
        if ('resolved' in outcome && outcome.saved) reopenChanged(store, store.documents.getPage(outcome.resolved.pageId).documentId, 'revisions.resolveConflict');
        return outcome;
      });
      if ('conflict' in result) throw textConflictError(result.conflict);
      const { pageId } = result.resolved;
      session.bus.emit('page.updated', { pageId, documentId: store.documents.getPage(pageId).documentId });
      return { conflict: result.resolved, revision: result.saved };
    },
    'fields.conflicts': ({ pageId }) => {
      const store = current();
      store.documents.getPage(pageId);
      return store.saveConflicts.openFieldConflicts(pageId);
    },
    'fields.resolveConflict': ({ conflictId, choice, value, basedOn }, context) => {
      const store = current();
      const result = store.transaction(() => {
        const outcome = store.saveConflicts.resolveField(conflictId, choice, value, basedOn, actorOf(session, context).name);
        if ('resolved' in outcome && outcome.saved) reopenChanged(store, store.documents.getPage(outcome.resolved.pageId).documentId, 'fields.resolveConflict');
        return outcome;
      });
      if ('conflict' in result) throw fieldConflictError(result.conflict);
      const { pageId } = result.resolved;
      const documentId = store.documents.getPage(pageId).documentId;
      if (result.saved) afterFieldChange(session, pageId, documentId);
      else session.bus.emit('page.updated', { pageId, documentId });
      return { conflict: result.resolved, revision: result.saved };
    },
  };
}

/**
 * Roles in team mode (docs/team-mode.md): what each contract method needs, checked by dispatch before the handler
 * runs. Every method is listed (the type requires it): a new method must say who may call it.
 *
 * - read: every role sees the queue, the pages, the checks and the history.
 * - review: reviewers correct and propose (revisions, fields, uploads, rereads, supplier memory's names).
 * - approve: approvers approve and reject, and decide what an approval rests on (a supplier's bank account).
 * - admin: admins manage what the server reaches beyond the project (paths on the server: imports, exports, merges,
 *   master data) and the project's settings; accounts are managed with `recto users` by whoever holds the file.
 * - single-user: opening or creating another project, native dialogs — a team server serves one project, whose
 *   accounts these are, so nobody may switch it.
 */
import type { MethodName } from '../../app/contract/methods.js';
import type { AccountRole } from '../../app/contract/team.js';
import { CodedError, errorCodes } from '../../app/contract/wire.js';
import type { RequestContext } from './requestContext.js';

export type Permission = 'read' | 'review' | 'approve' | 'admin' | 'single-user';

const rolesFor: Record<Permission, readonly AccountRole[]> = {
  read: ['reviewer', 'approver', 'admin'],
  review: ['reviewer', 'approver', 'admin'],
  approve: ['approver', 'admin'],
  admin: ['admin'],
  'single-user': [],
};

const needs: Record<Permission, string> = {
  read: 'any account',
  review: 'a reviewer, approver or admin',
  approve: 'an approver or admin (approving and rejecting)',
  admin: 'an admin',
  'single-user': 'the single-user app (a team server serves one project)',
};

/** A status change to approved or rejected is a decision; back to review is a correction. */
const statusPermission = (params: unknown): Permission => {
  const status = (params as { status?: unknown } | null)?.status;
  return status === 'approved' || status === 'rejected' ? 'approve' : 'review';
};

export const methodPermissions: Record<MethodName, Permission | ((params: unknown) => Permission)> = {
  'app.info': 'read',
  'settings.get': 'read',
  // Personal settings for everyone; the project's (engine, page limit) are checked in the handler (admin).
  'settings.set': 'review',
  'engines.list': 'read',
  'project.create': 'single-user',
  'project.open': 'single-user',
  'project.openSamples': 'single-user',
  'dialog.openProject': 'single-user',
  'dialog.importFiles': 'single-user',
  'dialog.chooseExportFolder': 'single-user',
  'documents.importPaths': 'admin',
  'documents.importData': 'review',
  'documents.list': 'read',
  'pages.getReview': 'read',
  'pages.getReviewAndFields': 'read',
  'pages.reread': 'review',
  'pages.setReviewStatus': statusPermission,
  'pages.reject': 'approve',
  'revisions.save': 'review',
  'revisions.list': 'read',
  'jobs.cancel': 'review',
  'curation.list': 'read',
  'curation.summary': 'read',
  'curation.page': 'read',
  'corpus.export': 'admin',
  'corpus.import': 'admin',
  'evaluation.start': 'admin',
  'evaluation.latest': 'read',
  'project.merge': 'admin',
  'fields.document': 'read',
  'fields.revisions': 'read',
  'fields.save': 'review',
  'fields.undo': 'review',
  'revisions.conflicts': 'read',
  'revisions.resolveConflict': 'review',
  'fields.conflicts': 'read',
  'fields.resolveConflict': 'review',
  'invoices.queue': 'read',
  'invoices.approveClean': 'approve',
  'work.assign': 'review',
  'work.claim': 'review',
  'work.release': 'review',
  'work.state': 'read',
  'work.history': 'read',
  'presence.set': 'read',
  'fields.stats': 'read',
  'einvoice.validation': 'read',
  'approval.check': 'read',
  'approval.history': 'read',
  'approval.approve': 'approve',
  'invoice.paymentFields': 'read',
  'invoice.matches': 'read',
  'invoices.export': 'admin',
  'attention.list': 'read',
  'masterData.import': 'admin',
  'matching.document': 'read',
  'matching.link': 'review',
  'suppliers.approve': 'approve',
  'suppliers.list': 'read',
  'suppliers.rename': 'review',
  'suppliers.merge': 'review',
  'suppliers.confirmAccount': 'approve',
  'suppliers.forget': 'review',
  'suppliers.undoForget': 'review',
};

/** The rule's name in refusals and docs. */
export const ROLE_RULE = 'roles';

export class ForbiddenError extends CodedError {
  override name = 'ForbiddenError';
  constructor(message: string) {
    super(errorCodes.forbidden, message);
  }
}

/** Throws ForbiddenError where the signed-in account's role may not call `method` (the single-user app may call all). */
export function authorize(method: MethodName, params: unknown, context: RequestContext): void {
  const account = context.account;
  if (!account) return;
  const entry = methodPermissions[method];
  const permission = typeof entry === 'function' ? entry(params) : entry;
  if (!rolesFor[permission].includes(account.role)) {
    throw new ForbiddenError(`${ROLE_RULE}: ${account.name} is ${article(account.role)} ${account.role}; ${method} needs ${needs[permission]}`);
  }
}

/** Throws ForbiddenError unless the account is an admin (the project's settings). */
export function requireAdmin(context: RequestContext, what: string): void {
  const account = context.account;
  if (account && account.role !== 'admin') throw new ForbiddenError(`${ROLE_RULE}: ${account.name} is ${article(account.role)} ${account.role}; ${what} is for an admin`);
}

const article = (role: string) => (/^[aeiou]/.test(role) ? 'an' : 'a');

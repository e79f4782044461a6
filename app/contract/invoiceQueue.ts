/**
 * The invoice queue and working side by side on the wire (docs/invoice-review.md, "The invoice queue"; docs/team-review.md):
 * one row per document, approval of many clean invoices in one action, assignment, claims and presence.
 */
import { z } from 'zod';
import { attentionSignalKinds } from '../review/attention.js';
import { invoiceQueueStatuses } from '../invoices/invoiceQueue.js';

const id = z.string().min(1).max(200);
/** A person as the project names them (the reviewer name revisions and approvals carry). */
const person = z.string().trim().min(1).max(200);

export const invoiceQueueRowSchema = z.object({
  documentId: z.string(),
  documentName: z.string(),
  firstPageId: z.string(),
  pageCount: z.number().int().nonnegative(),
  isInvoice: z.boolean(),
  valuesFromXml: z.boolean(),
  supplier: z.string().nullable(),
  invoiceNumber: z.string().nullable(),
  total: z.number().nullable(),
  currency: z.string().nullable(),
  issueDate: z.string().nullable(),
  dueDate: z.string().nullable(),
  /** ISO 8601: the queue's age counts from the import. */
  importedAt: z.string(),
  status: z.enum(invoiceQueueStatuses),
  exceptions: z.number().int().nonnegative(),
  signals: z.array(z.enum(attentionSignalKinds)),
  needsAttention: z.boolean(),
  clean: z.boolean(),
  assignee: z.string().nullable(),
  claimedBy: z.string().nullable(),
  openBy: z.array(z.string()),
});

export const assignmentEventSchema = z.object({
  documentId: z.string(),
  action: z.enum(['assigned', 'unassigned', 'claimed', 'released']),
  /** Who was assigned, or who claimed / released. */
  person: z.string().nullable(),
  /** Who did it. */
  by: z.string(),
  at: z.string(),
});
export type AssignmentEventWire = z.infer<typeof assignmentEventSchema>;

export const workStateSchema = z.object({
  documentId: z.string(),
  assignee: z.string().nullable(),
  assignedBy: z.string().nullable(),
  assignedAt: z.string().nullable(),
  claimedBy: z.string().nullable(),
  claimedAt: z.string().nullable(),
});
export type WorkStateWire = z.infer<typeof workStateSchema>;

/** Most invoices one bulk approval takes (a day's queue, not a project's history). */
export const MAX_BULK_APPROVAL = 2000;

export const invoiceQueueMethods = {
  /**
   * Every document as one queue row, in import order; `me` is who this session works as. Sorting, filtering and the
   * counts are app/invoices/invoiceQueue.ts's, the same in every client.
   */
  'invoices.queue': { request: z.object({}), reply: z.object({ rows: z.array(invoiceQueueRowSchema), me: z.string() }) },
  /**
   * Approves each of the given invoices that is still clean, each in its own transaction with its own sealed approval
   * (the unit approval of approval.approve); the others are left as they are, each with the reason.
   */
  'invoices.approveClean': {
    request: z.object({ documentIds: z.array(id).min(1).max(MAX_BULK_APPROVAL) }),
    reply: z.object({
      approved: z.array(z.object({ documentId: z.string(), pageNumbers: z.array(z.number().int().positive()) })),
      skipped: z.array(z.object({ documentId: z.string(), reason: z.string() })),
    }),
  },
  /** Gives the document to a person (null takes it back); recorded with who and when. */
  'work.assign': { request: z.object({ documentId: id, assignee: person.nullable() }), reply: workStateSchema },
  /**
   * Claims the document for whoever works here: the claim tells others someone is on it. `force` takes over another's
   * claim (the reply's `previous` names it); without it a document claimed by another is refused with their name.
   */
  'work.claim': { request: z.object({ documentId: id, force: z.boolean().optional() }), reply: workStateSchema.extend({ previous: z.string().nullable() }) },
  /** Releases this person's claim (a claim by another is left as it is). */
  'work.release': { request: z.object({ documentId: id }), reply: workStateSchema },
  /** The assignment and claim of the page's document, who has it open now, and who this session works as. */
  'work.state': { request: z.object({ pageId: id }), reply: workStateSchema.extend({ openBy: z.array(z.string()), me: z.string() }) },
  /** Every assignment and claim of the document, oldest first. */
  'work.history': { request: z.object({ documentId: id }), reply: z.array(assignmentEventSchema) },
  /**
   * Presence: this window (a random id the renderer chose for itself) shows this page now, or nothing (null). Kept in
   * memory on the server; it goes when the window's socket closes or when it is not renewed within PRESENCE_TTL_MS.
   */
  'presence.set': { request: z.object({ viewer: z.string().min(8).max(100), pageId: id.nullable() }), reply: z.object({ ok: z.literal(true) }) },
} as const;

/** A window renews its presence at least this often… */
export const PRESENCE_RENEW_MS = 20_000;
/** …and is forgotten after this long without (a closed laptop, a crashed renderer, a socket that never closed cleanly). */
export const PRESENCE_TTL_MS = 60_000;

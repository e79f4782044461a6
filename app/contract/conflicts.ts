/**
 * Save conflicts (docs/architecture.md, "Nothing lost"). A save names what the analyst's edit was based on — the
 * revision for a page's text (`revisions.save`'s `parentId`), the field's latest revision for a field (`fields.save`'s
 * `basedOn`). When the page or the field has moved on since, and both sides changed it differently, the save is
 * refused with the error code `conflict` and what it carried is kept as a conflict: never written over the newer
 * revision, never dropped. The refusal's `detail` is a `ConflictDetail`; the analyst then sees base, theirs and mine
 * and chooses (`…resolveConflict`), and the choice is recorded.
 */
import { z } from 'zod';
import { revisionSchema } from '../model/page.js';
import { fieldRevisionSchema, fieldValueSchema } from './fields.js';

const id = z.string().min(1).max(200);

/** `theirs`: keep the newer revision as it is; `mine`: the kept text or value; `merged`: one the analyst wrote from both. */
export const conflictChoiceSchema = z.enum(['theirs', 'mine', 'merged']);
export type ConflictChoice = z.infer<typeof conflictChoiceSchema>;

const resolutionFields = {
  /** Null while open. */
  resolution: conflictChoiceSchema.nullable(),
  /** The revision the choice saved (null for `theirs`, which keeps the page as it is, and while open). */
  resolvedRevisionId: z.string().nullable(),
  resolvedBy: z.string().nullable(),
  resolvedAt: z.string().nullable(),
  /** Where the choice itself met a newer revision: the conflict that kept it in turn. */
  supersededBy: z.string().nullable(),
};

export const revisionConflictSchema = z.object({
  id: z.string(),
  pageId: z.string(),
  /** The revision the edit was based on; null: the engine's reading. */
  baseId: z.string().nullable(),
  baseText: z.string(),
  /** The page's latest revision when the save came. */
  theirs: revisionSchema,
  /** Mine: the text the save carried, kept here. */
  text: z.string(),
  author: z.string(),
  createdAt: z.string(),
  ...resolutionFields,
});
export type RevisionConflict = z.infer<typeof revisionConflictSchema>;

export const fieldConflictSchema = z.object({
  id: z.string(),
  /** The document's key page (its field revisions live there). */
  pageId: z.string(),
  /** `total`, `lines.2.amount`, `payment.iban`, … */
  field: z.string(),
  /** The field revision the edit was based on; null: the engine's value. */
  baseId: z.string().nullable(),
  baseValue: fieldValueSchema,
  /** The field's latest revision when the save came, and the value it gave the field. */
  theirs: fieldRevisionSchema,
  theirsValue: fieldValueSchema,
  /** Mine: the value the save carried, kept here. */
  value: fieldValueSchema,
  author: z.string(),
  createdAt: z.string(),
  ...resolutionFields,
});
export type FieldConflict = z.infer<typeof fieldConflictSchema>;

/** The `detail` of a `conflict` refusal. */
export const conflictDetailSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('revision'), conflict: revisionConflictSchema }),
  z.object({ kind: z.literal('field'), conflict: fieldConflictSchema }),
]);
export type ConflictDetail = z.infer<typeof conflictDetailSchema>;

export const conflictMethods = {
  /** The page's open text conflicts, oldest first; `all`: the chosen ones too (the page's history shows them). */
  'revisions.conflicts': { request: z.object({ pageId: id, all: z.boolean().optional() }), reply: z.array(revisionConflictSchema) },
  /**
   * Chooses for a text conflict. `mine` saves the kept text, `merged` saves `text`, each with `parentId` (the latest
   * revision the analyst saw as theirs) as base; a newer one since is a `conflict` again (the choice kept in turn).
   * `theirs` saves nothing. The reply's revision is the one saved (null for `theirs`).
   */
  'revisions.resolveConflict': {
    request: z.object({ conflictId: id, choice: conflictChoiceSchema, text: z.string().max(5_000_000).optional(), parentId: id.nullable() }),
    reply: z.object({ conflict: revisionConflictSchema, revision: revisionSchema.nullable() }),
  },
  /** The open field conflicts of the page's document, oldest first. */
  'fields.conflicts': { request: z.object({ pageId: id }), reply: z.array(fieldConflictSchema) },
  /** Chooses for a field conflict, as `revisions.resolveConflict`: `basedOn` is the field's latest revision as shown. */
  'fields.resolveConflict': {
    request: z.object({ conflictId: id, choice: conflictChoiceSchema, value: fieldValueSchema.optional(), basedOn: id.nullable() }),
    reply: z.object({ conflict: fieldConflictSchema, revision: fieldRevisionSchema.nullable() }),
  },
} as const;

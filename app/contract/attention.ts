/**
 * The needs-attention queue (app/review/attention.ts): every read page with the signals that ask for an analyst's
 * eye, in project order. The review screen's "next page needing attention" and the curation view's attention list
 * read it.
 */
import { z } from 'zod';
import { reviewStatusSchema } from '../model/page.js';
import { attentionSignalKinds } from '../review/attention.js';

export const attentionSignalSchema = z.object({ kind: z.enum(attentionSignalKinds), detail: z.string() });

export const attentionItemSchema = z.object({
  pageId: z.string(),
  documentId: z.string(),
  documentName: z.string(),
  pageNumber: z.number().int().positive(),
  reviewStatus: reviewStatusSchema,
  /** The page has a text revision or a field revision. */
  corrected: z.boolean(),
  signals: z.array(attentionSignalSchema),
});
export type AttentionItem = z.infer<typeof attentionItemSchema>;

export const attentionMethods = {
  /** Every read page with its needs-attention signals, in project order (documents as imported, pages in order). */
  'attention.list': { request: z.object({}), reply: z.object({ items: z.array(attentionItemSchema) }) },
} as const;

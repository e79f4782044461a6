/**
 * Documents and pages as the store and the UI see them.
 */
import { z } from 'zod';
import { boxSchema } from './extraction.js';

/** A word of a PDF's own text layer, in page pixels of the rendered page image. */
export const textLayerWordSchema = z.object({
  text: z.string(),
  box: boxSchema,
  /** Font size in page pixels, and the font name pdf.js reports (for headings and math). */
  fontSize: z.number().nonnegative(),
  fontName: z.string().optional(),
  /** True when the run ends a line in pdf.js's stream (hasEOL). */
  endOfLine: z.boolean().optional(),
});
export type TextLayerWord = z.infer<typeof textLayerWordSchema>;

export const textLayerSchema = z.object({
  words: z.array(textLayerWordSchema),
  /** Ruling lines the PDF draws (thin stroked/filled rectangles), in page pixels, where the importer extracts them. */
  rulings: z.array(boxSchema).optional(),
  /** Images the PDF paints (image XObjects, inline images), in page pixels: text inside them is not in the layer. */
  images: z.array(boxSchema).optional(),
});
export type TextLayer = z.infer<typeof textLayerSchema>;

export const pageStatusSchema = z.enum(['pending', 'reading', 'done', 'error']);
export type PageStatus = z.infer<typeof pageStatusSchema>;

export const reviewStatusSchema = z.enum(['unreviewed', 'in-review', 'approved', 'rejected']);
export type ReviewStatus = z.infer<typeof reviewStatusSchema>;

/**
 * Who set a page's review status, when, and — for an approval over exceptions — why and over how many
 * (main/store/reviewEvents.ts); absent where nobody changed the status since reviewers were recorded.
 */
export const reviewedBySchema = z.object({
  status: z.string(),
  reviewer: z.string(),
  at: z.string(),
  reason: z.string().nullable(),
  exceptions: z.number().int().nonnegative(),
});
export type ReviewedBy = z.infer<typeof reviewedBySchema>;

export const pageSummarySchema = z.object({
  id: z.string(),
  documentId: z.string(),
  /** 1-based page number within the document. */
  pageNumber: z.number().int().positive(),
  width: z.number().positive(),
  height: z.number().positive(),
  dpi: z.number().positive(),
  status: pageStatusSchema,
  /** Why reading failed, when status is "error". */
  error: z.string().nullable(),
  /** Engine id of the latest extraction, if any. */
  engine: z.string().nullable(),
  revisionCount: z.number().int().nonnegative(),
  reviewStatus: reviewStatusSchema,
  reviewedBy: reviewedBySchema.nullable().optional(),
});
export type PageSummary = z.infer<typeof pageSummarySchema>;

export const documentSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  sha256: z.string(),
  mediaType: z.string(),
  importedAt: z.string(),
  pages: z.array(pageSummarySchema),
});
export type DocumentSummary = z.infer<typeof documentSummarySchema>;

export const revisionSchema = z.object({
  id: z.string(),
  pageId: z.string(),
  parentId: z.string().nullable(),
  text: z.string(),
  author: z.string(),
  /** ISO 8601. */
  createdAt: z.string(),
});
export type Revision = z.infer<typeof revisionSchema>;

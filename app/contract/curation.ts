/**
 * Curation and corpus: the shapes the curation view and the export dialog exchange with the main side.
 * Scores are in [0, 1], 1 = the engine's output already matched the analyst's text; null = the check does not apply.
 */
import { z } from 'zod';
import { elementKindSchema } from '../model/extraction.js';
import { reviewedBySchema, reviewStatusSchema } from '../model/page.js';
import { absolutePathSchema } from './paths.js';
import { fieldRevisionStatsSchema } from './fields.js';
import { attentionSignalSchema } from './attention.js';
import { attentionSignalKinds } from '../review/attention.js';

/**
 * What the curation queue can be sorted by: the combined score, any single check, how much was corrected, or
 * `attention` — uncorrected pages first by their needs-attention signals (app/review/attention.ts, heaviest first),
 * then corrected pages by their combined score (worst first).
 */
export const curationSortKeys = [
  'attention',
  'score',
  'text',
  'structure',
  'tables',
  'tablesStructure',
  'formulas',
  'repetition',
  'unitTests',
  'changedChars',
  'revisionAt',
] as const;
export const curationSortSchema = z.enum(curationSortKeys);
export type CurationSort = z.infer<typeof curationSortSchema>;

export const curationFilterSchema = z.object({
  reviewStatus: z.array(reviewStatusSchema).max(4).optional(),
  /** Engine id of the page's latest extraction. */
  engine: z.string().min(1).max(100).optional(),
  /** Pages whose extraction has an element of this kind… */
  elementKind: elementKindSchema.optional(),
  /** …and only where the correction changed that kind. */
  elementKindChanged: z.boolean().optional(),
  documentId: z.string().min(1).max(200).optional(),
  /** Only pages with at least one revision. */
  correctedOnly: z.boolean().optional(),
});
export type CurationFilter = z.infer<typeof curationFilterSchema>;

const score = z.number().min(0).max(1);

/** The queue's own narrowing: a range of the combined score (the summary's histogram shows where pages lie). */
export interface ScoreRange {
  /** Only pages whose combined score is at least this… */
  minScore?: number;
  /** …and at most this (both inclusive). */
  maxScore?: number;
}

export const checkScoresSchema = z.object({
  /** Combined curation score (terms multiplied with floors; see app/checks/pageScore.ts). */
  score: z.number(),
  text: z.number(),
  structure: z.number(),
  tables: z.number().nullable(),
  tablesStructure: z.number().nullable(),
  formulas: z.number().nullable(),
  repetition: z.number(),
  unitTests: z.number().nullable(),
});
export type CheckScores = z.infer<typeof checkScoresSchema>;

export const kindChangeSchema = z.object({
  kind: elementKindSchema,
  elements: z.number().int().nonnegative(),
  /** Characters of the engine's text in elements of this kind. */
  chars: z.number().int().nonnegative(),
  /** Characters the correction removed from or inserted into them. */
  changedChars: z.number().int().nonnegative(),
  /** The inserted part of changedChars. */
  insertedChars: z.number().int().nonnegative(),
});
export type KindChangeSummary = z.infer<typeof kindChangeSchema>;

export const curationItemSchema = z.object({
  pageId: z.string(),
  documentId: z.string(),
  documentName: z.string(),
  pageNumber: z.number().int().positive(),
  reviewStatus: reviewStatusSchema,
  reviewedBy: reviewedBySchema.nullable().optional(),
  engine: z.string(),
  hasRevision: z.boolean(),
  scores: checkScoresSchema,
  /** Characters removed plus inserted by the latest revision against the engine's output. */
  changedChars: z.number().int().nonnegative(),
  engineChars: z.number().int().nonnegative(),
  /** Kinds whose text the correction changed, with the amount. */
  changedKinds: z.array(kindChangeSchema),
  revisionAuthor: z.string().nullable(),
  revisionAt: z.string().nullable(),
  /** The page's needs-attention signals (listed by `attention.list`; empty where nothing asks for a look). */
  signals: z.array(attentionSignalSchema),
  /** A text or a field revision exists (`hasRevision` counts text only); the attention order puts these last. */
  corrected: z.boolean(),
});
export type CurationItem = z.infer<typeof curationItemSchema>;

export const curationListRequestSchema = curationFilterSchema
  .extend({
    minScore: score.optional(),
    maxScore: score.optional(),
    /** Only pages with a needs-attention signal of this kind. */
    signal: z.enum(attentionSignalKinds).optional(),
    sort: curationSortSchema.default('score'),
    /** asc = worst first for scores (the review order). */
    direction: z.enum(['asc', 'desc']).default('asc'),
    offset: z.number().int().nonnegative().default(0),
    limit: z.number().int().min(1).max(500).default(50),
  })
  .refine((request) => request.minScore === undefined || request.maxScore === undefined || request.minScore <= request.maxScore, {
    message: 'minScore must not be above maxScore',
    path: ['minScore'],
  });

export const curationListSchema = z.object({
  /** Pages matching the filter (all of them, not only this slice). */
  total: z.number().int().nonnegative(),
  items: z.array(curationItemSchema),
});
export type CurationList = z.infer<typeof curationListSchema>;

export const curationSummarySchema = z.object({
  pages: z.number().int().nonnegative(),
  correctedPages: z.number().int().nonnegative(),
  /** Mean combined score of the corrected pages (null without any): an uncorrected page has no score. */
  meanScore: z.number().nullable(),
  /** Mean of each check over the pages where it applies. */
  meanByCheck: z.record(z.string(), z.number().nullable()),
  /** Ten bins over [0, 1]: bin i counts corrected pages scoring in [i/10, (i+1)/10) (the last bin includes 1). */
  scoreHistogram: z.array(z.object({ from: z.number(), to: z.number(), count: z.number().int().nonnegative() })),
  /** Per element kind over the filtered pages: how much of it there is and how much analysts changed. */
  errorsByKind: z.array(
    z.object({
      kind: elementKindSchema,
      pages: z.number().int().nonnegative(),
      pagesChanged: z.number().int().nonnegative(),
      elements: z.number().int().nonnegative(),
      chars: z.number().int().nonnegative(),
      changedChars: z.number().int().nonnegative(),
      insertedChars: z.number().int().nonnegative(),
      /**
       * Share of this kind's text the corrections touched, in [0, 1]: changedChars / (chars + insertedChars) — the
       * removed characters are part of the engine's chars, the inserted ones are not, so both sides count them
       * (0 when there is no text of this kind at all). A kind whose text was all rewritten or all missed is 1.
       */
      changeRate: z.number().min(0).max(1),
    }),
  ),
  /** Per UTC day of the latest revision: pages corrected that day and their mean score. */
  correctionsOverTime: z.array(z.object({ day: z.string(), pages: z.number().int().nonnegative(), meanScore: z.number() })),
  /** Invoice field corrections: pages with any, and revisions (over the project, or the filter's document). */
  fieldCorrections: fieldRevisionStatsSchema.optional(),
});
export type CurationSummary = z.infer<typeof curationSummarySchema>;

export const pageChecksDetailSchema = z.object({
  pageId: z.string(),
  extractionId: z.string(),
  revisionId: z.string().nullable(),
  scores: checkScoresSchema,
  changedKinds: z.array(kindChangeSchema),
  /** The full results of app/checks runPageChecks (problems, table counts, failed tests, …). */
  results: z.record(z.string(), z.unknown()),
});
export type PageChecksDetail = z.infer<typeof pageChecksDetailSchema>;

export const corpusExportRequestSchema = z.object({
  outDir: absolutePathSchema,
  /** Only pages with this review status. */
  status: reviewStatusSchema.optional(),
  /** Only pages whose latest revision is at or after this ISO 8601 time. */
  since: z.iso.datetime({ offset: true }).optional(),
  images: z.enum(['png', 'none']).default('png'),
});
export type CorpusExportRequest = z.infer<typeof corpusExportRequestSchema>;

export const corpusImportSummarySchema = z.object({
  records: z.number().int().nonnegative(),
  documentsAdded: z.number().int().nonnegative(),
  pagesAdded: z.number().int().nonnegative(),
  runsAdded: z.number().int().nonnegative(),
  revisionsAdded: z.number().int().nonnegative(),
  /** Invoice field revisions added; fields corrected both in the corpus and in the project (both kept, the later shows). */
  fieldRevisionsAdded: z.number().int().nonnegative(),
  fieldConflicts: z.number().int().nonnegative(),
  imagesSeeded: z.number().int().nonnegative(),
  diverged: z.number().int().nonnegative(),
  /** Pages decided differently on the other side: the local decision kept, the other in the history, the page flagged. */
  decisionConflicts: z.number().int().nonnegative(),
  decisionsAdopted: z.number().int().nonnegative(),
  /** Review events from outside with an impossible time (in the future, before the page existed): never deciding. */
  untrustedTimes: z.number().int().nonnegative(),
  /** Approved invoices the merge or import changed (reopened), and the payment data it changed, in words. */
  approvalsReopened: z.array(z.object({ document: z.string(), changes: z.array(z.string()) })),
  paymentChanges: z.array(z.object({ document: z.string(), changes: z.array(z.string()) })),
  /** Lines or files that could not be imported, with why ("records.jsonl:12"). */
  problems: z.array(z.object({ where: z.string(), reason: z.string() })),
});
export type CorpusImportSummaryReply = z.infer<typeof corpusImportSummarySchema>;

export const mergeSummarySchema = z.object({
  pages: z.number().int().nonnegative(),
  documentsAdded: z.number().int().nonnegative(),
  pagesAdded: z.number().int().nonnegative(),
  runsAdded: z.number().int().nonnegative(),
  revisionsAdded: z.number().int().nonnegative(),
  diverged: z.number().int().nonnegative(),
  reviewConflicts: z.number().int().nonnegative(),
  /** Invoice field revisions added; fields corrected on both sides since they parted (both kept, the later shows). */
  fieldRevisionsAdded: z.number().int().nonnegative(),
  fieldConflicts: z.number().int().nonnegative(),
  /** Pages decided differently on the other side: the local decision kept, the other in the history, the page flagged. */
  decisionConflicts: z.number().int().nonnegative(),
  decisionsAdopted: z.number().int().nonnegative(),
  /** Review events from outside with an impossible time (in the future, before the page existed): never deciding. */
  untrustedTimes: z.number().int().nonnegative(),
  /** Approved invoices the merge or import changed (reopened), and the payment data it changed, in words. */
  approvalsReopened: z.array(z.object({ document: z.string(), changes: z.array(z.string()) })),
  paymentChanges: z.array(z.object({ document: z.string(), changes: z.array(z.string()) })),
  /** What the merge changed about suppliers' accounts in memory (new IBANs and VAT IDs, unconfirmed), in words. */
  supplierChanges: z.array(z.string()).optional(),
});

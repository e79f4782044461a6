/**
 * The engine evaluation as it crosses the contract: the request that starts one in the app, and the summary it ends
 * with (the same object `recto evaluate` writes to evaluation.json; computed by app/evaluation/evaluationSummary.ts).
 */
import { z } from 'zod';

const share = z.number().min(0).max(1);
const termsSchema = z.partialRecord(z.enum(['text', 'structure', 'unitTests', 'format', 'tables', 'repetition']), z.number());

export const engineSummarySchema = z.object({
  engine: z.string(),
  engineName: z.string(),
  engineVersion: z.string(),
  pages: z.number().int().nonnegative(),
  errors: z.number().int().nonnegative(),
  accepted: z.number().int().nonnegative(),
  accepted_share: share,
  mean_score: share,
  /** Mean of each check over the pages it applies to. */
  terms: termsSchema,
  seconds_per_page: z.number().nonnegative(),
  /** Compute cost of one accepted page; null without a cost per hour or without an accepted page. */
  cost_per_accepted_page: z.number().nonnegative().nullable(),
  worst: z.array(z.object({ pageId: z.string(), document: z.string(), page: z.number().int(), score: z.number(), why: z.string() })),
  by_document: z.array(
    z.object({ documentId: z.string(), document: z.string(), pages: z.number().int(), accepted_share: share, mean_score: z.number() }),
  ),
  /** Share of each element kind's characters that the analyst's text keeps (1 = the kind needed no correction). */
  by_kind: z.array(z.object({ kind: z.string(), chars: z.number().int(), changed_chars: z.number().int(), kept_share: share })),
  failures: z.array(z.object({ pageId: z.string(), document: z.string(), page: z.number().int(), error: z.string() })),
});
export type EngineSummary = z.infer<typeof engineSummarySchema>;

export const evaluationSummarySchema = z.object({
  threshold: share,
  cost_per_hour: z.number().nonnegative().nullable(),
  engines: z.array(engineSummarySchema),
});
export type EvaluationSummary = z.infer<typeof evaluationSummarySchema>;

export const evaluationStartSchema = z.object({
  /** Engine ids as `engines.list` gives them. */
  engines: z.array(z.string().min(1).max(200)).min(1).max(8),
  /** A page is accepted when its combined check score is at least this. */
  threshold: share.default(0.9),
  /** Compute cost per hour of reading, for the cost per accepted page; null for none. */
  costPerHour: z.number().nonnegative().max(1e9).nullable().default(null),
  /** At most this many reference pages (the first in document order); null for all. */
  limit: z.number().int().positive().max(1_000_000).nullable().default(null),
});
export type EvaluationStart = z.infer<typeof evaluationStartSchema>;

/** The latest finished evaluation of the open project, with where its report was written. */
export const evaluationResultSchema = z.object({
  summary: evaluationSummarySchema,
  /** Reference pages the evaluation covered (corrected or approved at the time). */
  referencePages: z.number().int().nonnegative(),
  finishedAt: z.string(),
  /** Where the report was written, on the machine that runs Recto (for the record; the browser cannot open it). */
  reportPath: z.string(),
  /**
   * Where this shell serves the report, for a link the renderer opens in a new tab or window (`evaluation.latest`
   * adds it; the stored result has none).
   */
  reportUrl: z.string().optional(),
});
export type EvaluationResult = z.infer<typeof evaluationResultSchema>;

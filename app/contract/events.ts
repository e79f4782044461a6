/**
 * Events the main side pushes to the renderer. Like requests, every event is declared here with its schema.
 */
import { z } from 'zod';

export const jobProgressSchema = z.object({
  jobId: z.string(),
  /** What is being done, for the progress bar's label ("Reading invoice.pdf"). */
  label: z.string(),
  pagesDone: z.number().int().nonnegative(),
  pagesTotal: z.number().int().nonnegative(),
  /** Estimated milliseconds left, null until one page has finished. */
  etaMs: z.number().nonnegative().nullable(),
  state: z.enum(['running', 'done', 'cancelled', 'failed']),
  /** Pages that failed, each with its reason. */
  errors: z.array(z.object({ pageId: z.string(), reason: z.string() })),
  /** Pages read with something the reviewer should know (no element boxes), each with the reason. */
  warnings: z.array(z.object({ pageId: z.string(), reason: z.string() })).optional(),
});
export type JobProgress = z.infer<typeof jobProgressSchema>;

/** Live reading of one page: the Markdown decoded since the last event, and the decoder's running figures. */
export const pageReadingSchema = z.object({
  pageId: z.string(),
  /** True on the first event of a reading: the renderer starts an empty text. */
  start: z.boolean(),
  /** Text decoded since the previous event (may be empty when only the figures moved). */
  text: z.string(),
  /** Fraction of the page done, where the engine reports it (the bundled engine has no tokens to stream). */
  fraction: z.number().min(0).max(1).nullable(),
  tokens: z.number().int().nonnegative().nullable(),
  tokensPerSecond: z.number().nonnegative().nullable(),
  /** Speculative decoding (FastMTP): mean accepted length per step including the bonus token (τ); null otherwise. */
  meanAcceptedLength: z.number().nonnegative().nullable(),
});
export type PageReading = z.infer<typeof pageReadingSchema>;

export const contractEvents = {
  'job.progress': jobProgressSchema,
  /** A page's status or extraction changed; the renderer refetches what it shows. */
  'page.updated': z.object({ pageId: z.string(), documentId: z.string() }),
  /** A page being read streams its Markdown and decoding figures (throttled; see main/jobs/liveReading.ts). */
  'page.reading': pageReadingSchema,
  /** Documents were added or removed. */
  'documents.changed': z.object({}),
  /** A document was assigned, taken back, claimed or released (app/contract/invoiceQueue.ts). */
  'work.changed': z.object({ documentId: z.string() }),
  /** Who has which document open changed (presence.set, a window closed). */
  'presence.changed': z.object({}),
  /** Another project was opened. */
  'project.changed': z.object({ path: z.string().nullable() }),
} as const;

export type ContractEvents = typeof contractEvents;
export type EventName = keyof ContractEvents;
export type EventPayload<E extends EventName> = z.infer<ContractEvents[E]>;

/** The envelope every event travels in, whatever the transport. */
export interface EventEnvelope<E extends EventName = EventName> {
  event: E;
  payload: EventPayload<E>;
}

export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(contractEvents, name);
}

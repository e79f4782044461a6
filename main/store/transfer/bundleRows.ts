/**
 * The rows a page bundle brings from outside (a merged project, a corpus record) are checked with the schemas the
 * store itself writes with — an extraction with `extractionSchema` as saveExtraction parses it, a text layer with
 * `textLayerSchema`, statuses with their enums — and the page with the page limits of an import
 * (app/model/pageLimits.ts), review events with the statuses and bounds approval.ts writes. A bundle that fails is
 * refused whole, naming the row; nothing of it is stored. One row with `words: [null]` used to enter through a merge
 * and break curation for the whole project.
 */
import { z } from 'zod';
import { extractionSchema } from '../../../app/model/extraction.js';
import { pageStatusSchema, reviewStatusSchema, textLayerSchema } from '../../../app/model/page.js';
import { DEFAULT_MAX_PAGES, storedPageProblem } from '../../../app/model/pageLimits.js';
import { reviewEventStatuses } from '../reviewEvents.js';
import type { BundleRun, PageBundle } from './pageBundles.js';

export class BundleRowError extends Error {
  override name = 'BundleRowError';
}

const sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'not a SHA-256');
const documentSchema = z.object({
  sha256,
  name: z.string().min(1).max(1000),
  mediaType: z.string().max(100),
  sizeBytes: z.number().int().nonnegative(),
  importedAt: z.string().max(100),
});
const pageSchema = z.object({
  pageNumber: z.number().int().positive(),
  width: z.number().positive(),
  height: z.number().positive(),
  dpi: z.number().positive().max(10_000),
  status: pageStatusSchema,
  error: z.string().nullable(),
  reviewStatus: reviewStatusSchema,
});
const revisionSchema = z.object({ id: z.string().min(1), parentId: z.string().nullable(), text: z.string(), author: z.string(), createdAt: z.string() });

/** Bounds of what an approval records (approval.ts writes far less): a row past them is not one Recto wrote. */
const MAX_EXCEPTIONS_PER_EVENT = 1000;
const MAX_EVENT_TEXT = 10_000;
const reviewEventSchema = z
  .object({
    id: z.string().min(1).max(200),
    status: z.enum(reviewEventStatuses),
    exceptions: z.array(z.string().max(MAX_EVENT_TEXT)).max(MAX_EXCEPTIONS_PER_EVENT),
    reason: z.string().max(MAX_EVENT_TEXT).nullable(),
    reviewer: z.string().min(1).max(1000),
    at: z.iso.datetime({ offset: true }),
  })
  // approval.ts never approves over exceptions without a reason: such a row would be a silent approval.
  .refine((e) => e.status !== 'approved-with-exceptions' || (e.reason !== null && e.reason.trim() !== '' && e.exceptions.length > 0), {
    message: 'an approval with exceptions needs its exceptions and a reason',
  });

function issues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => `${i.path.join('.') || '(row)'}: ${i.message}`)
    .join('; ');
}

function parseJson(text: string | null, what: string): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    throw new BundleRowError(`${what} is not JSON`);
  }
}

/** The run as saveExtraction would have received it, parsed with its schema; throws BundleRowError naming the run. */
function checkRun(run: BundleRun): void {
  const x = run.extraction;
  const where = `engine run ${run.id.slice(0, 40)}`;
  const layout = parseJson(x.layoutJson, `${where}: elements`) as { page?: unknown; elements?: unknown } | null;
  const candidate = {
    markdown: x.markdown,
    page: layout?.page,
    elements: layout?.elements,
    engine: {
      id: run.engineId,
      name: run.engineName,
      version: run.engineVersion,
      packSha256: run.packSha256,
      licence: run.licence,
      provider: run.provider,
      settings: parseJson(run.settingsJson, `${where}: settings`),
    },
    stats: parseJson(run.statsJson, `${where}: stats`),
    words: parseJson(x.wordsJson, `${where}: words`) ?? undefined,
    fields: parseJson(x.fieldsJson, `${where}: fields`) ?? undefined,
    warnings: parseJson(x.warningsJson, `${where}: warnings`),
  };
  const parsed = extractionSchema.safeParse(candidate);
  if (!parsed.success) throw new BundleRowError(`${where}: ${issues(parsed.error)}`);
}

/** Throws BundleRowError (the row and the reason) unless every row of the bundle is one the store would write. */
export function checkBundleRows(bundle: PageBundle, maxPages = DEFAULT_MAX_PAGES): void {
  const document = documentSchema.safeParse(bundle.document);
  if (!document.success) throw new BundleRowError(`document: ${issues(document.error)}`);
  const page = pageSchema.safeParse(bundle.page);
  if (!page.success) throw new BundleRowError(`page: ${issues(page.error)}`);
  const limits = storedPageProblem(bundle.page, maxPages);
  if (limits) throw new BundleRowError(limits);
  if (bundle.page.textLayerJson !== null) {
    const layer = textLayerSchema.safeParse(parseJson(bundle.page.textLayerJson, 'page: text layer'));
    if (!layer.success) throw new BundleRowError(`page: text layer: ${issues(layer.error)}`);
  }
  for (const run of bundle.runs) checkRun(run);
  for (const revision of bundle.revisions) {
    const parsed = revisionSchema.safeParse(revision);
    if (!parsed.success) throw new BundleRowError(`revision: ${issues(parsed.error)}`);
  }
  // Absent in bundles built before review events were carried.
  for (const event of bundle.reviewEvents ?? []) {
    const parsed = reviewEventSchema.safeParse(event);
    const name = typeof event?.id === 'string' ? event.id.slice(0, 60) : '?';
    if (!parsed.success) throw new BundleRowError(`review event ${name}: ${issues(parsed.error)}`);
  }
}

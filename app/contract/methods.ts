/**
 * The contract between the renderer and the main side: every request with its reply, declared once.
 * Both shells bind this table to their transport (Electron IPC, HTTP on 127.0.0.1); the main side validates every
 * request against it before a service sees it, and the renderer gets one typed client whichever shell it runs in.
 */
import { signedInUserSchema } from './team.js';
import { z } from 'zod';
import { evaluationResultSchema, evaluationStartSchema } from './evaluation.js';
import { extractionSchema } from '../model/extraction.js';
import { documentSummarySchema, pageSummarySchema, revisionSchema, reviewStatusSchema } from '../model/page.js';
import {
  corpusExportRequestSchema,
  corpusImportSummarySchema,
  curationFilterSchema,
  curationListRequestSchema,
  curationListSchema,
  curationSummarySchema,
  mergeSummarySchema,
  pageChecksDetailSchema,
} from './curation.js';
import { absolutePathSchema } from './paths.js';
import { documentFieldsReplySchema, fieldMethods } from './fields.js';
import { supplierMethods } from './suppliers.js';
import { attentionMethods } from './attention.js';
import { einvoiceValidationMethods } from './einvoiceValidation.js';
import { approvalMethods } from './approval.js';
import { matchingMethods } from './matching.js';
import { conflictMethods } from './conflicts.js';
import { invoiceQueueMethods } from './invoiceQueue.js';

const id = z.string().min(1).max(200);
/** A file-system path chosen by the user or given on the command line (absolute: see paths.ts). */
const path = absolutePathSchema;

export const projectInfoSchema = z.object({
  path: z.string(),
  name: z.string(),
  schemaVersion: z.number().int(),
  /**
   * The audit trail as found when the project was opened (docs/security.md): a warning naming the first row edited
   * outside Recto, and the approvals reopened because their invoice changed outside Recto; absent where all is well.
   */
  trailWarning: z.string().nullable().optional(),
});
export type ProjectInfo = z.infer<typeof projectInfoSchema>;

export const engineChoiceSchema = z.object({
  id: z.string(),
  name: z.string(),
  version: z.string(),
  licence: z.string().nullable(),
  available: z.boolean(),
  unavailableReason: z.string().optional(),
});
export type EngineChoice = z.infer<typeof engineChoiceSchema>;

const authorName = z.string().min(1).max(200);
const engineId = z.string().min(1).max(100);
const recentProjects = z.array(absolutePathSchema).max(10);
/** Pages accepted in one imported document; a longer one is refused with a clear error (main/import). */
const maxPagesPerDocument = z.number().int().min(1).max(1_000_000);

/**
 * OpenAI-compatible servers (vLLM, `recto serve --pack`) for the remote engine, set in settings.json. The API key is
 * never here: the OS keychain (desktop app) or RECTO_API_KEY holds it.
 */
export const remoteSettingsSchema = z.object({
  endpoints: z.array(z.string().url().max(2048)).min(1).max(64),
  /** The served model's name; what each endpoint lists first when absent. */
  model: z.string().min(1).max(200).optional(),
  /** Requests in flight per endpoint. */
  concurrency: z.number().int().min(1).max(1024).optional(),
  /** Per-request timeout. */
  timeoutSeconds: z.number().positive().max(86_400).optional(),
});
export type RemoteSettings = z.infer<typeof remoteSettingsSchema>;

export const settingsSchema = z.object({
  /** Written into every revision as its author. */
  authorName,
  /** Engine used for new imports. */
  engine: engineId,
  /** Projects opened lately, most recent first; the last one is reopened when Recto starts. */
  recentProjects: recentProjects.default([]),
  /** Servers for the remote engine; the engine is offered when this is set. */
  remote: remoteSettingsSchema.optional(),
  maxPagesPerDocument: maxPagesPerDocument.default(2_000),
  /** The reviewer confirmed `authorName` (asked once; the OS account is only its default). */
  reviewerConfirmed: z.boolean().default(false),
});
/** A change to some settings: only the fields given are changed (no defaults fill the others). */
export const settingsPatchSchema = z.object({
  authorName: authorName.optional(),
  engine: engineId.optional(),
  recentProjects: recentProjects.optional(),
  maxPagesPerDocument: maxPagesPerDocument.optional(),
  reviewerConfirmed: z.boolean().optional(),
});
export type Settings = z.infer<typeof settingsSchema>;

export const importErrorSchema = z.object({
  /** The file's name as the user knows it. */
  file: z.string(),
  reason: z.string(),
});
export type ImportError = z.infer<typeof importErrorSchema>;

export const importResultSchema = z.object({
  imported: z.array(documentSummarySchema),
  /** Files that were already in the project (same SHA-256), each naming the document that holds those bytes. */
  duplicates: z.array(z.string()),
  /** The same, as links: which document of the project each refused file is. */
  duplicateOf: z.array(z.object({ file: z.string(), documentId: z.string(), documentName: z.string() })).optional(),
  errors: z.array(importErrorSchema),
});
export type ImportResult = z.infer<typeof importResultSchema>;

/** Where a page's id goes in `app.info`'s pageImageUrlTemplate: characters encodeURIComponent leaves as they are. */
export const PAGE_ID_SLOT = '__recto_page_id__';

/** A page's image URL from the shell's template (`app.info`). */
export function pageImageUrlOf(template: string, pageId: string): string {
  return template.replace(PAGE_ID_SLOT, encodeURIComponent(pageId));
}

export const pageReviewSchema = z.object({
  page: pageSummarySchema,
  documentName: z.string(),
  /** URL the renderer loads the page image from (valid in the current shell only). */
  imageUrl: z.string(),
  extraction: extractionSchema.nullable(),
  latestRevision: revisionSchema.nullable(),
});
export type PageReview = z.infer<typeof pageReviewSchema>;

/** Largest upload the browser shell accepts through `documents.importData` (base64 of the file). */
export const maxImportBytes = 200 * 1024 * 1024;

export const contractMethods = {
  /** Which shell, which version, whether a project is open, whether samples exist. */
  'app.info': {
    request: z.object({}),
    reply: z.object({
      /** The signed-in account in team mode (`recto serve --team`); null in the single-user app. */
      user: signedInUserSchema.nullable(),
      version: z.string(),
      shell: z.enum(['electron', 'browser']),
      project: projectInfoSchema.nullable(),
      samplesAvailable: z.boolean(),
      /** Whether the shell can show native file dialogs (Electron) or only uploads (browser). */
      nativeDialogs: z.boolean(),
      /**
       * A page's image URL with PAGE_ID_SLOT where the page's URL-encoded id goes (pageImageUrlOf): the renderer asks for
       * the image of a page it steps to next together with its review, not after the review's reply names it.
       */
      pageImageUrlTemplate: z.string(),
    }),
  },
  'project.create': { request: z.object({ path }), reply: projectInfoSchema },
  'project.open': { request: z.object({ path }), reply: projectInfoSchema },
  /** Creates (or reopens) the samples project in the user's data folder, with the bundled samples imported. */
  'project.openSamples': { request: z.object({}), reply: projectInfoSchema },
  /** Shows a native open dialog (Electron only); null when cancelled. */
  'dialog.openProject': { request: z.object({}), reply: projectInfoSchema.nullable() },
  'dialog.importFiles': { request: z.object({}), reply: importResultSchema.nullable() },
  /** Shows a native folder picker (Electron only) for the corpus export, starting at `defaultPath`; null when cancelled. */
  'dialog.chooseExportFolder': {
    request: z.object({ defaultPath: path.optional() }),
    reply: z.object({ path }).nullable(),
  },
  'settings.get': { request: z.object({}), reply: settingsSchema },
  'settings.set': { request: settingsPatchSchema, reply: settingsSchema },
  'engines.list': { request: z.object({}), reply: z.array(engineChoiceSchema) },
  /** Imports files by path (Electron drag-and-drop, dialogs, CLI). Reading is queued; progress comes as events. */
  'documents.importPaths': {
    request: z.object({ paths: z.array(path).min(1).max(1000), engine: z.string().optional() }),
    reply: importResultSchema,
  },
  /** Imports one file sent by value (browser shell uploads). */
  'documents.importData': {
    request: z.object({
      name: z.string().min(1).max(500),
      dataBase64: z.string().max(Math.ceil((maxImportBytes * 4) / 3) + 4),
      engine: z.string().optional(),
    }),
    reply: importResultSchema,
  },
  'documents.list': { request: z.object({}), reply: z.array(documentSummarySchema) },
  'pages.getReview': { request: z.object({ pageId: id }), reply: pageReviewSchema },
  /**
   * A page's review and its document's fields (`pages.getReview` and `fields.document`) in one reply: what the review
   * screen asks for a page it opens or asks for ahead, one request per page instead of two.
   */
  'pages.getReviewAndFields': {
    request: z.object({ pageId: id }),
    reply: z.object({ review: pageReviewSchema, fields: documentFieldsReplySchema }),
  },
  /** Reads a page again (with another engine, or after an error). */
  'pages.reread': { request: z.object({ pageId: id, engine: z.string().optional() }), reply: z.object({ jobId: z.string() }) },
  'pages.setReviewStatus': {
    request: z.object({ pageId: id, status: reviewStatusSchema }),
    reply: pageSummarySchema,
  },
  /**
   * Saves the analyst's Markdown as a new revision. parentId is the revision the edit started from (null: the engine's
   * reading). One older than the page's latest is the error `conflict` (its detail the kept text: conflicts.ts).
   */
  'revisions.save': {
    request: z.object({ pageId: id, text: z.string().max(5_000_000), parentId: id.nullable() }),
    reply: revisionSchema,
  },
  'revisions.list': { request: z.object({ pageId: id }), reply: z.array(revisionSchema) },
  /** Cancels a reading job or a corpus export; false when no such job is running. */
  'jobs.cancel': { request: z.object({ jobId: id }), reply: z.object({ cancelled: z.boolean() }) },
  /** The curation queue: pages with their check scores, sorted by score or any check (worst first), filtered, paged. */
  'curation.list': { request: curationListRequestSchema, reply: curationListSchema },
  /** Score histogram, errors by element kind and corrections over time, for the curation charts. */
  'curation.summary': { request: curationFilterSchema, reply: curationSummarySchema },
  /** One page's full check results (null when the page has not been read). */
  'curation.page': { request: z.object({ pageId: id }), reply: pageChecksDetailSchema.nullable() },
  /** Exports the corpus into a folder; refused at once for a non-empty folder that is not a Recto export. Progress
   * comes as job.progress events; the last ("done") lists the pages left out in `errors`. jobs.cancel stops it with
   * the folder left as it was (last event "cancelled"). */
  'corpus.export': { request: corpusExportRequestSchema, reply: z.object({ jobId: z.string() }) },
  /** Imports a Recto corpus folder into the open project (nothing already there is changed). */
  'corpus.import': { request: z.object({ dir: path }), reply: corpusImportSummarySchema },
  /** Reads every corrected or approved page again with each engine and scores it against the analyst's text; progress
   * comes as job.progress events, jobs.cancel stops it (a later start resumes). Refused while one is running. */
  'evaluation.start': { request: evaluationStartSchema, reply: z.object({ jobId: z.string() }) },
  /** The latest finished evaluation of the open project; null when there is none. */
  'evaluation.latest': { request: z.object({}), reply: evaluationResultSchema.nullable() },
  /** Adds every document, page, engine run and revision of another project that the open one lacks. */
  'project.merge': { request: z.object({ path }), reply: mergeSummarySchema },
  /** Invoice field corrections (app/contract/fields.ts). */
  ...fieldMethods,
  /** The needs-attention queue (app/contract/attention.ts). */
  ...attentionMethods,
  /** EN 16931 validation of a document's e-invoice (app/contract/einvoiceValidation.ts). */
  ...einvoiceValidationMethods,
  /** Supplier memory (app/contract/suppliers.ts). */
  ...supplierMethods,
  /** Approval with exceptions, duplicates, payment fields, invoices out (app/contract/approval.ts). */
  ...approvalMethods,
  /** Three-way matching against purchase orders and goods receipts (app/contract/matching.ts). */
  ...matchingMethods,
  /** Save conflicts: the kept text or value, and the analyst's choice (app/contract/conflicts.ts). */
  ...conflictMethods,
  /** The invoice queue, bulk approval of clean invoices, assignment, claims and presence (app/contract/invoiceQueue.ts). */
  ...invoiceQueueMethods,
} as const;

export type ContractMethods = typeof contractMethods;
export type MethodName = keyof ContractMethods;
export type RequestOf<M extends MethodName> = z.input<ContractMethods[M]['request']>;
export type ReplyOf<M extends MethodName> = z.output<ContractMethods[M]['reply']>;

export function isMethodName(name: unknown): name is MethodName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(contractMethods, name);
}

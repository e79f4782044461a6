/**
 * Importing a Recto corpus export back into a project: every record becomes its page again — document, page, the
 * engine's extraction, every revision with its author and time — through the same bundle writer that merges
 * projects, so pages already in the project keep everything they have. Bad lines are reported by line number.
 * The corpus carries page images, not source files: imported documents have no source copy, and their images are
 * put into the page image cache (seedImage) so the pages show. Every record also carries its document's invoice field
 * revisions; the corpus's invoice fields are checked before anything is written (fieldsImport.ts), and the whole
 * import is one transaction.
 */
import path from 'node:path';
import { approvedContentOf, type ApprovedContent } from '../store/approvalSeals.js';
import { summarizeApprovals } from './mergeProjects.js';
import type { ProjectStore } from '../store/projectStore.js';
import { countOutcome, type SameFile } from '../store/transfer/applyBundles.js';
import { bundleOfRecord, corpusRecordSchema, corpusRecordTableSchema, upgradeRecord, type CorpusRecord } from './corpusRecord.js';
import { checkFieldsLines, readFieldsLines, recordFieldsProblem } from './fieldsImport.js';
import { sha256Of } from './exportCorpus.js';
import { readManifest } from './manifest.js';
import { storedPageProblem } from '../../app/model/pageLimits.js';
import { readBySchema } from './schemaJsonl.js';
import { isPlainRelativePath, lstatInside, readFileInside } from '../util/containedPaths.js';
import { CodedError, errorCodes } from '../../app/contract/wire.js';

export interface CorpusImportSummary {
  records: number;
  documentsAdded: number;
  pagesAdded: number;
  runsAdded: number;
  revisionsAdded: number;
  /** Invoice field revisions added, and fields corrected both in the corpus and in the project (both kept). */
  fieldRevisionsAdded: number;
  fieldConflicts: number;
  /** Review status changes (who approved or rejected a page, when, why) added. */
  reviewEventsAdded: number;
  /** Documents whose bytes match another document already in the project: their pages went to it (each named). */
  sameFile: SameFile[];
  imagesSeeded: number;
  /** Pages where both sides had revisions the other lacked (all kept). */
  diverged: number;
  /** Pages the corpus decided differently from here: the local decision kept, the page flagged (applyBundles.ts). */
  decisionConflicts: number;
  decisionsAdopted: number;
  /** Review events with an impossible time (future, or before the page existed): never deciding. */
  untrustedTimes: number;
  /** Approved invoices here that the import changed (reopened), and payment data it changed. */
  approvalsReopened: { document: string; changes: string[] }[];
  paymentChanges: { document: string; changes: string[] }[];
  problems: { where: string; reason: string }[];
}

export interface CorpusImportOptions {
  /** Puts a page image (PNG bytes, already checked against the record's hash) where the page image cache looks. */
  seedImage?: (sourceSha256: string, pageNumber: number, png: Buffer) => void;
  /** The page cap a record's page is held to (Settings: maxPagesPerDocument). */
  maxPages?: number;
}

const pngSignature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * The bytes of a record's page image, or why they cannot be used. The image must be a regular file inside the corpus
 * folder (no link anywhere on its path, no `..`, no absolute path), a PNG, and match the record's SHA-256 — which is
 * required: an image without one could be anything the folder's author pointed it at.
 */
function corpusImage(dir: string, image: string, sha256: string | null): { png: Buffer } | { reason: string } {
  if (!sha256) return { reason: `image ${image} has no image_sha256, so it cannot be checked` };
  if (!isPlainRelativePath(image)) return { reason: `image ${JSON.stringify(image)} is not a path inside the corpus folder` };
  let png: Buffer;
  try {
    if (!lstatInside(dir, image)) return { reason: `image ${image} is missing` };
    png = readFileInside(dir, image);
  } catch (error) {
    return { reason: `image ${image} cannot be used: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (!png.subarray(0, 8).equals(pngSignature)) return { reason: `image ${image} is not a PNG file` };
  if (sha256Of(png) !== sha256) return { reason: `image ${image} does not match its SHA-256` };
  // The PNG's own header (IHDR) is held to the page limits of an import: a small file can declare a
  // 100,000 × 100,000 px image that would be decoded whole wherever the page is shown or read.
  const width = png.length >= 24 ? png.readUInt32BE(16) : 0;
  const height = png.length >= 24 ? png.readUInt32BE(20) : 0;
  const problem = storedPageProblem({ pageNumber: 1, width, height });
  if (problem) return { reason: `image ${image}: ${problem.replace(/^page 1:? ?/, '')}` };
  return { png };
}

export class CorpusImportError extends CodedError {
  override name = 'CorpusImportError';
  constructor(message: string) {
    super(errorCodes.badInput, message);
  }
}

export function importCorpus(store: ProjectStore, dir: string, options: CorpusImportOptions = {}): CorpusImportSummary {
  let text: string;
  try {
    if (!lstatInside(dir, 'records.jsonl')) throw new CorpusImportError(`${dir}: no records.jsonl, not a Recto corpus`);
    text = readFileInside(dir, 'records.jsonl').toString('utf8');
  } catch (error) {
    if (error instanceof CorpusImportError) throw error;
    throw new CorpusImportError(`${dir}: records.jsonl cannot be read (${error instanceof Error ? error.message : String(error)})`);
  }
  const summary: CorpusImportSummary = {
    records: 0,
    documentsAdded: 0,
    pagesAdded: 0,
    runsAdded: 0,
    revisionsAdded: 0,
    fieldRevisionsAdded: 0,
    fieldConflicts: 0,
    reviewEventsAdded: 0,
    sameFile: [],
    imagesSeeded: 0,
    diverged: 0,
    decisionConflicts: 0,
    decisionsAdopted: 0,
    untrustedTimes: 0,
    approvalsReopened: [],
    paymentChanges: [],
    problems: [],
  };
  const manifest = readManifest(path.join(dir, 'manifest.json'));
  const listed = manifest?.files.find((f) => f.path === 'records.jsonl');
  if (!manifest) summary.problems.push({ where: 'manifest.json', reason: 'missing or not a Recto manifest; hashes not checked' });
  else if (listed && listed.sha256 !== sha256Of(text)) {
    summary.problems.push({ where: 'records.jsonl', reason: 'does not match the hash in manifest.json (edited after export)' });
  }

  // First every line is read and checked; malformed invoice fields anywhere refuse the corpus before a row is written.
  const records: { where: string; record: CorpusRecord }[] = [];
  const fieldErrors: string[] = [];
  text.split('\n').forEach((line, index) => {
    if (!line.trim()) return;
    const where = `records.jsonl:${index + 1}`;
    try {
      const raw = upgradeRecord(readBySchema(corpusRecordTableSchema, JSON.parse(line)));
      const fieldProblem = recordFieldsProblem(raw);
      if (fieldProblem) {
        fieldErrors.push(`${where}: ${fieldProblem}`);
        return;
      }
      const parsed = corpusRecordSchema.safeParse(raw);
      if (!parsed.success) throw new Error(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
      records.push({ where, record: parsed.data });
    } catch (error) {
      summary.problems.push({ where, reason: error instanceof Error ? error.message : String(error) });
    }
  });
  const fieldsLines = readFieldsLines(dir);
  fieldErrors.push(...fieldsLines.errors);
  if (fieldErrors.length > 0) {
    const shown = fieldErrors.slice(0, 5).join('; ');
    const more = fieldErrors.length > 5 ? ` (and ${fieldErrors.length - 5} more)` : '';
    throw new CorpusImportError(`${dir}: invoice fields are malformed, nothing was imported: ${shown}${more}`);
  }

  const writer = store.bundleWriter({ maxPages: options.maxPages, origin: `import of ${path.basename(dir)}` });
  const images: { where: string; record: CorpusRecord }[] = [];
  const recordFields = new Map(records.map(({ record }) => [record.source.document_id, record.fields ?? null]));
  summary.problems.push(...checkFieldsLines(fieldsLines.lines, recordFields));
  writer.all(() => {
    const before = new Map<string, ApprovedContent>();
    const touched = new Set<string>();
    for (const { where, record } of records) {
      try {
        const existing = store.documents.imported.documentIdBySha(record.source.sha256);
        if (existing && !before.has(existing)) before.set(existing, approvedContentOf(store, existing));
        const outcome = writer.apply(bundleOfRecord(record), null);
        summary.records += 1;
        countOutcome(summary, outcome);
        touched.add(store.documents.getPage(outcome.pageId).documentId);
        if (record.image && options.seedImage) images.push({ where, record });
      } catch (error) {
        summary.problems.push({ where, reason: error instanceof Error ? error.message : String(error) });
      }
    }
    summarizeApprovals(store, before, touched, `import of ${path.basename(dir)}`, summary);
  });
  // Page images go to the cache once the rows are in (a cache file is harmless on its own, a row without it is not).
  for (const { where, record } of images) {
    const image = corpusImage(dir, record.image!, record.image_sha256);
    if ('reason' in image) summary.problems.push({ where, reason: image.reason });
    else {
      options.seedImage!(record.source.sha256, record.source.page, image.png);
      summary.imagesSeeded += 1;
    }
  }
  return summary;
}

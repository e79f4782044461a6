/**
 * The corpus export: a folder other tools read without Recto (see dataCard.ts for the layout). Deterministic — the
 * same project gives byte-identical files (everything sorted, no time of the export inside) — and incremental: a
 * previous export in the folder is recognised by its manifest, and files whose content is unchanged are not
 * rewritten (images are not even rendered again). A non-empty folder that is not a Recto export is refused.
 * A page that cannot be exported (a broken row, an image that cannot be had) is left out and reported.
 * Never half-written: changes are staged and moved in at the end (exportStaging.ts), so an export can be cancelled
 * (`signal`) — or killed — at any point, leaving the folder as it was or completed by the next export.
 * The olmOCR tests of a corrected page are derived when its revision is saved (ProjectStore); the export reads them.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { ReviewStatus } from '../../app/model/page.js';
import { scrubSecrets } from '../../app/model/secrets.js';
import { checkPage } from '../../app/curation/checkPage.js';
import type { ProjectStore } from '../store/projectStore.js';
import { corpusFormat, corpusFormatVersion, corpusRecordTableSchema, recordIdOf, toCorpusRecord, type CorpusRecord } from './corpusRecord.js';
import { deriveCorpusTests } from '../../app/corpus/corpusTests.js';
import { corpusTestsKey } from '../store/curation/corpusTestsKey.js';
import { renderDataCard } from './dataCard.js';
import { CorpusExportCancelledError, recoverInterruptedExport, StagedExport, stagingFolderName } from './exportStaging.js';
import { readManifest, type CorpusManifest, type ManifestFile } from './manifest.js';
import { formatRefusal, trainingFormatFiles, type TrainingFormat } from './trainingFormats.js';
import type { BundleReader, PageBundle } from '../store/transfer/pageBundles.js';
import { DocumentFieldsCache, fieldsLineSchema } from './fieldsExport.js';
import { ExportPageFiles } from './exportPageFiles.js';
import { schemaJsonl } from './schemaJsonl.js';
import { cardFrontMatter, imageMetadataJsonl, llamaFactoryDatasetInfo } from './hubFiles.js';
import { findUnsafeEntry, isPlainRelativePath, lstatInside, readFileInside } from '../util/containedPaths.js';
import { CodedError, errorCodes } from '../../app/contract/wire.js';
import { SUPPLIERS_FILE, suppliersJsonl } from './supplierMemoryFile.js';

export { CorpusExportCancelledError } from './exportStaging.js';

export interface PageImageRequest {
  pageId: string;
  documentSha256: string;
  documentName: string;
  pageNumber: number;
}

export interface ExportOptions {
  outDir: string;
  status?: ReviewStatus;
  /** ISO 8601: only pages whose latest revision is at or after it. */
  since?: string;
  images: 'png' | 'none';
  /** A training-ready layout written beside records.jsonl (trainingFormats.ts); 'records' adds nothing. */
  format?: TrainingFormat;
  /** PNG bytes of a page image; throws when the image cannot be had. Needed when images is "png". */
  pageImage?: (page: PageImageRequest) => Promise<Buffer>;
  /** The source file's bytes (throws when missing): a PDF source's own page becomes the page's PDF (pagePdfs.ts). */
  sourceBytes?: (sha256: string) => Buffer;
  onProgress?: (done: number, total: number, label: string) => void;
  /** Cancels the export: it stops at the next page and leaves the folder as it was (CorpusExportCancelledError). */
  signal?: AbortSignal;
}

export interface SkippedPage {
  id: string | null;
  page: string;
  reason: string;
}

export interface ExportSummary {
  outDir: string;
  records: number;
  tests: number;
  imagesWritten: number;
  imagesKept: number;
  /** Files written this time (content new or changed), relative to outDir, sorted. */
  filesWritten: string[];
  filesRemoved: string[];
  skipped: SkippedPage[];
}

/** Export into a folder that holds something else: nothing was written. */
export class CorpusExportRefusedError extends CodedError {
  override name = 'CorpusExportRefusedError';
  constructor(message: string) {
    super(errorCodes.badInput, message);
  }
}

export const sha256Of = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');

/**
 * The previous export in the folder (null for a new or empty folder); throws CorpusExportRefusedError for a folder
 * that holds anything else. What an interrupted export left is completed or discarded first (exportStaging.ts).
 * Call it before starting an export job, so a refusal is an answer, not a failed job.
 */
export function previousExport(outDir: string, projectName: string): CorpusManifest | null {
  if (!fs.existsSync(outDir)) return null;
  if (!fs.statSync(outDir).isDirectory()) throw new CorpusExportRefusedError(`${outDir}: exists and is not a folder`);
  // An export folder holds files and folders only: a link inside would carry a write or a removal out of it.
  const unsafe = findUnsafeEntry(outDir, new Set([stagingFolderName]));
  if (unsafe) {
    throw new CorpusExportRefusedError(
      `${outDir}: ${unsafe} is a symbolic link or a special file, which a Recto export never holds — nothing was written`,
    );
  }
  recoverInterruptedExport(outDir, projectName);
  const entries = fs.readdirSync(outDir).filter((entry) => entry !== stagingFolderName);
  if (entries.length === 0) return null;
  const manifest = readManifest(path.join(outDir, 'manifest.json'));
  if (!manifest) {
    throw new CorpusExportRefusedError(
      `${outDir}: the folder is not empty and is not a Recto corpus export (no valid manifest.json); ` +
        'choose an empty or new folder — nothing was written',
    );
  }
  return manifest;
}

/** Pages to export, in corpus order, with why the filter-passing ones cannot be (null when they can). */
function selectPages(reader: BundleReader, options: ExportOptions): string[] {
  return reader.pageIds({
    reviewStatus: options.status || undefined,
    revisedSince: options.since ? new Date(options.since).toISOString() : undefined,
  });
}

interface Built {
  record: CorpusRecord;
  testLines: string[];
  contentKey: string;
}

/** Long stretches of pages without a pause keep progress events and a cancel request waiting: pause this often. */
const pauseEveryMs = 50;

export async function exportCorpus(store: ProjectStore, options: ExportOptions): Promise<ExportSummary> {
  const outDir = path.resolve(options.outDir);
  if (options.images === 'png' && !options.pageImage) throw new Error('exportCorpus: images "png" needs pageImage');
  const refusal = formatRefusal(options.format ?? 'records', options.images);
  if (refusal) throw new CorpusExportRefusedError(`${refusal} — nothing was written`);
  if (options.since && Number.isNaN(new Date(options.since).getTime())) {
    throw new CorpusExportRefusedError(`--since: not a date and time: ${options.since}`);
  }
  const previous = previousExport(outDir, store.info().name);
  const createdFolder = !fs.existsSync(outDir);
  fs.mkdirSync(outDir, { recursive: true });
  const staged = new StagedExport(outDir, createdFolder);
  try {
    const summary = await exportInto(store, options, outDir, previous, staged);
    cancelPoint(options.signal, outDir);
    staged.commit(summary.filesRemoved);
    return summary;
  } catch (error) {
    staged.abandon();
    throw error;
  }
}

function cancelPoint(signal: AbortSignal | undefined, outDir: string): void {
  if (signal?.aborted) throw new CorpusExportCancelledError(outDir);
}

/** Builds the export and stages every file that changes; returns what the commit will have done. */
async function exportInto(
  store: ProjectStore,
  options: ExportOptions,
  outDir: string,
  previous: CorpusManifest | null,
  staged: StagedExport,
): Promise<ExportSummary> {
  const previousFiles = new Map((previous?.files ?? []).map((f) => [f.path, f]));
  const previousTests = previous ? previousTestsByRecord(outDir, previous) : new Map<string, string[]>();

  const reader = store.bundles();
  const pageIds = selectPages(reader, options);
  const built: Built[] = [];
  const skipped: SkippedPage[] = [];
  const filesWritten: string[] = [];
  const format = options.format ?? 'records';
  // Images, and the page as a PDF (pdfs/, and beside the .md of the olmocr layout), when the export has images.
  const pageFiles =
    options.images === 'png'
      ? new ExportPageFiles({
          outDir,
          previous: previousFiles,
          staged,
          pageImage: options.pageImage!,
          sourceBytes: options.sourceBytes,
          pdfBesideImage: format === 'olmocr',
        })
      : null;
  const pageFilesOf = new Map<string, { path: string; sha256: string }[]>();
  const derived: { pageId: string; contentKey: string; tests: string[] }[] = [];
  const documentFields = new DocumentFieldsCache(store);
  // The first pause comes before the first page: whatever was waiting for the export to start (its first progress
  // event, a cancel request) is served at once.
  let pausedAt = Number.NEGATIVE_INFINITY;

  for (const [index, pageId] of pageIds.entries()) {
    cancelPoint(options.signal, outDir);
    let bundle: PageBundle | null = null;
    let label = pageId;
    try {
      bundle = reader.read(pageId, { allRuns: false });
      label = `${bundle.document.name} p. ${bundle.page.pageNumber}`;
      const id = recordIdOf(bundle.document.sha256, bundle.page.pageNumber);
      const run = bundle.runs[bundle.runs.length - 1];
      if (!run) throw new Error(bundle.page.status === 'error' ? `not read (${bundle.page.error ?? 'error'})` : 'not read yet');
      const latest = bundle.revisions[bundle.revisions.length - 1] ?? null;
      const stored = store.checks.scores(pageId);
      const fresh =
        stored && stored.extractionId === run.extraction.id && stored.revisionId === (latest?.id ?? null)
          ? stored
          : recheck(run.extraction.markdown, run.extraction.layoutJson, latest?.text ?? null);

      let image: { path: string; sha256: string } | null = null;
      if (pageFiles) {
        const written = await pageFiles.write(id, {
          pageId,
          documentSha256: bundle.document.sha256,
          documentName: bundle.document.name,
          mediaType: bundle.document.mediaType,
          pageNumber: bundle.page.pageNumber,
          width: bundle.page.width,
          height: bundle.page.height,
          dpi: bundle.page.dpi,
        });
        image = written.image;
        pageFilesOf.set(id, written.files);
      }

      const corrected = latest?.text ?? run.extraction.markdown;
      const contentKey = corpusTestsKey(run.extraction.markdown, corrected);
      // Derived tests: from the previous export, else as the store derived them when the revision was saved, else
      // derived now (pages saved before the store derived them) and kept in the project for the next export.
      let testLines =
        previous?.records?.[id] === contentKey && previousTests.has(id)
          ? previousTests.get(id)!
          : corrected === run.extraction.markdown
            ? []
            : store.checks.derivedTests(pageId, contentKey);
      if (testLines === null) {
        testLines = deriveCorpusTests({
          documentSha256: bundle.document.sha256,
          pageNumber: bundle.page.pageNumber,
          engineMarkdown: run.extraction.markdown,
          correctedMarkdown: corrected,
        });
        derived.push({ pageId, contentKey, tests: testLines });
      }
      const record = toCorpusRecord({ bundle, image, ...fresh, tests: testLines.length, fields: documentFields.ofPage(bundle.document.id, pageId) });
      built.push({ record, testLines, contentKey });
    } catch (error) {
      skipped.push({
        id: bundle ? recordIdOf(bundle.document.sha256, bundle.page.pageNumber) : null,
        page: label,
        reason: scrubSecrets(error instanceof Error ? error.message : String(error)),
      });
    }
    options.onProgress?.(index + 1, pageIds.length, label);
    // Let the event loop breathe (progress events, a cancel request, other requests) during a long export.
    if (performance.now() - pausedAt > pauseEveryMs) {
      await new Promise((resolve) => setImmediate(resolve));
      pausedAt = performance.now();
    }
  }
  cancelPoint(options.signal, outDir);

  store.checks.saveDerivedTests(derived);
  built.sort((a, b) => (a.record.id < b.record.id ? -1 : 1));
  // One schema for the whole file, the record's (schemaJsonl.ts): table readers type columns from its first block.
  const recordsText = schemaJsonl(corpusRecordTableSchema, built.map((b) => b.record));
  const testLines = built.flatMap((b) => b.testLines.map((line) => namingPagePdf(line, b.record.id)));
  const testsText = testLines.map((l) => `${l}\n`).join('');
  const testsByType: Record<string, number> = {};
  for (const line of testLines) {
    const type = (JSON.parse(line) as { type: string }).type;
    testsByType[type] = (testsByType[type] ?? 0) + 1;
  }
  const readme = renderDataCard({
    projectName: store.info().name,
    records: built.map((b) => b.record),
    tests: testLines.length,
    testsByType,
    filters: { status: options.status ?? null, since: options.since ?? null, images: options.images },
    skipped: skipped.length,
    format,
    frontMatter: cardFrontMatter({ images: options.images === 'png', tests: testLines.length > 0 }),
  });

  // One line per document with an exported page, in document id order (deterministic like the records).
  const documentIds = [...new Set(built.map((b) => b.record.source.document_id))].sort();
  const fieldsText = schemaJsonl(fieldsLineSchema, documentIds.map((documentId) => documentFields.lineOf(documentId)).filter((fields) => fields !== null));
  const formatFiles = trainingFormatFiles(format, built.map((b) => b.record));
  const suppliers = suppliersJsonl(store, new Set(built.map((b) => b.record.source.sha256)));
  const texts: [string, string][] = [
    ['README.md', readme],
    ['records.jsonl', recordsText],
    ['tests.jsonl', testsText],
    ['fields.jsonl', fieldsText],
    ...formatFiles.map((file): [string, string] => [file.path, file.content]),
    // Supplier memory for the exported documents, where it knows any (supplierMemoryFile.ts).
    ...(suppliers ? [[SUPPLIERS_FILE, suppliers] as [string, string]] : []),
    // Hugging Face imagefolder and LLaMA-Factory read these as they are (hubFiles.ts).
    ...(options.images === 'png' ? [['images/metadata.jsonl', imageMetadataJsonl(built.map((b) => b.record))] as [string, string]] : []),
    ...((datasetInfo) => (datasetInfo ? [['dataset_info.json', datasetInfo] as [string, string]] : []))(llamaFactoryDatasetInfo(format)),
  ];
  for (const [name, text] of texts) if (staged.stageIfChanged(name, text)) filesWritten.push(name);

  // Files of the previous export that this one no longer has (pages filtered out or removed) go; nothing else does.
  const images = built.map((b) => b.record.image).filter((p): p is string => p !== null);
  const perPage = built.flatMap((b) => pageFilesOf.get(b.record.id) ?? []);
  const current = new Set([...texts.map(([name]) => name), ...perPage.map((file) => file.path)]);
  const filesRemoved: string[] = [];
  for (const file of previousFiles.keys()) {
    if (current.has(file) || !isPlainRelativePath(file)) continue;
    if (lstatInside(outDir, file)?.isFile()) filesRemoved.push(file);
  }

  const files: ManifestFile[] = [
    ...texts.map(([name, text]) => ({ path: name, sha256: sha256Of(text), bytes: Buffer.byteLength(text) })),
    ...perPage.map((file) => ({ ...file, bytes: staged.sizeOf(file.path) })),
  ].sort((a, b) => (a.path < b.path ? -1 : 1));
  const manifest: CorpusManifest = {
    format: corpusFormat,
    version: corpusFormatVersion,
    training_format: format,
    project: store.info().name,
    filters: { status: options.status ?? null, since: options.since ?? null, images: options.images },
    counts: { records: built.length, tests: testLines.length, images: images.length, skipped: skipped.length },
    files,
    records: Object.fromEntries(built.map((b) => [b.record.id, b.contentKey])),
    skipped,
  };
  if (staged.stageIfChanged('manifest.json', `${JSON.stringify(manifest, null, 2)}\n`)) filesWritten.push('manifest.json');

  return {
    outDir,
    records: built.length,
    tests: testLines.length,
    imagesWritten: pageFiles?.imagesWritten ?? 0,
    imagesKept: pageFiles?.imagesKept ?? 0,
    filesWritten: [...filesWritten, ...(pageFiles?.filesWritten ?? [])].sort(),
    filesRemoved: filesRemoved.sort(),
    skipped,
  };
}

/**
 * A test names the page it tests by its one-page PDF (`pdfs/<id>.pdf`, which olmOCR-Bench's runner reads); tests
 * derived before the export wrote PDFs named the page image and are renamed as they are written.
 */
function namingPagePdf(line: string, recordId: string): string {
  const pdf = `${recordId}.pdf`;
  if (line.includes(`"pdf":${JSON.stringify(pdf)}`)) return line;
  return JSON.stringify({ ...(JSON.parse(line) as Record<string, unknown>), pdf });
}

function recheck(markdown: string, layoutJson: string, corrected: string | null) {
  const { elements } = JSON.parse(layoutJson) as { elements: Parameters<typeof checkPage>[0]['elements'] };
  const outcome = checkPage({ engineMarkdown: markdown, elements, correctedMarkdown: corrected });
  return { scores: outcome.scores, changedChars: outcome.changedChars, kinds: outcome.kinds };
}

/** The previous tests.jsonl lines per record id (test ids start with the record id), for reuse when unchanged. */
function previousTestsByRecord(outDir: string, manifest: CorpusManifest): Map<string, string[]> {
  const byRecord = new Map<string, string[]>();
  const listed = manifest.files.find((f) => f.path === 'tests.jsonl');
  if (!listed || !lstatInside(outDir, 'tests.jsonl')?.isFile()) return byRecord;
  const text = readFileInside(outDir, 'tests.jsonl').toString('utf8');
  if (sha256Of(text) !== listed.sha256) return byRecord; // edited by hand: derive afresh
  for (const id of Object.keys(manifest.records ?? {})) byRecord.set(id, []);
  for (const line of text.split('\n')) {
    if (!line) continue;
    const recordId = (JSON.parse(line) as { id: string }).id.replace(/_[a-z]+_\d+$/, '');
    byRecord.get(recordId)?.push(line);
  }
  return byRecord;
}

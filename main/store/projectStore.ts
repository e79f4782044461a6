/**
 * The project store: one SQLite file per project, and the only code that reads or writes it. Each concern has its
 * repository (documents and pages, readings, revisions, checks, curation queries, page bundles); this class opens the
 * file and hands them out, with the most used calls kept here as one-line delegations. Every write is one
 * transaction, so a failure leaves no half-written rows.
 */
import path from 'node:path';
import type Database from 'better-sqlite3';
import type { ProjectInfo } from '../../app/contract/methods.js';
import type { Extraction } from '../../app/model/extraction.js';
import type { DocumentSummary, PageStatus, PageSummary, ReviewStatus, Revision } from '../../app/model/page.js';
import { BundleWriter } from './applyBundles.js';
import { validateProjectFile } from './validateProjectFile.js';
import { CheckResultsRepository } from './checkResults.js';
import { CurationQueries } from './curationQueries.js';
import { DocumentsRepository, type NewDocument, type PageRecord } from './documents.js';
import { FieldRevisionsRepository } from './fieldRevisions.js';
import type { DocumentEInvoicesRepository } from './einvoices.js';
import { currentSchemaVersion } from './migrations/index.js';
import { openProjectDatabase, ProjectFileError } from './openProjectDatabase.js';
import { bundleReader, type BundleReader } from './pageBundles.js';
import { ReadingsRepository } from './readings.js';
import { RevisionsRepository } from './revisions.js';
import { AttentionRepository } from './attention.js';
import { documentInvoiceKeys } from './documentInvoiceKeys.js';
import { InvoiceKeysRepository } from './invoiceKeys.js';
import { ReviewEventsRepository } from './reviewEvents.js';
import type { InvoiceMatch } from '../../app/invoices/duplicateKeys.js';
import { ReviewNotesRepository } from './reviewNotes.js';

export { NotFoundError, type NewDocument, type NewPage, type PageRecord } from './documents.js';
export { ProjectFileError };

export class ProjectStore {
  readonly documents: DocumentsRepository;
  readonly readings: ReadingsRepository;
  readonly revisions: RevisionsRepository;
  /** Per-page check results, recomputed in the transaction of every revision and extraction (curation). */
  readonly checks: CheckResultsRepository;
  /** The curation queue and its summary, over the check results. */
  readonly curation: CurationQueries;
  /** The analyst's invoice field corrections (kept apart from readings: a re-read never overwrites them). */
  readonly fieldRevisions: FieldRevisionsRepository;
  /** Needs-attention signals per page, for the review queue. */
  readonly attention: AttentionRepository;
  /** Why pages were rejected. */
  readonly reviewNotes: ReviewNotesRepository;
  /** The e-invoice XML each document carries (embedded in its PDF, or imported as XML). */
  readonly einvoices: DocumentEInvoicesRepository;
  /** Each document's duplicate-check keys (invoiceKeys.ts). */
  readonly invoiceKeys: InvoiceKeysRepository;
  /** Who changed each page's review status, when, and why (reviewEvents.ts). */
  readonly reviewEvents: ReviewEventsRepository;

  private constructor(
    readonly file: string,
    private readonly db: Database.Database,
  ) {
    this.checks = new CheckResultsRepository(db);
    this.documents = new DocumentsRepository(db);
    this.einvoices = this.documents.einvoices;
    this.readings = new ReadingsRepository(db, this.documents, this.checks);
    this.revisions = new RevisionsRepository(db, this.documents, this.checks);
    this.curation = new CurationQueries(db);
    this.fieldRevisions = new FieldRevisionsRepository(db, (pageId) => this.latestExtractionOrNull(pageId));
    this.reviewNotes = new ReviewNotesRepository(db, this.documents);
    this.invoiceKeys = new InvoiceKeysRepository(db);
    this.reviewEvents = new ReviewEventsRepository(db);
    this.attention = new AttentionRepository(db, this.fieldRevisions, (pageId) => this.latestExtractionOrNull(pageId), (pageId) => this.latestRevision(pageId)?.text ?? null);
  }

  /** `synchronous`: FULL unless a benchmark asks for its NORMAL baseline (openProjectDatabase.ts). */
  static create(file: string, { synchronous }: { synchronous?: 'FULL' | 'NORMAL' } = {}): ProjectStore {
    return new ProjectStore(path.resolve(file), openProjectDatabase(file, { create: true, synchronous }));
  }

  static open(file: string): ProjectStore {
    return new ProjectStore(path.resolve(file), openProjectDatabase(file, { create: false }));
  }

  /**
   * Opens a file that the user named (app, command line): checked first in a worker with a time limit — header,
   * schema, quick_check (validateProjectFile.ts) — so a damaged or hostile file is refused without blocking the caller.
   */
  static async openChecked(file: string): Promise<ProjectStore> {
    await validateProjectFile(file);
    return ProjectStore.open(file);
  }

  /** Opens the file, creating it when it does not exist yet. */
  static openOrCreate(file: string, exists: boolean): ProjectStore {
    return exists ? ProjectStore.open(file) : ProjectStore.create(file);
  }

  info(): ProjectInfo {
    return { path: this.file, name: path.basename(this.file).replace(/\.recto$/i, ''), schemaVersion: currentSchemaVersion };
  }

  close(): void {
    this.db.close();
  }

  /** Writes a consistent copy of the whole project to `file` (which must not exist), while the project stays open. */
  copyTo(file: string): void {
    this.db.prepare('VACUUM INTO ?').run(file);
  }

  /** Reads pages as bundles (everything about a page, for the corpus export and merges). */
  bundles(): BundleReader {
    return bundleReader(this.db);
  }

  /** Adds page bundles from elsewhere (a corpus, another project) without overwriting anything here. */
  bundleWriter(): BundleWriter {
    return new BundleWriter(this.db, this.checks);
  }

  // Documents and pages.
  hasDocument(sha256: string): boolean {
    return this.documents.hasDocument(sha256);
  }
  /** Adds a document with all its pages, or nothing at all. Returns null when the same content is already here. */
  addDocument(doc: NewDocument): DocumentSummary | null {
    return this.documents.addDocument(doc);
  }
  getDocument(documentId: string): DocumentSummary {
    return this.documents.getDocument(documentId);
  }
  listDocuments(): DocumentSummary[] {
    return this.documents.listDocuments();
  }
  getPage(pageId: string): PageRecord {
    return this.documents.getPage(pageId);
  }
  /** Pages not read yet, or whose reading was interrupted (the app closed mid-read). */
  pagesToRead(): { pageId: string; documentId: string }[] {
    return this.documents.pagesToRead();
  }
  getSourceBytes(sha256: string): Buffer {
    return this.documents.getSourceBytes(sha256);
  }
  setPageStatus(pageId: string, status: PageStatus, error: string | null = null): void {
    this.documents.setPageStatus(pageId, status, error);
  }
  /** Rejects the page with the analyst's reason (reviewNotes.ts). */
  rejectPage(pageId: string, reason: string, author: string): PageSummary {
    return this.reviewNotes.reject(pageId, reason, author);
  }
  rejectionReason(pageId: string): ReturnType<ReviewNotesRepository['rejectionReason']> {
    return this.reviewNotes.rejectionReason(pageId);
  }
  setReviewStatus(pageId: string, status: ReviewStatus): PageSummary {
    return this.documents.setReviewStatus(pageId, status);
  }

  // Readings.
  /** Records an engine run and its extraction, and marks the page read — together or not at all. */
  saveExtraction(pageId: string, extraction: Extraction, startedAt: Date): void {
    this.readings.saveExtraction(pageId, extraction, startedAt);
    this.refreshInvoiceKeys(this.documents.getPage(pageId).documentId);
  }

  // Duplicates.
  /** Re-derives the document's duplicate-check keys from its current fields (after a reading or a correction). */
  refreshInvoiceKeys(documentId: string): void {
    const first = this.documents.getDocument(documentId).pages[0];
    const keys = first ? documentInvoiceKeys(first.id, documentId, this.fieldRevisions, this.einvoices) : null;
    if (keys) this.invoiceKeys.put(documentId, keys);
  }
  /** The project's other invoices that look like this document's invoice, and the invoice a credit note corrects. */
  invoiceMatches(documentId: string): InvoiceMatch[] {
    const first = this.documents.getDocument(documentId).pages[0];
    const keys = first ? documentInvoiceKeys(first.id, documentId, this.fieldRevisions, this.einvoices) : null;
    return keys ? this.invoiceKeys.matches(documentId, keys) : [];
  }
  latestExtraction(pageId: string): Extraction | null {
    return this.readings.latestExtraction(pageId);
  }
  /**
   * The latest reading, or null where there is none or its row is damaged (JSON that does not parse): for readers
   * that can do without it (invoice fields in the export) and must not fail a whole export for one row.
   */
  latestExtractionOrNull(pageId: string): Extraction | null {
    try {
      return this.latestExtraction(pageId);
    } catch (error) {
      if (error instanceof SyntaxError) return null;
      throw error;
    }
  }
  /** Every read page's latest extraction of one document, by page number (one query). */
  latestExtractions(documentId: string): Map<number, Extraction> {
    return this.readings.latestExtractions(documentId);
  }
  /** Replaces the page's latest reading in place, keeping its engine run (see ReadingsRepository). */
  updateLatestExtraction(pageId: string, extraction: Extraction): void {
    this.readings.updateLatestExtraction(pageId, extraction);
  }

  // Revisions.
  /** Saves the analyst's text as a new revision of the page; `parentId` is the revision the edit started from. */
  saveRevision(pageId: string, text: string, author: string, parentId: string | null): Revision {
    return this.revisions.saveRevision(pageId, text, author, parentId);
  }
  listRevisions(pageId: string): Revision[] {
    return this.revisions.listRevisions(pageId);
  }
  latestRevision(pageId: string): Revision | null {
    return this.revisions.latestRevision(pageId);
  }
}

/**
 * The project store: one SQLite file per project, and the only code that reads or writes it. Each concern has its
 * repository (documents and pages, readings, revisions, checks, curation queries, page bundles); this class opens the
 * file and hands them out. The repositories are the API: each table has one door, its repository (`store.documents
 * .getPage`, `store.readings.saveExtraction`), and nothing here repeats them. Every write is one transaction, so a
 * failure leaves no half-written rows.
 */
import path from 'node:path';
import type Database from 'better-sqlite3';
import type { ProjectInfo } from '../../app/contract/methods.js';
import type { Extraction } from '../../app/model/extraction.js';
import type { DocumentSummary, PageStatus, PageSummary, ReviewStatus, Revision } from '../../app/model/page.js';
import { BundleWriter } from './transfer/applyBundles.js';
import { AuditChain } from './auditChain.js';
import { validateProjectFile } from './file/validateProjectFile.js';
import { CheckResultsRepository } from './curation/checkResults.js';
import { CurationQueries } from './curation/curationQueries.js';
import { DocumentsRepository, type NewDocument, type PageRecord } from './documents.js';
import { FieldRevisionsRepository } from './fieldRevisions.js';
import type { DocumentEInvoicesRepository } from './einvoices.js';
import { AccountsRepository } from './accounts.js';
import { currentSchemaVersion } from './migrations/index.js';
import { openProjectDatabase, ProjectFileError } from './file/openProjectDatabase.js';
import { bundleReader, type BundleReader } from './transfer/pageBundles.js';
import { ReadingsRepository } from './readings.js';
import { RevisionsRepository } from './revisions.js';
import { AttentionRepository } from './curation/attention.js';
import { InvoiceKeysRepository } from './invoiceKeys.js';
import { ReviewEventsRepository } from './reviewEvents.js';
import { WorkAssignmentsRepository } from './workAssignments.js';
import { InvoiceExportsRepository } from './invoiceExports.js';
import { ConfirmedAccountsRepository } from './confirmedAccounts.js';
import { xmlPaymentFieldsOfText } from '../../app/invoices/xmlPaymentFields.js';
import { ReviewNotesRepository } from './reviewNotes.js';
import { SupplierMemoryRepository } from './supplierMemory.js';
import { MasterDataRepository } from './masterData.js';
import { SaveConflictsRepository } from './saveConflicts.js';

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
  /** What the analyst's corrections taught about each supplier (supplier memory, migration 007). */
  readonly supplierMemory: SupplierMemoryRepository;
  /** Each document's duplicate-check keys (invoiceKeys.ts), kept current as readings are saved. */
  readonly invoiceKeys: InvoiceKeysRepository;
  /** Who changed each page's review status, when, and why (reviewEvents.ts). */
  readonly reviewEvents: ReviewEventsRepository;
  /** Purchase orders, goods receipts, the vendor master and what invoices were matched to (masterData.ts, migration 011). */
  readonly masterData: MasterDataRepository;
  /** Supplier accounts an analyst confirmed (confirmedAccounts.ts). */
  readonly confirmedAccounts: ConfirmedAccountsRepository;
  /** Which invoices each invoices export sent, on which channel, under which approval (invoiceExports.ts, migration 012). */
  readonly invoiceExports: InvoiceExportsRepository;
  /** Team mode's accounts, their trail and the team's rules (accounts.ts, migration 013). */
  readonly accounts: AccountsRepository;
  /** The analyst's saves on a base: a stale one kept as a conflict, never written over (saveConflicts.ts, migration 014). */
  readonly saveConflicts: SaveConflictsRepository;
  /** Assignment and claims of documents (migration 015). */
  readonly work: WorkAssignmentsRepository;

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
    this.fieldRevisions = new FieldRevisionsRepository(db, (pageId) => this.readings.latestExtractionOrNull(pageId));
    this.reviewEvents = new ReviewEventsRepository(db);
    this.confirmedAccounts = new ConfirmedAccountsRepository(db);
    this.reviewNotes = new ReviewNotesRepository(db, this.documents, this.reviewEvents);
    this.supplierMemory = new SupplierMemoryRepository(db);
    this.masterData = new MasterDataRepository(db);
    this.invoiceExports = new InvoiceExportsRepository(db);
    this.accounts = new AccountsRepository(db);
    this.saveConflicts = new SaveConflictsRepository(db, this.revisions, this.fieldRevisions, (pageId) => this.readings.latestExtractionOrNull(pageId)?.markdown ?? null);
    this.work = new WorkAssignmentsRepository(db);
    this.invoiceKeys = new InvoiceKeysRepository(db, { documents: this.documents, fieldRevisions: this.fieldRevisions, einvoices: this.einvoices });
    this.readings.saved.add((pageId) => this.invoiceKeys.refresh(this.documents.getPage(pageId).documentId));
    this.attention = new AttentionRepository(
      db,
      this.fieldRevisions,
      (pageId) => this.readings.latestExtractionOrNull(pageId),
      (pageId) => this.revisions.latestRevision(pageId)?.text ?? null,
      (documentId) => {
        const stored = this.einvoices.get(documentId);
        return stored?.status === 'read' ? xmlPaymentFieldsOfText(Buffer.from(stored.xml).toString('utf8'), stored.invoice.payment) : null;
      },
    );
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

  /** Runs `write` as one transaction (nested calls become savepoints): a decision over many pages is all or nothing. */
  transaction<T>(write: () => T): T {
    return this.db.transaction(write)();
  }

  /** The audit trail's hash chain (auditChain.ts): `recto audit`, and the warning on opening a project. */
  auditChain(): AuditChain {
    return new AuditChain(this.db);
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
  bundleWriter(limits: { maxPages?: number; origin?: string } = {}): BundleWriter {
    return new BundleWriter(this.db, this, limits.maxPages, limits.origin);
  }
}

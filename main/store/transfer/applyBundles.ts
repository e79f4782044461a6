/**
 * Writing page bundles into a project without losing anything already there: documents are matched by SHA-256,
 * pages by document and page number, runs, extractions and revisions by their ids (UUIDs, unique across projects).
 * What is new is added; nothing is overwritten. Revisions from both sides are kept and ordered by time, so the latest
 * revision is the one saved last, whichever project it came from. A document's invoice field revisions follow the same
 * policy (applyFieldRevisions.ts). This module is the policy alone: every row is read and written through its table's
 * repository (their `imported` doors: documents.ts, readings.ts, revisions.ts, fieldRevisions.ts, reviewEvents.ts).
 * A page's review events (who approved or rejected it, when, why) are matched by id and added the same way.
 */
import { createHash, randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { CheckResultsRepository } from '../curation/checkResults.js';
import type { DocumentsRepository } from '../documents.js';
import type { FieldRevisionsRepository } from '../fieldRevisions.js';
import type { ReadingsRepository } from '../readings.js';
import type { RevisionsRepository } from '../revisions.js';
import { pageStatusOfEvent, type ReviewEventsRepository } from '../reviewEvents.js';
import type { InvoiceKeysRepository } from '../invoiceKeys.js';
import type { PageBundle } from './pageBundles.js';
import { FieldRevisionWriter } from './applyFieldRevisions.js';
import { BundleRowError, checkBundleRows } from './bundleRows.js';
import { DEFAULT_MAX_PAGES } from '../../../app/model/pageLimits.js';

export interface ApplyOutcome {
  pageId: string;
  newDocument: boolean;
  newPage: boolean;
  runsAdded: number;
  revisionsAdded: number;
  /** Both sides had revisions the other lacked: the page now has two lines of edits (both kept). */
  diverged: boolean;
  /**
   * Review statuses differed and neither was "unreviewed": the later decision was kept (by the time of each side's
   * newest review event; the target's where the incoming side recorded none).
   */
  reviewConflict: boolean;
  /** Review status changes of the page added (who, when, why: reviewEvents.ts). */
  reviewEventsAdded: number;
  /**
   * The incoming document is another document (its own id and name) whose bytes this project already holds: its pages
   * went to that document, named here so the user sees which it is.
   */
  sameFileAs: SameFile | null;
  /** Invoice field revisions of the page's document added (applyFieldRevisions.ts). */
  fieldRevisionsAdded: number;
  /** Fields of the document corrected on both sides (both kept, the later one shows). */
  fieldConflicts: number;
}

/** An incoming file whose bytes match a document already in the project. */
export interface SameFile {
  file: string;
  documentId: string;
  documentName: string;
}

/** The counters that a corpus import and a project merge both report. */
export interface AddedCounts {
  documentsAdded: number;
  pagesAdded: number;
  runsAdded: number;
  revisionsAdded: number;
  diverged: number;
  fieldRevisionsAdded: number;
  fieldConflicts: number;
  reviewEventsAdded: number;
  /** Incoming documents whose bytes match another document already here (each once). */
  sameFile: SameFile[];
}

/** Adds one applied page's outcome to a running summary. */
export function countOutcome(summary: AddedCounts, outcome: ApplyOutcome): void {
  if (outcome.newDocument) summary.documentsAdded += 1;
  if (outcome.newPage) summary.pagesAdded += 1;
  summary.runsAdded += outcome.runsAdded;
  summary.revisionsAdded += outcome.revisionsAdded;
  if (outcome.diverged) summary.diverged += 1;
  summary.fieldRevisionsAdded += outcome.fieldRevisionsAdded;
  summary.fieldConflicts += outcome.fieldConflicts;
  summary.reviewEventsAdded += outcome.reviewEventsAdded;
  const same = outcome.sameFileAs;
  if (same && !summary.sameFile.some((s) => s.file === same.file && s.documentId === same.documentId)) summary.sameFile.push(same);
}

/** The repositories a bundle is written through: each table's own door. */
export interface BundleTables {
  documents: DocumentsRepository;
  readings: ReadingsRepository;
  revisions: RevisionsRepository;
  fieldRevisions: FieldRevisionsRepository;
  checks: CheckResultsRepository;
  reviewEvents: ReviewEventsRepository;
  invoiceKeys: InvoiceKeysRepository;
}

/** Keeps the merge policy — what matches, what is new, how two lines of edits are ordered; the rows go through the repositories. */
export class BundleWriter {
  private readonly fieldRevisions: FieldRevisionWriter;

  constructor(
    /** For the transactions only. */
    private readonly db: Database.Database,
    private readonly tables: BundleTables,
    /** The page cap a bundle's page is held to (Settings: maxPagesPerDocument). */
    private readonly maxPages = DEFAULT_MAX_PAGES,
  ) {
    this.fieldRevisions = new FieldRevisionWriter(tables.documents.imported, tables.fieldRevisions.imported);
  }

  /** Adds what the bundle has and the project lacks, and recomputes the page's checks — in one transaction. */
  apply(bundle: PageBundle, sourceBytes: Buffer | null): ApplyOutcome {
    return this.db.transaction(() => this.applyInTransaction(bundle, sourceBytes))();
  }

  /**
   * Runs `write` (any number of apply calls) as one transaction: an error thrown out of it leaves the project as it
   * was. An apply that fails inside and is caught there undoes only its own page (a savepoint).
   */
  all<T>(write: () => T): T {
    return this.db.transaction(write)();
  }

  private applyInTransaction(bundle: PageBundle, sourceBytes: Buffer | null): ApplyOutcome {
    const documents = this.tables.documents.imported;
    const readings = this.tables.readings.imported;
    const revisions = this.tables.revisions.imported;
    const { document, page } = bundle;
    // Rows from outside are checked with the store's own schemas before any is written (bundleRows.ts).
    checkBundleRows(bundle, this.maxPages);
    if (sourceBytes && createHash('sha256').update(sourceBytes).digest('hex') !== document.sha256) {
      throw new BundleRowError(`document: its source file does not match its SHA-256`);
    }
    let documentId = documents.documentIdBySha(document.sha256);
    const newDocument = documentId === undefined;
    const known = newDocument ? null : this.tables.invoiceKeys.sameFile(document.sha256);
    const sameFileAs = known && known.documentId !== document.id && known.documentName !== document.name ? { file: document.name, documentId: known.documentId, documentName: known.documentName } : null;
    if (documentId === undefined) {
      documentId = documents.documentIdTaken(document.id) ? randomUUID() : document.id;
      documents.insertDocument(documentId, document);
    }
    if (sourceBytes) documents.keepSourceBlob(document.sha256, sourceBytes);

    let target = documents.pageByNumber(documentId, page.pageNumber);
    const newPage = target === undefined;
    if (!target) {
      const pageId = documents.pageIdTaken(page.id) ? randomUUID() : page.id;
      documents.insertPage(pageId, documentId, page);
      target = { id: pageId, review_status: page.reviewStatus };
    }
    const pageId = target.id;
    const { reviewConflict, reviewEventsAdded } = newPage ? { reviewConflict: false, reviewEventsAdded: this.addReviewEvents(pageId, bundle) } : this.mergeReview(target, bundle);

    let runsAdded = 0;
    for (const run of bundle.runs) {
      if (readings.has(run.id, run.extraction.id)) continue;
      readings.insert(pageId, run);
      runsAdded += 1;
    }
    if (runsAdded > 0) documents.markRead(pageId);

    const existing = revisions.ofPage(pageId);
    const incoming = bundle.revisions.filter((r) => !revisions.has(r.id));
    const diverged = incoming.length > 0 && existing.some((e) => !bundle.revisions.some((r) => r.id === e.id));
    if (incoming.length > 0) {
      // Inserted past the current end (parents first: a bundle lists revisions in the order they were saved), then
      // the page's revisions are renumbered by time; ties keep each side's own order, the target's first.
      let seq = existing.length === 0 ? 0 : Math.max(...existing.map((e) => e.seq));
      for (const r of incoming) {
        const parentKnown = r.parentId === null || revisions.has(r.parentId);
        revisions.insert(pageId, { ...r, parentId: parentKnown ? r.parentId : null }, ++seq);
      }
      const ordered = [
        ...existing.map((e, i) => ({ id: e.id, at: e.created_at, side: 0, i })),
        ...incoming.map((r, i) => ({ id: r.id, at: r.createdAt, side: 1, i })),
      ].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.side - b.side || a.i - b.i));
      // Two passes: the (page, seq) index is unique, so move everything out of the way first.
      ordered.forEach((r, i) => revisions.setSeq(r.id, -(i + 1)));
      ordered.forEach((r, i) => revisions.setSeq(r.id, i + 1));
    }
    if (runsAdded > 0 || incoming.length > 0 || newPage) this.tables.checks.recompute(pageId);
    const fields = this.fieldRevisions.apply(documentId, bundle.fieldRevisions);
    return {
      pageId,
      newDocument,
      newPage,
      runsAdded,
      revisionsAdded: incoming.length,
      diverged,
      reviewConflict,
      fieldRevisionsAdded: fields.added,
      fieldConflicts: fields.conflicts,
      reviewEventsAdded,
      sameFileAs,
    };
  }

  /**
   * The review status of a page both sides have: an "unreviewed" side takes the other's; where both reviewed it
   * differently, the later decision wins (each side's newest review event), the target's where the incoming side
   * recorded none — as with revisions, what was decided last shows. The incoming events are added either way, so the
   * page's history holds both sides' decisions and the newest event agrees with the status.
   */
  private mergeReview(target: { id: string; review_status: string }, bundle: PageBundle): { reviewConflict: boolean; reviewEventsAdded: number } {
    const incomingStatus = bundle.page.reviewStatus;
    const oursAt = this.tables.reviewEvents.imported.latestAt(target.id);
    const theirs = (bundle.reviewEvents ?? []).at(-1);
    let reviewConflict = false;
    if (target.review_status !== incomingStatus) {
      if (target.review_status === 'unreviewed') this.tables.documents.imported.setReviewStatus(target.id, incomingStatus);
      else if (incomingStatus !== 'unreviewed') {
        reviewConflict = true;
        const theirsIsLater = theirs !== undefined && pageStatusOfEvent(theirs.status) === incomingStatus && (oursAt === null || theirs.at > oursAt);
        if (theirsIsLater) this.tables.documents.imported.setReviewStatus(target.id, incomingStatus);
      }
    }
    return { reviewConflict, reviewEventsAdded: this.addReviewEvents(target.id, bundle) };
  }

  /** Adds the bundle's review events the project lacks (matched by id) to the page. */
  private addReviewEvents(pageId: string, bundle: PageBundle): number {
    const events = this.tables.reviewEvents.imported;
    let added = 0;
    for (const event of bundle.reviewEvents ?? []) {
      if (events.has(event.id)) continue;
      events.insert(pageId, event);
      added += 1;
    }
    return added;
  }
}

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
   * The incoming side decided the page differently from the decision here: the local decision was kept, the incoming
   * one added to the history, and the page flagged for a person to decide (a decision from outside never overturns
   * one taken here, whatever time it claims).
   */
  reviewConflict: boolean;
  /** The incoming side's decision taken on a page nobody here had decided (its status now). */
  decisionAdopted: string | null;
  /** Incoming review events whose time is impossible (in the future, or before the page existed): kept, never deciding. */
  untrustedTimes: number;
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
  /** Pages whose incoming decision differed from the local one: kept in the history, flagged (applyBundles.ts). */
  decisionConflicts: number;
  /** Pages nobody here had decided that took the incoming decision. */
  decisionsAdopted: number;
  /** Incoming review events with an impossible time (never deciding). */
  untrustedTimes: number;
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
  if (outcome.reviewConflict) summary.decisionConflicts += 1;
  if (outcome.decisionAdopted) summary.decisionsAdopted += 1;
  summary.untrustedTimes += outcome.untrustedTimes;
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

/** Statuses that are decisions a person took (an "in-review" or "unreviewed" page was decided by nobody). */
const DECISIONS = new Set(['approved', 'rejected']);

/** Clocks disagree by minutes, not days: a time this far past ours is in the future. */
const CLOCK_SKEW_MS = 10 * 60 * 1000;

/** An event's time is possible: a valid time, not in the future, not before its document came into its project. */
export function plausibleTime(at: string, documentImportedAt: string): boolean {
  const time = Date.parse(at);
  if (!Number.isFinite(time) || time > Date.now() + CLOCK_SKEW_MS) return false;
  const imported = Date.parse(documentImportedAt);
  return !Number.isFinite(imported) || time >= imported;
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
    /** Where the bundles come from (the other project's file, the corpus folder): recorded on every review event brought. */
    private readonly origin = 'import',
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
    const { reviewConflict, reviewEventsAdded, decisionAdopted, untrustedTimes } = this.mergeReview(target, bundle, newPage);

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
      decisionAdopted,
      untrustedTimes,
      fieldRevisionsAdded: fields.added,
      fieldConflicts: fields.conflicts,
      reviewEventsAdded,
      sameFileAs,
    };
  }

  /**
   * The review status of a page both sides have (docs/security.md): a decision from outside is not trusted blindly.
   * A page nobody here decided ("unreviewed") takes the incoming decision when the event that made it has a possible
   * time; a page decided here keeps its decision, and an incoming different decision (approved, rejected) goes into
   * the history only, the page flagged for a person (`ReviewEventsRepository.conflictsOf`). A new page arrives
   * unreviewed unless its own deciding event is believable. The incoming events are added either way.
   */
  private mergeReview(
    target: { id: string; review_status: string },
    bundle: PageBundle,
    newPage: boolean,
  ): { reviewConflict: boolean; reviewEventsAdded: number; decisionAdopted: string | null; untrustedTimes: number } {
    const incomingStatus = bundle.page.reviewStatus;
    const events = bundle.reviewEvents ?? [];
    const plausible = (at: string) => plausibleTime(at, bundle.document.importedAt);
    const untrustedTimes = events.filter((e) => !plausible(e.at)).length;
    const theirs = events.at(-1);
    const believable = theirs !== undefined && pageStatusOfEvent(theirs.status) === incomingStatus && plausible(theirs.at);
    const localStatus = newPage ? 'unreviewed' : target.review_status;
    let reviewConflict = false;
    let decisionAdopted: string | null = null;
    if (localStatus === 'unreviewed' && incomingStatus !== 'unreviewed') {
      if (believable) decisionAdopted = incomingStatus;
      else if (DECISIONS.has(incomingStatus)) reviewConflict = true;
    } else if (localStatus !== incomingStatus && DECISIONS.has(incomingStatus)) reviewConflict = true;
    // The status the page holds now: the local one, or the adopted decision (a new page was inserted with the bundle's).
    this.tables.documents.imported.setReviewStatus(target.id, decisionAdopted ?? localStatus);
    return { reviewConflict, reviewEventsAdded: this.addReviewEvents(target.id, bundle), decisionAdopted, untrustedTimes };
  }

  /** Adds the bundle's review events the project lacks (matched by id) to the page. */
  private addReviewEvents(pageId: string, bundle: PageBundle): number {
    const events = this.tables.reviewEvents.imported;
    let added = 0;
    for (const event of bundle.reviewEvents ?? []) {
      if (events.has(event.id)) continue;
      events.insert(pageId, event, this.origin);
      added += 1;
    }
    return added;
  }
}

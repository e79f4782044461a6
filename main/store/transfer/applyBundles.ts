/**
 * Writing page bundles into a project without losing anything already there: documents are matched by SHA-256,
 * pages by document and page number, runs, extractions and revisions by their ids (UUIDs, unique across projects).
 * What is new is added; nothing is overwritten. Revisions from both sides are kept and ordered by time, so the latest
 * revision is the one saved last, whichever project it came from. A document's invoice field revisions follow the same
 * policy (applyFieldRevisions.ts).
 */
import { createHash, randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { CheckResultsRepository } from '../curation/checkResults.js';
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
  /** Review statuses differed and neither was "unreviewed"; the target's was kept. */
  reviewConflict: boolean;
  /** Invoice field revisions of the page's document added (applyFieldRevisions.ts). */
  fieldRevisionsAdded: number;
  /** Fields of the document corrected on both sides (both kept, the later one shows). */
  fieldConflicts: number;
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
}

export class BundleWriter {
  private readonly statements;
  private readonly fieldRevisions: FieldRevisionWriter;

  constructor(
    private readonly db: Database.Database,
    private readonly checks: CheckResultsRepository,
    /** The page cap a bundle's page is held to (Settings: maxPagesPerDocument). */
    private readonly maxPages = DEFAULT_MAX_PAGES,
  ) {
    this.fieldRevisions = new FieldRevisionWriter(db);
    this.statements = {
      documentBySha: db.prepare('SELECT id FROM documents WHERE sha256 = ?'),
      idTaken: {
        documents: db.prepare('SELECT 1 FROM documents WHERE id = ?'),
        pages: db.prepare('SELECT 1 FROM pages WHERE id = ?'),
        engine_runs: db.prepare('SELECT 1 FROM engine_runs WHERE id = ?'),
        extractions: db.prepare('SELECT 1 FROM extractions WHERE id = ?'),
        revisions: db.prepare('SELECT 1 FROM revisions WHERE id = ?'),
      },
      insertDocument: db.prepare(
        'INSERT INTO documents (id, sha256, name, media_type, size_bytes, imported_at) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      insertBlob: db.prepare('INSERT OR IGNORE INTO source_blobs (sha256, bytes) VALUES (?, ?)'),
      pageByNumber: db.prepare('SELECT id, review_status FROM pages WHERE document_id = ? AND page_number = ?'),
      insertPage: db.prepare(
        `INSERT INTO pages (id, document_id, page_number, width, height, dpi, text_layer, status, error, review_status)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      setReview: db.prepare('UPDATE pages SET review_status = ? WHERE id = ?'),
      markRead: db.prepare(`UPDATE pages SET status = 'done', error = NULL WHERE id = ?`),
      insertRun: db.prepare(
        `INSERT INTO engine_runs (id, page_id, engine_id, engine_name, engine_version, pack_sha256, licence, provider,
           settings, stats, started_at, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      insertExtraction: db.prepare(
        `INSERT INTO extractions (id, run_id, page_id, markdown, elements, words, fields, warnings, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      revisionsOf: db.prepare('SELECT id, created_at, seq FROM revisions WHERE page_id = ? ORDER BY seq'),
      insertRevision: db.prepare(
        'INSERT INTO revisions (id, page_id, parent_id, text, author, created_at, seq) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
      setSeq: db.prepare('UPDATE revisions SET seq = ? WHERE id = ?'),
    };
  }

  private taken(table: keyof typeof this.statements.idTaken, id: string): boolean {
    return this.statements.idTaken[table].get(id) !== undefined;
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
    const s = this.statements;
    const { document, page } = bundle;
    // Rows from outside are checked with the store's own schemas before any is written (bundleRows.ts).
    checkBundleRows(bundle, this.maxPages);
    if (sourceBytes && createHash('sha256').update(sourceBytes).digest('hex') !== document.sha256) {
      throw new BundleRowError(`document: its source file does not match its SHA-256`);
    }
    let documentId = s.documentBySha.pluck().get(document.sha256) as string | undefined;
    const newDocument = documentId === undefined;
    if (documentId === undefined) {
      documentId = this.taken('documents', document.id) ? randomUUID() : document.id;
      s.insertDocument.run(documentId, document.sha256, document.name, document.mediaType, document.sizeBytes, document.importedAt);
    }
    if (sourceBytes) s.insertBlob.run(document.sha256, sourceBytes);

    let target = s.pageByNumber.get(documentId, page.pageNumber) as { id: string; review_status: string } | undefined;
    const newPage = target === undefined;
    let reviewConflict = false;
    if (!target) {
      const pageId = this.taken('pages', page.id) ? randomUUID() : page.id;
      s.insertPage.run(pageId, documentId, page.pageNumber, page.width, page.height, page.dpi, page.textLayerJson, page.status,
        page.error, page.reviewStatus);
      target = { id: pageId, review_status: page.reviewStatus };
    } else if (target.review_status !== page.reviewStatus) {
      if (target.review_status === 'unreviewed') s.setReview.run(page.reviewStatus, target.id);
      else if (page.reviewStatus !== 'unreviewed') reviewConflict = true;
    }
    const pageId = target.id;

    let runsAdded = 0;
    for (const run of bundle.runs) {
      if (this.taken('engine_runs', run.id) || this.taken('extractions', run.extraction.id)) continue;
      s.insertRun.run(run.id, pageId, run.engineId, run.engineName, run.engineVersion, run.packSha256, run.licence, run.provider,
        run.settingsJson, run.statsJson, run.startedAt, run.finishedAt);
      const x = run.extraction;
      s.insertExtraction.run(x.id, run.id, pageId, x.markdown, x.layoutJson, x.wordsJson, x.fieldsJson, x.warningsJson, x.createdAt);
      runsAdded += 1;
    }
    if (runsAdded > 0) s.markRead.run(pageId);

    const existing = s.revisionsOf.all(pageId) as { id: string; created_at: string; seq: number }[];
    const incoming = bundle.revisions.filter((r) => !this.taken('revisions', r.id));
    const diverged = incoming.length > 0 && existing.some((e) => !bundle.revisions.some((r) => r.id === e.id));
    if (incoming.length > 0) {
      // Inserted past the current end (parents first: a bundle lists revisions in the order they were saved), then
      // the page's revisions are renumbered by time; ties keep each side's own order, the target's first.
      let seq = existing.length === 0 ? 0 : Math.max(...existing.map((e) => e.seq));
      for (const r of incoming) {
        const parentKnown = r.parentId === null || this.taken('revisions', r.parentId);
        s.insertRevision.run(r.id, pageId, parentKnown ? r.parentId : null, r.text, r.author, r.createdAt, ++seq);
      }
      const ordered = [
        ...existing.map((e, i) => ({ id: e.id, at: e.created_at, side: 0, i })),
        ...incoming.map((r, i) => ({ id: r.id, at: r.createdAt, side: 1, i })),
      ].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.side - b.side || a.i - b.i));
      // Two passes: the (page, seq) index is unique, so move everything out of the way first.
      ordered.forEach((r, i) => s.setSeq.run(-(i + 1), r.id));
      ordered.forEach((r, i) => s.setSeq.run(i + 1, r.id));
    }
    if (runsAdded > 0 || incoming.length > 0 || newPage) this.checks.recompute(pageId);
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
    };
  }
}

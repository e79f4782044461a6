/**
 * A page bundle is everything a project knows about one page — its document, its engine runs with their
 * extractions, every revision — in a form that can leave one project and enter another without loss. The corpus
 * export writes bundles as records, the corpus import reads them back, and merging two projects moves bundles.
 */
import type Database from 'better-sqlite3';
import type { PageStatus, ReviewStatus } from '../../../app/model/page.js';

export interface BundleDocument {
  id: string;
  sha256: string;
  name: string;
  mediaType: string;
  sizeBytes: number;
  importedAt: string;
}

export interface BundlePage {
  id: string;
  pageNumber: number;
  width: number;
  height: number;
  dpi: number;
  /** JSON of the page's text layer, as stored. */
  textLayerJson: string | null;
  status: PageStatus;
  error: string | null;
  reviewStatus: ReviewStatus;
}

/** One engine run and its extraction, columns as stored (JSON columns kept as strings). */
export interface BundleRun {
  id: string;
  engineId: string;
  engineName: string;
  engineVersion: string;
  packSha256: string | null;
  licence: string | null;
  provider: string | null;
  settingsJson: string;
  statsJson: string;
  startedAt: string;
  finishedAt: string;
  extraction: {
    id: string;
    markdown: string;
    /** JSON of { page, elements }. */
    layoutJson: string;
    wordsJson: string | null;
    fieldsJson: string | null;
    warningsJson: string;
    createdAt: string;
  };
}

export interface BundleRevision {
  id: string;
  parentId: string | null;
  text: string;
  author: string;
  createdAt: string;
}

/** One field revision (fieldRevisions.ts), columns as stored: values are JSON text, `newValueJson` null = back to the engine. */
export interface BundleFieldRevision {
  id: string;
  parentId: string | null;
  field: string;
  oldValueJson: string | null;
  newValueJson: string | null;
  undoes: string | null;
  author: string;
  createdAt: string;
}

/**
 * One review status change of the page (reviewEvents.ts), as stored: the status it set (`approved-with-exceptions`
 * where exceptions were approved over), the exceptions and the reason, who and when.
 */
export interface BundleReviewEvent {
  id: string;
  status: string;
  exceptions: string[];
  reason: string | null;
  reviewer: string;
  at: string;
}

export interface PageBundle {
  document: BundleDocument;
  page: BundlePage;
  /** Oldest first; the last is the latest extraction. */
  runs: BundleRun[];
  /** In the order they were saved (seq). */
  revisions: BundleRevision[];
  /**
   * The invoice field revisions of the page's document, in the order they were saved: a document's fields are kept on
   * its first page, and every page of the document carries them, so any of its pages brings them along.
   */
  fieldRevisions: BundleFieldRevision[];
  /** The page's review status changes, oldest first (absent in a bundle from before they were carried). */
  reviewEvents: BundleReviewEvent[];
}

/** Which pages an export takes: by review status, and by the time of their latest revision. */
export interface BundleSelection {
  reviewStatus?: ReviewStatus;
  /** ISO time: only pages with a revision saved at or after it (a field revision counts for its document's pages). */
  revisedSince?: string;
}

export interface BundleReader {
  /** Page ids in corpus order: by document SHA-256, then page number. */
  pageIds(selection?: BundleSelection): string[];
  read(pageId: string, options: { allRuns: boolean }): PageBundle;
  sourceBytes(sha256: string): Buffer | null;
}

const hasTable = (db: Database.Database, name: string): boolean =>
  db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(name) !== undefined;

/**
 * A stored event's exceptions (JSON text of an array of strings). A damaged column is passed on as it parsed — or as
 * its text where it is not JSON — for the bundle check to refuse, naming the event (bundleRows.ts).
 */
function storedExceptions(text: string): string[] {
  try {
    return JSON.parse(text) as string[];
  } catch {
    return text as unknown as string[];
  }
}

/** Reads bundles with plain SQL over the schema-1 tables, so it also works on a read-only connection. */
export function bundleReader(db: Database.Database): BundleReader {
  const statements = {
    pageIds: db.prepare(
      `SELECT p.id FROM pages p JOIN documents d ON d.id = p.document_id ORDER BY d.sha256, p.page_number`,
    ),
    page: db.prepare(
      `SELECT p.id, p.page_number, p.width, p.height, p.dpi, p.text_layer, p.status, p.error, p.review_status,
              d.id AS document_id, d.sha256, d.name, d.media_type, d.size_bytes, d.imported_at
       FROM pages p JOIN documents d ON d.id = p.document_id WHERE p.id = ?`,
    ),
    runs: db.prepare(
      `SELECT r.*, x.id AS extraction_id, x.markdown, x.elements, x.words, x.fields, x.warnings, x.created_at
       FROM extractions x JOIN engine_runs r ON r.id = x.run_id WHERE x.page_id = ?
       ORDER BY x.created_at, x.rowid`,
    ),
    latestRun: db.prepare(
      `SELECT r.*, x.id AS extraction_id, x.markdown, x.elements, x.words, x.fields, x.warnings, x.created_at
       FROM extractions x JOIN engine_runs r ON r.id = x.run_id WHERE x.page_id = ?
       ORDER BY x.created_at DESC, x.rowid DESC LIMIT 1`,
    ),
    revisions: db.prepare('SELECT id, parent_id, text, author, created_at FROM revisions WHERE page_id = ? ORDER BY seq'),
    source: db.prepare('SELECT bytes FROM source_blobs WHERE sha256 = ?'),
    // A project of schema 3 or older (merged read-only, never migrated) has no field_revisions table.
    fieldRevisions: hasTable(db, 'field_revisions')
      ? db.prepare(
          `SELECT f.id, f.parent_id, f.field, f.old_value, f.new_value, f.undoes, f.author, f.created_at
           FROM field_revisions f JOIN pages p ON p.id = f.page_id
           WHERE p.document_id = (SELECT document_id FROM pages WHERE id = ?) ORDER BY p.page_number, f.seq`,
        )
      : null,
    // Projects before schema 8 have no review events.
    reviewEvents: hasTable(db, 'review_events')
      ? db.prepare('SELECT id, status, exceptions, reason, reviewer, at FROM review_events WHERE page_id = ? ORDER BY at, rowid')
      : null,
  };
  return {
    pageIds: (selection = {}) => {
      if (selection.reviewStatus === undefined && selection.revisedSince === undefined) {
        return statements.pageIds.pluck().all() as string[];
      }
      const clauses: string[] = [];
      const params: unknown[] = [];
      if (selection.reviewStatus !== undefined) {
        clauses.push('p.review_status = ?');
        params.push(selection.reviewStatus);
      }
      if (selection.revisedSince !== undefined) {
        // A field correction revises every page of its document (each record carries the document's fields).
        const fieldRevised = statements.fieldRevisions
          ? ` OR (SELECT MAX(f.created_at) FROM field_revisions f JOIN pages q ON q.id = f.page_id WHERE q.document_id = p.document_id) >= ?`
          : '';
        clauses.push(`((SELECT MAX(v.created_at) FROM revisions v WHERE v.page_id = p.id) >= ?${fieldRevised})`);
        params.push(selection.revisedSince, ...(fieldRevised ? [selection.revisedSince] : []));
      }
      return db
        .prepare(
          `SELECT p.id FROM pages p JOIN documents d ON d.id = p.document_id
           WHERE ${clauses.join(' AND ')} ORDER BY d.sha256, p.page_number`,
        )
        .pluck()
        .all(...params) as string[];
    },
    read(pageId, { allRuns }) {
      const row = statements.page.get(pageId) as Record<string, never> | undefined;
      if (!row) throw new Error(`no page ${pageId}`);
      const runRows = (allRuns ? statements.runs.all(pageId) : [statements.latestRun.get(pageId)].filter(Boolean)) as Record<
        string,
        never
      >[];
      return {
        document: {
          id: row.document_id,
          sha256: row.sha256,
          name: row.name,
          mediaType: row.media_type,
          sizeBytes: row.size_bytes,
          importedAt: row.imported_at,
        },
        page: {
          id: row.id,
          pageNumber: row.page_number,
          width: row.width,
          height: row.height,
          dpi: row.dpi,
          textLayerJson: row.text_layer,
          status: row.status,
          error: row.error,
          reviewStatus: row.review_status,
        },
        runs: runRows.map((r) => ({
          id: r.id,
          engineId: r.engine_id,
          engineName: r.engine_name,
          engineVersion: r.engine_version,
          packSha256: r.pack_sha256,
          licence: r.licence,
          provider: r.provider,
          settingsJson: r.settings,
          statsJson: r.stats,
          startedAt: r.started_at,
          finishedAt: r.finished_at,
          extraction: {
            id: r.extraction_id,
            markdown: r.markdown,
            layoutJson: r.elements,
            wordsJson: r.words,
            fieldsJson: r.fields,
            warningsJson: r.warnings,
            createdAt: r.created_at,
          },
        })),
        revisions: (statements.revisions.all(pageId) as Record<string, never>[]).map((r) => ({
          id: r.id,
          parentId: r.parent_id,
          text: r.text,
          author: r.author,
          createdAt: r.created_at,
        })),
        fieldRevisions: ((statements.fieldRevisions?.all(pageId) ?? []) as Record<string, never>[]).map((r) => ({
          id: r.id,
          parentId: r.parent_id,
          field: r.field,
          oldValueJson: r.old_value,
          newValueJson: r.new_value,
          undoes: r.undoes,
          author: r.author,
          createdAt: r.created_at,
        })),
        reviewEvents: ((statements.reviewEvents?.all(pageId) ?? []) as Record<string, never>[]).map((r) => ({
          id: r.id,
          status: r.status,
          exceptions: storedExceptions(r.exceptions),
          reason: r.reason,
          reviewer: r.reviewer,
          at: r.at,
        })),
      };
    },
    sourceBytes: (sha256) => (statements.source.pluck().get(sha256) as Buffer | undefined) ?? null,
  };
}

/**
 * The project store: one SQLite file per project. Every write is one transaction, so a failure leaves no
 * half-written rows. Rows are mapped to the app/ model types at this boundary and nowhere else.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { extractionSchema, type Extraction } from '../../app/model/extraction.js';
import type {
  DocumentSummary,
  PageStatus,
  PageSummary,
  ReviewStatus,
  Revision,
  TextLayer,
} from '../../app/model/page.js';
import type { ProjectInfo } from '../../app/contract/methods.js';
import { openProjectDatabase, ProjectFileError } from './openProjectDatabase.js';
import { currentSchemaVersion } from './migrations/index.js';
import { CheckResultsRepository } from './checkResults.js';
import { FieldRevisionsRepository } from './fieldRevisions.js';

export interface NewPage {
  pageNumber: number;
  width: number;
  height: number;
  dpi: number;
  textLayer: TextLayer | null;
}

export interface NewDocument {
  sha256: string;
  name: string;
  mediaType: string;
  bytes: Buffer;
  pages: NewPage[];
}

/** A page with what reading it needs. */
export interface PageRecord extends PageSummary {
  documentName: string;
  documentSha256: string;
  mediaType: string;
  textLayer: TextLayer | null;
}

interface PageRow {
  id: string;
  document_id: string;
  page_number: number;
  width: number;
  height: number;
  dpi: number;
  status: PageStatus;
  error: string | null;
  review_status: ReviewStatus;
  engine: string | null;
  revision_count: number;
}

const pageColumns = `p.id, p.document_id, p.page_number, p.width, p.height, p.dpi, p.status, p.error, p.review_status,
  (SELECT r.engine_id FROM extractions x JOIN engine_runs r ON r.id = x.run_id
     WHERE x.page_id = p.id ORDER BY x.created_at DESC, x.rowid DESC LIMIT 1) AS engine,
  (SELECT COUNT(*) FROM revisions v WHERE v.page_id = p.id) AS revision_count`;

function toPageSummary(row: PageRow): PageSummary {
  return {
    id: row.id,
    documentId: row.document_id,
    pageNumber: row.page_number,
    width: row.width,
    height: row.height,
    dpi: row.dpi,
    status: row.status,
    error: row.error,
    engine: row.engine,
    revisionCount: row.revision_count,
    reviewStatus: row.review_status,
  };
}

interface RevisionRow {
  id: string;
  page_id: string;
  parent_id: string | null;
  text: string;
  author: string;
  created_at: string;
}

function toRevision(row: RevisionRow): Revision {
  return {
    id: row.id,
    pageId: row.page_id,
    parentId: row.parent_id,
    text: row.text,
    author: row.author,
    createdAt: row.created_at,
  };
}

/** A request about something that is not in the project. */
export class NotFoundError extends Error {
  override name = 'NotFoundError';
}

export class ProjectStore {
  /** Per-page check results, recomputed in the transaction of every revision and extraction (curation). */
  readonly checks: CheckResultsRepository;
  /** The analyst's invoice field corrections (kept apart from readings: a re-read never overwrites them). */
  readonly fieldRevisions: FieldRevisionsRepository;
  private revisionStatements:
    | { pageExists: Database.Statement; parentPage: Database.Statement; nextSeq: Database.Statement; insert: Database.Statement }
    | undefined;

  private constructor(
    readonly file: string,
    private readonly db: Database.Database,
  ) {
    this.checks = new CheckResultsRepository(db);
    this.fieldRevisions = new FieldRevisionsRepository(db, (pageId) => this.latestExtractionOrNull(pageId));
  }

  /** The connection, for sibling repositories in main/ (curation queries, corpus import and merge). */
  get database(): Database.Database {
    return this.db;
  }

  static create(file: string): ProjectStore {
    return new ProjectStore(path.resolve(file), openProjectDatabase(file, { create: true }));
  }

  static open(file: string): ProjectStore {
    return new ProjectStore(path.resolve(file), openProjectDatabase(file, { create: false }));
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

  hasDocument(sha256: string): boolean {
    return this.db.prepare('SELECT 1 FROM documents WHERE sha256 = ?').get(sha256) !== undefined;
  }

  /** Adds a document with all its pages, or nothing at all. Returns null when the same content is already here. */
  addDocument(doc: NewDocument): DocumentSummary | null {
    if (doc.pages.length === 0) throw new Error(`${doc.name}: has no pages`);
    const id = randomUUID();
    const importedAt = new Date().toISOString();
    const inserted = this.db.transaction(() => {
      const result = this.db
        .prepare(
          `INSERT INTO documents (id, sha256, name, media_type, size_bytes, imported_at)
           VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (sha256) DO NOTHING`,
        )
        .run(id, doc.sha256, doc.name, doc.mediaType, doc.bytes.length, importedAt);
      if (result.changes === 0) return false;
      this.db.prepare('INSERT INTO source_blobs (sha256, bytes) VALUES (?, ?)').run(doc.sha256, doc.bytes);
      const insertPage = this.db.prepare(
        `INSERT INTO pages (id, document_id, page_number, width, height, dpi, text_layer)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      );
      for (const page of doc.pages) {
        insertPage.run(
          randomUUID(),
          id,
          page.pageNumber,
          page.width,
          page.height,
          page.dpi,
          page.textLayer ? JSON.stringify(page.textLayer) : null,
        );
      }
      return true;
    })();
    return inserted ? this.getDocument(id) : null;
  }

  getDocument(documentId: string): DocumentSummary {
    const row = this.db
      .prepare('SELECT id, name, sha256, media_type, imported_at FROM documents WHERE id = ?')
      .get(documentId) as { id: string; name: string; sha256: string; media_type: string; imported_at: string } | undefined;
    if (!row) throw new NotFoundError(`No document ${documentId} in this project`);
    const pages = (
      this.db
        .prepare(`SELECT ${pageColumns} FROM pages p WHERE p.document_id = ? ORDER BY p.page_number`)
        .all(documentId) as PageRow[]
    ).map(toPageSummary);
    return {
      id: row.id,
      name: row.name,
      sha256: row.sha256,
      mediaType: row.media_type,
      importedAt: row.imported_at,
      pages,
    };
  }

  listDocuments(): DocumentSummary[] {
    const ids = this.db.prepare('SELECT id FROM documents ORDER BY imported_at, rowid').pluck().all() as string[];
    return ids.map((id) => this.getDocument(id));
  }

  getPage(pageId: string): PageRecord {
    const row = this.db
      .prepare(
        `SELECT ${pageColumns}, p.text_layer, d.name AS document_name, d.sha256 AS document_sha256,
                d.media_type AS media_type
         FROM pages p JOIN documents d ON d.id = p.document_id WHERE p.id = ?`,
      )
      .get(pageId) as
      | (PageRow & { text_layer: string | null; document_name: string; document_sha256: string; media_type: string })
      | undefined;
    if (!row) throw new NotFoundError(`No page ${pageId} in this project`);
    return {
      ...toPageSummary(row),
      documentName: row.document_name,
      documentSha256: row.document_sha256,
      mediaType: row.media_type,
      textLayer: row.text_layer ? (JSON.parse(row.text_layer) as TextLayer) : null,
    };
  }

  /** Pages not read yet, or whose reading was interrupted (the app closed mid-read). */
  pagesToRead(): { pageId: string; documentId: string }[] {
    return this.db
      .prepare(
        `SELECT p.id AS pageId, p.document_id AS documentId FROM pages p JOIN documents d ON d.id = p.document_id
         WHERE p.status IN ('pending', 'reading') ORDER BY d.imported_at, d.rowid, p.page_number`,
      )
      .all() as { pageId: string; documentId: string }[];
  }

  getSourceBytes(sha256: string): Buffer {
    const bytes = this.db.prepare('SELECT bytes FROM source_blobs WHERE sha256 = ?').pluck().get(sha256) as
      | Buffer
      | undefined;
    if (!bytes) throw new NotFoundError(`The source file ${sha256.slice(0, 12)}… is missing from this project`);
    return bytes;
  }

  setPageStatus(pageId: string, status: PageStatus, error: string | null = null): void {
    const result = this.db.prepare('UPDATE pages SET status = ?, error = ? WHERE id = ?').run(status, error, pageId);
    if (result.changes === 0) throw new NotFoundError(`No page ${pageId} in this project`);
  }

  setReviewStatus(pageId: string, status: ReviewStatus): PageSummary {
    const result = this.db.prepare('UPDATE pages SET review_status = ? WHERE id = ?').run(status, pageId);
    if (result.changes === 0) throw new NotFoundError(`No page ${pageId} in this project`);
    return this.getPage(pageId);
  }

  /** Records an engine run and its extraction, and marks the page read — together or not at all. */
  saveExtraction(pageId: string, extraction: Extraction, startedAt: Date): void {
    const checked = extractionSchema.parse(extraction);
    const runId = randomUUID();
    const now = new Date().toISOString();
    this.db.transaction(() => {
      this.db
        .prepare(
          `INSERT INTO engine_runs (id, page_id, engine_id, engine_name, engine_version, pack_sha256, licence, provider,
             settings, stats, started_at, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          runId,
          pageId,
          checked.engine.id,
          checked.engine.name,
          checked.engine.version,
          checked.engine.packSha256,
          checked.engine.licence,
          checked.engine.provider,
          JSON.stringify(checked.engine.settings),
          JSON.stringify(checked.stats),
          startedAt.toISOString(),
          now,
        );
      this.db
        .prepare(
          `INSERT INTO extractions (id, run_id, page_id, markdown, elements, words, fields, warnings, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          randomUUID(),
          runId,
          pageId,
          checked.markdown,
          JSON.stringify({ page: checked.page, elements: checked.elements }),
          checked.words ? JSON.stringify(checked.words) : null,
          checked.fields ? JSON.stringify(checked.fields) : null,
          JSON.stringify(checked.warnings),
          now,
        );
      this.setPageStatus(pageId, 'done', null);
      this.checks.recompute(pageId);
    })();
  }

  latestExtraction(pageId: string): Extraction | null {
    const row = this.db
      .prepare(
        `SELECT x.markdown, x.elements, x.words, x.fields, x.warnings, r.engine_id, r.engine_name, r.engine_version,
                r.pack_sha256, r.licence, r.provider, r.settings, r.stats
         FROM extractions x JOIN engine_runs r ON r.id = x.run_id
         WHERE x.page_id = ? ORDER BY x.created_at DESC, x.rowid DESC LIMIT 1`,
      )
      .get(pageId) as Record<string, string | null> | undefined;
    if (!row) return null;
    const layout = JSON.parse(row.elements!) as Pick<Extraction, 'page' | 'elements'>;
    return {
      markdown: row.markdown!,
      page: layout.page,
      elements: layout.elements,
      words: row.words ? JSON.parse(row.words) : undefined,
      fields: row.fields ? JSON.parse(row.fields) : undefined,
      warnings: JSON.parse(row.warnings!),
      engine: {
        id: row.engine_id!,
        name: row.engine_name!,
        version: row.engine_version!,
        packSha256: row.pack_sha256,
        licence: row.licence,
        provider: row.provider,
        settings: JSON.parse(row.settings!),
      },
      stats: JSON.parse(row.stats!),
    };
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

  /**
   * Replaces the page's latest reading in place, keeping its engine run: for passes that judge a page again in the
   * light of the rest of its document (running headers and footers), which change where text sits, not what the
   * engine read. Checks are recomputed with it.
   */
  updateLatestExtraction(pageId: string, extraction: Extraction): void {
    const checked = extractionSchema.parse(extraction);
    this.db.transaction(() => {
      const latest = this.db
        .prepare('SELECT id FROM extractions WHERE page_id = ? ORDER BY created_at DESC, rowid DESC LIMIT 1')
        .get(pageId) as { id: string } | undefined;
      if (!latest) throw new Error(`page ${pageId} has no reading to update`);
      this.db
        .prepare('UPDATE extractions SET markdown = ?, elements = ?, words = ?, fields = ?, warnings = ? WHERE id = ?')
        .run(
          checked.markdown,
          JSON.stringify({ page: checked.page, elements: checked.elements }),
          checked.words ? JSON.stringify(checked.words) : null,
          checked.fields ? JSON.stringify(checked.fields) : null,
          JSON.stringify(checked.warnings),
          latest.id,
        );
      this.checks.recompute(pageId);
    })();
  }

  /**
   * Saves the analyst's text as a new revision. `parentId` is the revision the edit started from (null for the
   * first edit of the engine's text); it must belong to the same page.
   */
  saveRevision(pageId: string, text: string, author: string, parentId: string | null): Revision {
    // Prepared once: a save is on the analyst's critical path (with the checks it must stay within ~10 ms), and
    // preparing these statements and reading the whole page (its text layer parsed) cost more than the inserts.
    const statements = (this.revisionStatements ??= {
      pageExists: this.db.prepare('SELECT 1 FROM pages WHERE id = ?').pluck(),
      parentPage: this.db.prepare('SELECT page_id FROM revisions WHERE id = ?').pluck(),
      nextSeq: this.db.prepare('SELECT COALESCE(MAX(seq), 0) + 1 FROM revisions WHERE page_id = ?').pluck(),
      insert: this.db.prepare(
        `INSERT INTO revisions (id, page_id, parent_id, text, author, created_at, seq) VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ),
    });
    return this.db.transaction(() => {
      if (statements.pageExists.get(pageId) === undefined) throw new NotFoundError(`No page ${pageId} in this project`);
      if (parentId !== null) {
        const parentPage = statements.parentPage.get(parentId);
        if (parentPage !== pageId) throw new NotFoundError(`Revision ${parentId} is not a revision of page ${pageId}`);
      }
      const seq = statements.nextSeq.get(pageId) as number;
      const row: RevisionRow = {
        id: randomUUID(),
        page_id: pageId,
        parent_id: parentId,
        text,
        author,
        created_at: new Date().toISOString(),
      };
      statements.insert.run(row.id, row.page_id, row.parent_id, row.text, row.author, row.created_at, seq);
      this.checks.recompute(pageId);
      return toRevision(row);
    })();
  }

  listRevisions(pageId: string): Revision[] {
    this.getPage(pageId);
    return (
      this.db.prepare('SELECT * FROM revisions WHERE page_id = ? ORDER BY seq').all(pageId) as RevisionRow[]
    ).map(toRevision);
  }

  latestRevision(pageId: string): Revision | null {
    const row = this.db.prepare('SELECT * FROM revisions WHERE page_id = ? ORDER BY seq DESC LIMIT 1').get(pageId) as
      | RevisionRow
      | undefined;
    return row ? toRevision(row) : null;
  }
}

export { ProjectFileError };

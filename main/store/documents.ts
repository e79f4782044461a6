/**
 * Documents and their pages: the source files themselves (by SHA-256), page geometry and text layers, reading and
 * review status. Rows are mapped to the app/ model types here and nowhere else.
 */
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { scrubSecrets } from '../../app/model/secrets.js';
import { DocumentEInvoicesRepository, type NewDocumentEInvoice } from './einvoices.js';
import type {
  DocumentSummary,
  PageStatus,
  PageSummary,
  ReviewStatus,
  TextLayer,
} from '../../app/model/page.js';
import { CodedError, errorCodes } from '../../app/contract/wire.js';

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
  /** The e-invoice the document carries (kept in the same transaction). */
  einvoice?: NewDocumentEInvoice;
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

const documentColumns = 'id, name, sha256, media_type, imported_at';
interface DocumentRow {
  id: string;
  name: string;
  sha256: string;
  media_type: string;
  imported_at: string;
}

function toDocumentSummary(row: DocumentRow, pages: PageSummary[]): DocumentSummary {
  return { id: row.id, name: row.name, sha256: row.sha256, mediaType: row.media_type, importedAt: row.imported_at, pages };
}

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

/** A request about something that is not in the project. */
export class NotFoundError extends CodedError {
  override name = 'NotFoundError';
  constructor(message: string) {
    super(errorCodes.notFound, message);
  }
}

export class DocumentsRepository {
  /** The e-invoice each document carries: written with the document, in its transaction. */
  readonly einvoices: DocumentEInvoicesRepository;

  /** Documents, blobs and pages from elsewhere, for the bundle writer (transfer/applyBundles.ts). */
  readonly imported: ImportedDocumentRows;

  private readonly statements;

  constructor(private readonly db: Database.Database) {
    this.einvoices = new DocumentEInvoicesRepository(db);
    this.imported = new ImportedDocumentRows(db);
    this.statements = {
      documentById: db.prepare(`SELECT ${documentColumns} FROM documents WHERE id = ?`),
      allDocuments: db.prepare(`SELECT ${documentColumns} FROM documents ORDER BY imported_at, rowid`),
      pagesOfDocument: db.prepare(`SELECT ${pageColumns} FROM pages p WHERE p.document_id = ? ORDER BY p.page_number`),
      allPages: db.prepare(`SELECT ${pageColumns} FROM pages p ORDER BY p.document_id, p.page_number`),
    };
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
      if (doc.einvoice) this.einvoices.put(id, doc.einvoice);
      return true;
    })();
    return inserted ? this.getDocument(id) : null;
  }

  /**
   * A stamp that changes when anything Recto writes about the document's content does (a reading, a text or field
   * revision, the stored e-invoice): the newest row of each. For caches of what is derived from the content (the
   * queue's bank-account signals); an edit made in place outside Recto keeps it, so nothing that decides — an
   * approval, the export — relies on it.
   */
  contentStamp(documentId: string): string {
    this.contentStampStatement ??= this.db.prepare(
      `SELECT COALESCE((SELECT MAX(e.rowid) FROM extractions e JOIN pages p ON p.id = e.page_id WHERE p.document_id = @d), 0) || ':' ||
              COALESCE((SELECT MAX(r.rowid) FROM revisions r JOIN pages p ON p.id = r.page_id WHERE p.document_id = @d), 0) || ':' ||
              COALESCE((SELECT MAX(f.rowid) FROM field_revisions f JOIN pages p ON p.id = f.page_id WHERE p.document_id = @d), 0) || ':' ||
              (SELECT COUNT(*) FROM document_einvoices WHERE document_id = @d)`,
    ).pluck();
    return String(this.contentStampStatement.get({ d: documentId }));
  }

  private contentStampStatement: Database.Statement | undefined;

  getDocument(documentId: string): DocumentSummary {
    const row = this.statements.documentById.get(documentId) as DocumentRow | undefined;
    if (!row) throw new NotFoundError(`No document ${documentId} in this project`);
    return toDocumentSummary(row, (this.statements.pagesOfDocument.all(documentId) as PageRow[]).map(toPageSummary));
  }

  /**
   * Every document with its pages, in import order: two queries for the whole project (the rail and the queue ask
   * for it after every save; a query per document made it 30 ms at 200 documents).
   */
  listDocuments(): DocumentSummary[] {
    const pages = new Map<string, PageSummary[]>();
    for (const row of this.statements.allPages.all() as PageRow[]) {
      const page = toPageSummary(row);
      (pages.get(page.documentId) ?? pages.set(page.documentId, []).get(page.documentId)!).push(page);
    }
    return (this.statements.allDocuments.all() as DocumentRow[]).map((row) => toDocumentSummary(row, pages.get(row.id) ?? []));
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
    // A reading error may quote an upstream answer that echoes a key: scrubbed before it is stored (app/model/secrets.ts).
    const result = this.db.prepare('UPDATE pages SET status = ?, error = ? WHERE id = ?').run(status, error === null ? null : scrubSecrets(error), pageId);
    if (result.changes === 0) throw new NotFoundError(`No page ${pageId} in this project`);
  }

  setReviewStatus(pageId: string, status: ReviewStatus): PageSummary {
    const result = this.db.prepare('UPDATE pages SET review_status = ? WHERE id = ?').run(status, pageId);
    if (result.changes === 0) throw new NotFoundError(`No page ${pageId} in this project`);
    return this.getPage(pageId);
  }
}

/**
 * Documents, source blobs and pages that come from elsewhere (a corpus, another project) with their own ids and
 * values: what the bundle writer (transfer/applyBundles.ts) needs to match them and write them in. It keeps the merge
 * policy; these only read and write rows.
 */
export class ImportedDocumentRows {
  private readonly statements;

  constructor(db: Database.Database) {
    this.statements = {
      documentBySha: db.prepare('SELECT id FROM documents WHERE sha256 = ?').pluck(),
      documentTaken: db.prepare('SELECT 1 FROM documents WHERE id = ?'),
      pageTaken: db.prepare('SELECT 1 FROM pages WHERE id = ?'),
      insertDocument: db.prepare('INSERT INTO documents (id, sha256, name, media_type, size_bytes, imported_at) VALUES (?, ?, ?, ?, ?, ?)'),
      insertBlob: db.prepare('INSERT OR IGNORE INTO source_blobs (sha256, bytes) VALUES (?, ?)'),
      pageByNumber: db.prepare('SELECT id, review_status FROM pages WHERE document_id = ? AND page_number = ?'),
      insertPage: db.prepare(
        `INSERT INTO pages (id, document_id, page_number, width, height, dpi, text_layer, status, error, review_status)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      setReview: db.prepare('UPDATE pages SET review_status = ? WHERE id = ?'),
      markRead: db.prepare(`UPDATE pages SET status = 'done', error = NULL WHERE id = ?`),
      keyPage: db.prepare('SELECT id FROM pages WHERE document_id = ? ORDER BY page_number LIMIT 1').pluck(),
    };
  }

  documentIdBySha(sha256: string): string | undefined {
    return this.statements.documentBySha.get(sha256) as string | undefined;
  }

  documentIdTaken(id: string): boolean {
    return this.statements.documentTaken.get(id) !== undefined;
  }

  pageIdTaken(id: string): boolean {
    return this.statements.pageTaken.get(id) !== undefined;
  }

  insertDocument(id: string, doc: { sha256: string; name: string; mediaType: string; sizeBytes: number; importedAt: string }): void {
    this.statements.insertDocument.run(id, doc.sha256, doc.name, doc.mediaType, doc.sizeBytes, doc.importedAt);
  }

  /** Keeps the source file's bytes unless the project has them already. */
  keepSourceBlob(sha256: string, bytes: Buffer): void {
    this.statements.insertBlob.run(sha256, bytes);
  }

  pageByNumber(documentId: string, pageNumber: number): { id: string; review_status: string } | undefined {
    return this.statements.pageByNumber.get(documentId, pageNumber) as { id: string; review_status: string } | undefined;
  }

  insertPage(
    id: string,
    documentId: string,
    page: { pageNumber: number; width: number; height: number; dpi: number; textLayerJson: string | null; status: string; error: string | null; reviewStatus: string },
  ): void {
    this.statements.insertPage.run(id, documentId, page.pageNumber, page.width, page.height, page.dpi, page.textLayerJson, page.status, page.error, page.reviewStatus);
  }

  setReviewStatus(pageId: string, status: string): void {
    this.statements.setReview.run(status, pageId);
  }

  markRead(pageId: string): void {
    this.statements.markRead.run(pageId);
  }

  /** The document's first page, where its field revisions live; undefined for a document without pages. */
  keyPage(documentId: string): string | undefined {
    return this.statements.keyPage.get(documentId) as string | undefined;
  }
}

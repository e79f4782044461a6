/**
 * Revisions: a row for every save of the analyst's text (text, author, time, parent), ordered per page by seq. The
 * checks are recomputed in the transaction of every save.
 */
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { Revision } from '../../app/model/page.js';
import { AuditChain } from './auditChain.js';
import type { CheckResultsRepository } from './curation/checkResults.js';
import { NotFoundError, type DocumentsRepository } from './documents.js';

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

export class RevisionsRepository {
  private revisionStatements:
    | { pageExists: Database.Statement; parentPage: Database.Statement; nextSeq: Database.Statement; insert: Database.Statement }
    | undefined;

  /** Revisions from elsewhere, for the bundle writer (transfer/applyBundles.ts). */
  readonly imported: ImportedRevisionRows;
  private readonly chain: AuditChain;

  constructor(
    private readonly db: Database.Database,
    private readonly documents: DocumentsRepository,
    private readonly checks: CheckResultsRepository,
  ) {
    this.imported = new ImportedRevisionRows(db);
    this.chain = new AuditChain(db);
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
      this.chain.append('revisions', row.id);
      this.checks.recompute(pageId);
      return toRevision(row);
    })();
  }

  listRevisions(pageId: string): Revision[] {
    this.documents.getPage(pageId);
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

/** Revisions from elsewhere, written with their ids and times; their order on the page is the bundle writer's. */
export class ImportedRevisionRows {
  private readonly statements;
  private readonly chain: AuditChain;

  constructor(db: Database.Database) {
    this.chain = new AuditChain(db);
    this.statements = {
      taken: db.prepare('SELECT 1 FROM revisions WHERE id = ?'),
      ofPage: db.prepare('SELECT id, created_at, seq FROM revisions WHERE page_id = ? ORDER BY seq'),
      insert: db.prepare('INSERT INTO revisions (id, page_id, parent_id, text, author, created_at, seq) VALUES (?, ?, ?, ?, ?, ?, ?)'),
      setSeq: db.prepare('UPDATE revisions SET seq = ? WHERE id = ?'),
    };
  }

  has(id: string): boolean {
    return this.statements.taken.get(id) !== undefined;
  }

  /** The page's revisions in their order. */
  ofPage(pageId: string): { id: string; created_at: string; seq: number }[] {
    return this.statements.ofPage.all(pageId) as { id: string; created_at: string; seq: number }[];
  }

  insert(pageId: string, revision: { id: string; parentId: string | null; text: string; author: string; createdAt: string }, seq: number): void {
    this.statements.insert.run(revision.id, pageId, revision.parentId, revision.text, revision.author, revision.createdAt, seq);
    this.chain.append('revisions', revision.id);
  }

  setSeq(id: string, seq: number): void {
    this.statements.setSeq.run(seq, id);
  }
}

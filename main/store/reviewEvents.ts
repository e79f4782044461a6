/**
 * Every review status change of a page with who made it and when; an approval with exceptions also keeps the
 * exceptions approved over and the reviewer's reason. pages.review_status stays the current status (queue, rollups,
 * bundles read it); these rows are its history and the "who, when, why" the rail, the queue and the exports show.
 */
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';

export interface ReviewEvent {
  pageId: string;
  /** The page's status after the change; `approved-with-exceptions` where exceptions were approved over. */
  status: string;
  exceptions: string[];
  reason: string | null;
  reviewer: string;
  at: string;
}

interface Row {
  page_id: string;
  status: string;
  exceptions: string;
  reason: string | null;
  reviewer: string;
  at: string;
}

const fromRow = (row: Row): ReviewEvent => ({
  pageId: row.page_id,
  status: row.status,
  exceptions: JSON.parse(row.exceptions) as string[],
  reason: row.reason,
  reviewer: row.reviewer,
  at: row.at,
});

export class ReviewEventsRepository {
  private readonly statements;

  constructor(db: Database.Database) {
    this.statements = {
      insert: db.prepare('INSERT INTO review_events (id, page_id, status, exceptions, reason, reviewer, at) VALUES (?, ?, ?, ?, ?, ?, ?)'),
      latest: db.prepare('SELECT * FROM review_events WHERE page_id = ? ORDER BY at DESC, rowid DESC LIMIT 1'),
      latestOfDocument: db.prepare(
        `SELECT e.* FROM review_events e JOIN pages p ON p.id = e.page_id WHERE p.document_id = ? ORDER BY e.at DESC, e.rowid DESC LIMIT 1`,
      ),
      exceptionsOfDocument: db.prepare(
        `SELECT e.* FROM review_events e JOIN pages p ON p.id = e.page_id
         WHERE p.document_id = ? AND e.rowid = (SELECT MAX(x.rowid) FROM review_events x WHERE x.page_id = e.page_id)
           AND e.status = 'approved-with-exceptions' ORDER BY p.page_number`,
      ),
    };
  }

  record(event: Omit<ReviewEvent, 'at'> & { at?: string }): ReviewEvent {
    const at = event.at ?? new Date().toISOString();
    this.statements.insert.run(randomUUID(), event.pageId, event.status, JSON.stringify(event.exceptions), event.reason, event.reviewer, at);
    return { ...event, at };
  }

  /** The page's newest status change; null where nobody changed its status since reviewers were recorded. */
  latest(pageId: string): ReviewEvent | null {
    const row = this.statements.latest.get(pageId) as Row | undefined;
    return row ? fromRow(row) : null;
  }

  /** The newest status change on any page of the document. */
  latestOfDocument(documentId: string): ReviewEvent | null {
    const row = this.statements.latestOfDocument.get(documentId) as Row | undefined;
    return row ? fromRow(row) : null;
  }

  /** The document's pages whose current approval is one with exceptions, each with its exceptions and reason. */
  exceptionsOfDocument(documentId: string): ReviewEvent[] {
    return (this.statements.exceptionsOfDocument.all(documentId) as Row[]).map(fromRow);
  }
}

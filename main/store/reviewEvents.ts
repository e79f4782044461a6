/**
 * Every review status change of a page with who made it and when; an approval with exceptions also keeps the
 * exceptions approved over and the reviewer's reason. pages.review_status stays the current status (queue, rollups,
 * bundles read it); these rows are its history and the "who, when, why" the rail, the queue and the exports show.
 */
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';

/** The statuses an event records: a page's review statuses, and an approval over exceptions. */
export const reviewEventStatuses = ['unreviewed', 'in-review', 'approved', 'approved-with-exceptions', 'rejected'] as const;

/** The page review status an event's status sets (an approval with exceptions is an approval). */
export function pageStatusOfEvent(status: string): string {
  return status === 'approved-with-exceptions' ? 'approved' : status;
}

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
  /** The door for events that come from elsewhere (a merged project, a corpus) with their own ids and times. */
  readonly imported: ImportedReviewEventRows;

  constructor(db: Database.Database) {
    this.imported = new ImportedReviewEventRows(db);
    this.statements = {
      insert: db.prepare('INSERT INTO review_events (id, page_id, status, exceptions, reason, reviewer, at) VALUES (?, ?, ?, ?, ?, ?, ?)'),
      latest: db.prepare('SELECT * FROM review_events WHERE page_id = ? ORDER BY at DESC, rowid DESC LIMIT 1'),
      ofPage: db.prepare('SELECT * FROM review_events WHERE page_id = ? ORDER BY at, rowid'),
      latestOfDocument: db.prepare(
        `SELECT e.* FROM review_events e JOIN pages p ON p.id = e.page_id WHERE p.document_id = ? ORDER BY e.at DESC, e.rowid DESC LIMIT 1`,
      ),
      exceptionsOfDocument: db.prepare(
        `SELECT e.* FROM review_events e JOIN pages p ON p.id = e.page_id
         WHERE p.document_id = ?
           AND e.id = (SELECT x.id FROM review_events x WHERE x.page_id = e.page_id ORDER BY x.at DESC, x.rowid DESC LIMIT 1)
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

  /** Every status change of the page, oldest first (the Changes view). */
  ofPage(pageId: string): ReviewEvent[] {
    return (this.statements.ofPage.all(pageId) as Row[]).map(fromRow);
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

/** Review events from elsewhere, kept with their ids and times (transfer/applyBundles.ts decides which to add). */
export class ImportedReviewEventRows {
  private readonly statements;

  constructor(db: Database.Database) {
    this.statements = {
      taken: db.prepare('SELECT 1 FROM review_events WHERE id = ?'),
      insert: db.prepare('INSERT INTO review_events (id, page_id, status, exceptions, reason, reviewer, at) VALUES (?, ?, ?, ?, ?, ?, ?)'),
      latestAt: db.prepare('SELECT at FROM review_events WHERE page_id = ? ORDER BY at DESC, rowid DESC LIMIT 1'),
    };
  }

  has(id: string): boolean {
    return this.statements.taken.get(id) !== undefined;
  }

  /** When the page's status last changed here; null where no change was recorded. */
  latestAt(pageId: string): string | null {
    return (this.statements.latestAt.pluck().get(pageId) as string | undefined) ?? null;
  }

  insert(pageId: string, event: { id: string; status: string; exceptions: string[]; reason: string | null; reviewer: string; at: string }): void {
    this.statements.insert.run(event.id, pageId, event.status, JSON.stringify(event.exceptions), event.reason, event.reviewer, event.at);
  }
}

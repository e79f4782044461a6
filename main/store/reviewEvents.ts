/**
 * Every review status change of a page with who made it and when; an approval with exceptions also keeps the
 * exceptions approved over and the reviewer's reason. pages.review_status stays the current status (queue, rollups,
 * bundles read it); these rows are its history and the "who, when, why" the rail, the queue and the exports show.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type Database from 'better-sqlite3';
import { AuditChain } from './auditChain.js';

/** The statuses an event records: a page's review statuses, and an approval over exceptions. */
export const reviewEventStatuses = ['unreviewed', 'in-review', 'approved', 'approved-with-exceptions', 'rejected', 'reopened'] as const;

/**
 * The page review status an event's status sets (an approval with exceptions is an approval; an approval reopened
 * because the invoice changed after it is back in review).
 */
export function pageStatusOfEvent(status: string): string {
  return status === 'approved-with-exceptions' ? 'approved' : status === 'reopened' ? 'in-review' : status;
}

/** The operating-system account running Recto (recorded beside the reviewer name, a free setting); null where unknown. */
export function osAccountName(): string | null {
  try {
    return os.userInfo().username || null;
  } catch {
    return null;
  }
}

/** An event that approves: its `sealed` content is what was approved (approvalSeals.ts). */
export const isApproval = (status: string) => status === 'approved' || status === 'approved-with-exceptions';

export interface ReviewEvent {
  /** The row's id (absent on an event not yet stored). */
  id?: string;
  pageId: string;
  /** The page's status after the change; `approved-with-exceptions` where exceptions were approved over. */
  status: string;
  exceptions: string[];
  reason: string | null;
  reviewer: string;
  at: string;
  /** The operating-system account that ran Recto when the reviewer decided (the reviewer name is a free setting). */
  osAccount?: string | null;
  /** For an approval: the document's content as approved (JSON, approvalSeals.ts). */
  sealed?: string | null;
  /** Null for a decision taken here; the project file or corpus a merge or import brought it from. */
  origin?: string | null;
}

interface Row {
  id: string;
  page_id: string;
  status: string;
  exceptions: string;
  reason: string | null;
  reviewer: string;
  at: string;
  os_account: string | null;
  sealed: string | null;
  origin: string | null;
}

const fromRow = (row: Row): ReviewEvent => ({
  id: row.id,
  pageId: row.page_id,
  status: row.status,
  exceptions: JSON.parse(row.exceptions) as string[],
  reason: row.reason,
  reviewer: row.reviewer,
  at: row.at,
  osAccount: row.os_account,
  sealed: row.sealed,
  origin: row.origin,
});

/** The review event fields the wire carries (the seal stays in the project). */
export const publicEvent = ({ sealed: _s, ...event }: ReviewEvent): Omit<ReviewEvent, 'sealed'> => event;

/**
 * Which event set a page's current status (aliases: e the event, p its page): the newest, in the order this project
 * recorded them, among those whose status is the page's — never the one with the latest claimed time, which an event
 * from elsewhere could set to 2099; a merged decision kept only in the history does not become "who decided", and one
 * taken here comes before one of the same status brought by a merge (whose approval was of the other side's content).
 */
const DECIDING_ORDER = `CASE WHEN (CASE e.status WHEN 'approved-with-exceptions' THEN 'approved' WHEN 'reopened' THEN 'in-review' ELSE e.status END) = p.review_status THEN 0 ELSE 1 END, (e.origin IS NOT NULL), e.rowid DESC`;

export class ReviewEventsRepository {
  private readonly statements;
  private readonly chain: AuditChain;
  /** The door for events that come from elsewhere (a merged project, a corpus) with their own ids and times. */
  readonly imported: ImportedReviewEventRows;

  constructor(db: Database.Database) {
    this.imported = new ImportedReviewEventRows(db);
    this.chain = new AuditChain(db);
    this.statements = {
      insert: db.prepare('INSERT INTO review_events (id, page_id, status, exceptions, reason, reviewer, at, os_account, sealed) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)'),
      imported: db.prepare('SELECT * FROM review_events WHERE page_id = ? AND origin IS NOT NULL ORDER BY at, rowid'),
      afterChainStart: db.prepare(
        `SELECT 1 FROM review_events WHERE id = ? AND rowid > COALESCE((SELECT after_rowid FROM audit_chain_start WHERE table_name = 'review_events'), 0)`,
      ),
      conflicts: db.prepare(
        `SELECT e.* FROM review_events e JOIN pages p ON p.id = e.page_id
         WHERE e.page_id = ? AND e.origin IS NOT NULL AND e.status IN ('approved', 'approved-with-exceptions', 'rejected')
           AND (CASE e.status WHEN 'approved-with-exceptions' THEN 'approved' ELSE e.status END) <> p.review_status
           AND e.rowid > COALESCE((SELECT MAX(l.rowid) FROM review_events l WHERE l.page_id = e.page_id AND l.origin IS NULL), 0)
         ORDER BY e.rowid`,
      ),
      latest: db.prepare(`SELECT e.* FROM review_events e JOIN pages p ON p.id = e.page_id WHERE e.page_id = ? ORDER BY ${DECIDING_ORDER} LIMIT 1`),
      ofPage: db.prepare('SELECT * FROM review_events WHERE page_id = ? ORDER BY at, rowid'),
      latestOfDocument: db.prepare(
        `SELECT e.* FROM review_events e JOIN pages p ON p.id = e.page_id WHERE p.document_id = ? ORDER BY ${DECIDING_ORDER} LIMIT 1`,
      ),
      exceptionsOfDocument: db.prepare(
        `SELECT o.* FROM review_events o JOIN pages op ON op.id = o.page_id
         WHERE op.document_id = ?
           AND o.id = (SELECT e.id FROM review_events e JOIN pages p ON p.id = e.page_id WHERE e.page_id = op.id ORDER BY ${DECIDING_ORDER} LIMIT 1)
           AND o.status = 'approved-with-exceptions' ORDER BY op.page_number`,
      ),
    };
  }

  /** Records a decision taken here, chained (auditChain.ts); call inside the decision's transaction. */
  record(event: Omit<ReviewEvent, 'at'> & { at?: string }): ReviewEvent {
    const at = event.at ?? new Date().toISOString();
    const id = randomUUID();
    this.statements.insert.run(id, event.pageId, event.status, JSON.stringify(event.exceptions), event.reason, event.reviewer, at, event.osAccount ?? osAccountName(), event.sealed ?? null);
    this.chain.append('review_events', id);
    return { ...event, id, at };
  }

  /**
   * Decisions brought by a merge or import that differ from the page's status and that nobody here has answered since
   * (a decision taken here after them clears them): the page waits for a person to decide.
   */
  conflictsOf(pageId: string): ReviewEvent[] {
    return (this.statements.conflicts.all(pageId) as Row[]).map(fromRow);
  }

  /** Whether the event was recorded after the audit chain began (migration 009): from then on every approval is sealed. */
  recordedSinceSeals(id: string): boolean {
    return this.statements.afterChainStart.get(id) !== undefined;
  }

  /** The page's events brought by merges and imports, oldest first. */
  importedOf(pageId: string): ReviewEvent[] {
    return (this.statements.imported.all(pageId) as Row[]).map(fromRow);
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

  private readonly chain: AuditChain;

  constructor(db: Database.Database) {
    this.chain = new AuditChain(db);
    this.statements = {
      taken: db.prepare('SELECT 1 FROM review_events WHERE id = ?'),
      insert: db.prepare('INSERT INTO review_events (id, page_id, status, exceptions, reason, reviewer, at, origin) VALUES (?, ?, ?, ?, ?, ?, ?, ?)'),
      latestAt: db.prepare('SELECT at FROM review_events WHERE page_id = ? ORDER BY at DESC, rowid DESC LIMIT 1'),
      seal: db.prepare('UPDATE review_events SET sealed = ? WHERE id = ? AND sealed IS NULL'),
    };
  }

  has(id: string): boolean {
    return this.statements.taken.get(id) !== undefined;
  }

  /** When the page's status last changed here; null where no change was recorded. */
  latestAt(pageId: string): string | null {
    return (this.statements.latestAt.pluck().get(pageId) as string | undefined) ?? null;
  }

  /**
   * Seals a decision adopted from elsewhere with the content it now stands on (approvalSeals.ts), so that a later change
   * reopens it like one taken here; chained again (the merge extends the trail).
   */
  seal(id: string, sealed: string): void {
    this.statements.seal.run(sealed, id);
    this.chain.append('review_events', id);
  }

  /** Adds an event from elsewhere, marked with where it came from and chained: the merge extends the trail. */
  insert(pageId: string, event: { id: string; status: string; exceptions: string[]; reason: string | null; reviewer: string; at: string }, origin: string): void {
    this.statements.insert.run(event.id, pageId, event.status, JSON.stringify(event.exceptions), event.reason, event.reviewer, event.at, origin);
    this.chain.append('review_events', event.id);
  }
}

/**
 * Assignment and claims (migration 015, docs/invoice-review.md "Working side by side"): who a document is given to,
 * who is working on it now, and the history of both. Each change is one transaction: the state row and its event.
 */
import type Database from 'better-sqlite3';
import { AuditChain } from './auditChain.js';
import type { AssignmentEventWire, WorkStateWire } from '../../app/contract/invoiceQueue.js';
import { CodedError, errorCodes } from '../../app/contract/wire.js';

interface StateRow {
  document_id: string;
  assignee: string | null;
  assigned_by: string | null;
  assigned_at: string | null;
  claimed_by: string | null;
  claimed_at: string | null;
}

/** A claim refused because another person holds it (`work.claim` with `force` takes it over). */
export class ClaimedByAnotherError extends CodedError {
  override name = 'ClaimedByAnotherError';
  constructor(readonly holder: string, documentName: string) {
    super(errorCodes.badInput, `${documentName} is claimed by ${holder}: take the claim over only when you agreed with them`);
  }
}

const toState = (documentId: string, row: StateRow | undefined): WorkStateWire => ({
  documentId,
  assignee: row?.assignee ?? null,
  assignedBy: row?.assigned_by ?? null,
  assignedAt: row?.assigned_at ?? null,
  claimedBy: row?.claimed_by ?? null,
  claimedAt: row?.claimed_at ?? null,
});

export class WorkAssignmentsRepository {
  private readonly statements;
  /** Every assignment and claim event is chained (migration 017): a history edited outside Recto is found. */
  private readonly chain: AuditChain;

  constructor(private readonly db: Database.Database) {
    this.chain = new AuditChain(db);
    this.statements = {
      get: db.prepare('SELECT * FROM work_assignments WHERE document_id = ?'),
      all: db.prepare('SELECT * FROM work_assignments'),
      ensure: db.prepare('INSERT OR IGNORE INTO work_assignments (document_id) VALUES (?)'),
      assign: db.prepare('UPDATE work_assignments SET assignee = ?, assigned_by = ?, assigned_at = ? WHERE document_id = ?'),
      claim: db.prepare('UPDATE work_assignments SET claimed_by = ?, claimed_at = ? WHERE document_id = ?'),
      event: db.prepare('INSERT INTO work_events (document_id, action, person, actor, at) VALUES (?, ?, ?, ?, ?)'),
      history: db.prepare('SELECT * FROM work_events WHERE document_id = ? ORDER BY seq'),
      documentName: db.prepare('SELECT name FROM documents WHERE id = ?').pluck(),
    };
  }

  state(documentId: string): WorkStateWire {
    return toState(documentId, this.statements.get.get(documentId) as StateRow | undefined);
  }

  /** Every document's assignment and claim (documents never assigned nor claimed are absent). */
  all(): Map<string, WorkStateWire> {
    return new Map((this.statements.all.all() as StateRow[]).map((row) => [row.document_id, toState(row.document_id, row)]));
  }

  /** Gives the document to `assignee` (null: to nobody); nothing is recorded when it is already theirs. */
  assign(documentId: string, assignee: string | null, by: string): WorkStateWire {
    this.documentName(documentId);
    return this.db.transaction(() => {
      if (this.state(documentId).assignee === assignee) return this.state(documentId);
      const at = new Date().toISOString();
      this.statements.ensure.run(documentId);
      this.statements.assign.run(assignee, assignee === null ? null : by, assignee === null ? null : at, documentId);
      this.recordEvent(documentId, assignee === null ? 'unassigned' : 'assigned', assignee, by, at);
      return this.state(documentId);
    })();
  }

  /** `by` claims the document; another's claim is taken over only with `force` (else ClaimedByAnotherError). */
  claim(documentId: string, by: string, force = false): WorkStateWire & { previous: string | null } {
    const name = this.documentName(documentId);
    return this.db.transaction(() => {
      const before = this.state(documentId);
      if (before.claimedBy === by) return { ...before, previous: null };
      if (before.claimedBy !== null && !force) throw new ClaimedByAnotherError(before.claimedBy, name);
      const at = new Date().toISOString();
      this.statements.ensure.run(documentId);
      if (before.claimedBy !== null) this.recordEvent(documentId, 'released', before.claimedBy, by, at);
      this.statements.claim.run(by, at, documentId);
      this.recordEvent(documentId, 'claimed', by, by, at);
      return { ...this.state(documentId), previous: before.claimedBy };
    })();
  }

  /** Ends `by`'s claim; a claim held by another person stays. */
  release(documentId: string, by: string): WorkStateWire {
    this.documentName(documentId);
    return this.db.transaction(() => {
      const before = this.state(documentId);
      if (before.claimedBy !== by) return before;
      this.statements.claim.run(null, null, documentId);
      this.recordEvent(documentId, 'released', by, by, new Date().toISOString());
      return this.state(documentId);
    })();
  }

  history(documentId: string): AssignmentEventWire[] {
    return (this.statements.history.all(documentId) as { document_id: string; action: AssignmentEventWire['action']; person: string | null; actor: string; at: string }[]).map((row) => ({
      documentId: row.document_id,
      action: row.action,
      person: row.person,
      by: row.actor,
      at: row.at,
    }));
  }

  /** Appends one event to the history and chains it (call in the transaction that changes the state). */
  private recordEvent(documentId: string, action: AssignmentEventWire['action'], person: string | null, actor: string, at: string): void {
    const { lastInsertRowid } = this.statements.event.run(documentId, action, person, actor, at);
    this.chain.append('work_events', String(lastInsertRowid));
  }

  private documentName(documentId: string): string {
    const name = this.statements.documentName.get(documentId) as string | undefined;
    if (name === undefined) throw new CodedError(errorCodes.notFound, `No document ${documentId} in this project`);
    return name;
  }
}

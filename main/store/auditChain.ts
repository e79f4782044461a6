/**
 * The audit trail's hash chain (migration 009, docs/security.md). Every row added to revisions, field_revisions and
 * review_events — by Recto here, or brought by a merge or corpus import — and every invoices export recorded (with the
 * invoices it sent; migration 016), every save conflict kept and every choice made for one, and every assignment
 * and claim (migration 017) appends an entry: the hash of the row's content and the hash of that with the previous entry's hash. An edit made outside Recto (sqlite3) to a chained row
 * changes its content hash; an entry edited, removed or reordered breaks the links; a row added outside Recto after
 * the chain began has no entry. `verify` finds each of these. The chain's first link stands on audit_chain_start, so
 * moving where the chain starts breaks it too.
 *
 * What this does not do: someone who recomputes every hash after an edit (the code is open) leaves a consistent chain.
 * Detecting that needs a secret or a signature outside the file (docs/security.md says what one would add).
 */
import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';

export const chainedTables = [
  'revisions',
  'field_revisions',
  'review_events',
  'accounts',
  'account_events',
  'invoice_exports',
  'revision_conflicts',
  'field_conflicts',
  'work_events',
] as const;
export type ChainedTable = (typeof chainedTables)[number];

/**
 * The tables chained from the start (migration 009): the chain's first link stands on their starts. A table chained
 * later (accounts and account_events, migration 013; invoice_exports, migration 016; the save conflicts and
 * work_events, migration 017) has its start chained as an entry of its own (`audit_chain_start`, the table's
 * name as the row id) before its first row, so moving it breaks the chain too, and the chains made before stay valid.
 */
const firstTables: readonly ChainedTable[] = ['revisions', 'field_revisions', 'review_events'];
const startEntry = 'audit_chain_start';

/**
 * The columns of each chained table that the hash covers: all of them but `seq`, a page's order that merges renumber
 * (the order is by time; the time is covered). A field revision a merge moves to its document's key page is chained
 * again with its new page (`append` after `place`).
 */
const hashedColumns: Record<ChainedTable, readonly string[]> = {
  revisions: ['id', 'page_id', 'parent_id', 'text', 'author', 'created_at'],
  field_revisions: ['id', 'page_id', 'parent_id', 'field', 'old_value', 'new_value', 'undoes', 'author', 'created_at'],
  review_events: ['id', 'page_id', 'status', 'exceptions', 'reason', 'reviewer', 'at', 'sealed', 'os_account', 'origin'],
  accounts: ['id', 'name', 'role', 'token_hash', 'created_at', 'removed_at'],
  account_events: ['id', 'at', 'action', 'account', 'role', 'detail', 'by_name', 'os_account'],
  // An export with the invoices it sent (`items`: [document, approval, correction of] sorted), so an item edited,
  // added or removed outside Recto changes the export's hash.
  invoice_exports: ['id', 'exported_at', 'reviewer', 'os_account', 'channel', 'all_approved', 'out_dir', 'files', 'items'],
  // A conflict with its choice: the choice updates the row, and the row is chained again then (saveConflicts.ts).
  revision_conflicts: ['id', 'page_id', 'base_id', 'theirs_id', 'text', 'author', 'created_at', 'resolution', 'resolved_revision_id', 'resolved_by', 'resolved_at', 'superseded_by'],
  field_conflicts: ['id', 'page_id', 'field', 'base_id', 'theirs_id', 'value', 'author', 'created_at', 'resolution', 'resolved_revision_id', 'resolved_by', 'resolved_at', 'superseded_by'],
  // Appended only, and never renumbered (no merge brings them): here `seq` is the row's id.
  work_events: ['seq', 'document_id', 'action', 'person', 'actor', 'at'],
};

/** The column that names a chained row (its `row_id` in the chain): `id`, but for work_events, which has none. */
const idColumn = (table: ChainedTable) => (table === 'work_events' ? 'seq' : 'id');

/** A chained row as the hash reads it (invoice_exports with its items gathered). */
const rowQuery: Record<ChainedTable, string> = {
  revisions: 'SELECT rowid AS _rowid, * FROM revisions WHERE id = ?',
  field_revisions: 'SELECT rowid AS _rowid, * FROM field_revisions WHERE id = ?',
  review_events: 'SELECT rowid AS _rowid, * FROM review_events WHERE id = ?',
  accounts: 'SELECT rowid AS _rowid, * FROM accounts WHERE id = ?',
  account_events: 'SELECT rowid AS _rowid, * FROM account_events WHERE id = ?',
  invoice_exports: `SELECT e.rowid AS _rowid, e.*,
       (SELECT json_group_array(json_array(i.document_id, i.approval, i.correction_of))
          FROM (SELECT * FROM invoice_export_items WHERE export_id = e.id ORDER BY document_id) i) AS items
     FROM invoice_exports e WHERE e.id = ?`,
  revision_conflicts: 'SELECT rowid AS _rowid, * FROM revision_conflicts WHERE id = ?',
  field_conflicts: 'SELECT rowid AS _rowid, * FROM field_conflicts WHERE id = ?',
  work_events: 'SELECT rowid AS _rowid, * FROM work_events WHERE seq = CAST(? AS INTEGER)',
};

const startHash = (start: Record<string, unknown>) => sha256(JSON.stringify([startEntry, start.table_name, start.after_rowid, start.rows_before, start.started_at]));

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

function rowHash(table: ChainedTable, row: Record<string, unknown>): string {
  return sha256(JSON.stringify([table, ...hashedColumns[table].map((column) => row[column] ?? null)]));
}

const link = (prevHash: string, table: string, rowId: string, contentHash: string) => sha256(`${prevHash}\n${table}\n${rowId}\n${contentHash}`);

interface ChainEntry {
  seq: number;
  table_name: string;
  row_id: string;
  row_hash: string;
  prev_hash: string;
  hash: string;
}

interface ChainStart {
  table_name: string;
  after_rowid: number;
  rows_before: number;
  started_at: string;
}

/** The first broken place in the trail, in words a person can check: which row, what the chain recorded, what is there. */
export interface ChainBreak {
  table: string;
  rowId: string;
  /** `edited`: the row differs from what was chained; `removed`: the row is gone; `unchained`: added outside Recto; `link`: the chain itself was edited. */
  kind: 'edited' | 'removed' | 'unchained' | 'link';
  /** The chain entry's position (null for a row the chain never saw). */
  seq: number | null;
  /** The row as it is now (its hashed columns), for a row that is there. */
  claims: Record<string, unknown> | null;
}

export interface ChainReport {
  intact: boolean;
  entries: number;
  /** Per table: the rows that were there before the chain began (not covered), and when it began. */
  starts: { table: string; rowsBefore: number; startedAt: string }[];
  firstBreak: ChainBreak | null;
}

export class AuditChain {
  private readonly statements;

  constructor(private readonly db: Database.Database) {
    this.statements = {
      last: db.prepare('SELECT hash FROM audit_chain ORDER BY seq DESC LIMIT 1').pluck(),
      insert: db.prepare('INSERT INTO audit_chain (table_name, row_id, row_hash, prev_hash, hash) VALUES (?, ?, ?, ?, ?)'),
      starts: db.prepare('SELECT * FROM audit_chain_start ORDER BY table_name'),
      firstStarts: db.prepare(`SELECT * FROM audit_chain_start WHERE table_name IN (${firstTables.map((t) => `'${t}'`).join(', ')}) ORDER BY table_name`),
      start: db.prepare('SELECT * FROM audit_chain_start WHERE table_name = ?'),
      startChained: db.prepare(`SELECT 1 FROM audit_chain WHERE table_name = '${startEntry}' AND row_id = ?`).pluck(),
      rows: Object.fromEntries(chainedTables.map((t) => [t, db.prepare(rowQuery[t])])) as Record<ChainedTable, Database.Statement>,
    };
  }

  /** The first link's hash: the chain starts from the first tables' recorded starts, so changing them breaks it. */
  private genesis(): string {
    return sha256(JSON.stringify(this.statements.firstStarts.all()));
  }

  private appendEntry(table: string, rowId: string, content: string): void {
    const prev = (this.statements.last.get() as string | undefined) ?? this.genesis();
    this.statements.insert.run(table, rowId, content, prev, link(prev, table, rowId, content));
  }

  /** Chains the row `rowId` of `table` as it is now; call in the transaction that wrote it. */
  append(table: ChainedTable, rowId: string): void {
    const row = this.statements.rows[table].get(rowId) as Record<string, unknown> | undefined;
    if (!row) throw new Error(`audit chain: no ${table} row ${rowId}`);
    if (!firstTables.includes(table) && !this.statements.startChained.get(table)) {
      const start = this.statements.start.get(table) as Record<string, unknown> | undefined;
      if (start) this.appendEntry(startEntry, table, startHash(start));
    }
    this.appendEntry(table, rowId, rowHash(table, row));
  }

  /** Walks the whole chain and every chained table (audit: `recto audit`, and the warning on opening a project). */
  verify(): ChainReport {
    const starts = this.statements.starts.all() as ChainStart[];
    const report = (firstBreak: ChainBreak | null, entries: number): ChainReport => ({
      intact: firstBreak === null,
      entries,
      starts: starts.map((s) => ({ table: s.table_name, rowsBefore: s.rows_before, startedAt: s.started_at })),
      firstBreak,
    });
    const entries = this.db.prepare('SELECT * FROM audit_chain ORDER BY seq').all() as ChainEntry[];
    // 1. The links: each entry's hash from its content hash and the previous entry's hash.
    let prev = this.genesis();
    const latest = new Map<string, ChainEntry>();
    for (const entry of entries) {
      const known = (chainedTables as readonly string[]).includes(entry.table_name) || entry.table_name === startEntry;
      if (!known || entry.prev_hash !== prev || entry.hash !== link(prev, entry.table_name, entry.row_id, entry.row_hash)) {
        return report({ table: entry.table_name, rowId: entry.row_id, kind: 'link', seq: entry.seq, claims: null }, entries.length);
      }
      prev = entry.hash;
      latest.set(`${entry.table_name}\n${entry.row_id}`, entry);
    }
    // 2. The rows: each chained row as its newest entry recorded it.
    for (const entry of latest.values()) {
      if (entry.table_name === startEntry) {
        // A later table's start, as chained: moved or removed since, the rows it says came before are not what they were.
        const start = this.statements.start.get(entry.row_id) as Record<string, unknown> | undefined;
        if (!start) return report({ table: startEntry, rowId: entry.row_id, kind: 'removed', seq: entry.seq, claims: null }, entries.length);
        if (startHash(start) !== entry.row_hash) return report({ table: startEntry, rowId: entry.row_id, kind: 'edited', seq: entry.seq, claims: start }, entries.length);
        continue;
      }
      const table = entry.table_name as ChainedTable;
      const row = this.statements.rows[table].get(entry.row_id) as Record<string, unknown> | undefined;
      if (!row) return report({ table, rowId: entry.row_id, kind: 'removed', seq: entry.seq, claims: null }, entries.length);
      if (rowHash(table, row) !== entry.row_hash) return report({ table, rowId: entry.row_id, kind: 'edited', seq: entry.seq, claims: claimsOf(table, row) }, entries.length);
    }
    // 3. Rows added after the chain began that it never saw.
    for (const start of starts) {
      const table = start.table_name as ChainedTable;
      if (!(chainedTables as readonly string[]).includes(table)) continue;
      // The rows from before the chain are not covered one by one, but their number is.
      const before = this.db.prepare(`SELECT COUNT(*) FROM ${table} WHERE rowid <= ?`).pluck().get(start.after_rowid) as number;
      if (before !== start.rows_before) {
        return report({ table, rowId: `(${start.rows_before} rows from before the chain, now ${before})`, kind: before < start.rows_before ? 'removed' : 'unchained', seq: null, claims: null }, entries.length);
      }
      const rows = this.db.prepare(`SELECT rowid AS _rowid, * FROM ${table} WHERE rowid > ? ORDER BY rowid`).all(start.after_rowid) as Record<string, unknown>[];
      for (const row of rows) {
        const rowId = String(row[idColumn(table)]);
        if (!latest.has(`${table}\n${rowId}`)) return report({ table, rowId, kind: 'unchained', seq: null, claims: claimsOf(table, row) }, entries.length);
      }
    }
    return report(null, entries.length);
  }
}

function claimsOf(table: ChainedTable, row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(hashedColumns[table].map((column) => [column, row[column] ?? null]));
}

const breakWords: Record<ChainBreak['kind'], string> = {
  edited: 'edited outside Recto (its content is not what was chained)',
  removed: 'removed outside Recto',
  unchained: 'added outside Recto (the chain never saw it)',
  link: 'the chain itself was edited (this entry does not follow from the one before)',
};

/** The report in lines a person reads: where the chain starts per table, then "intact" or the first break and what the row claims. */
export function describeChain(file: string, report: ChainReport): string[] {
  const lines = report.starts.map((s) =>
    s.rowsBefore > 0
      ? `${file}: ${s.table}: the chain starts at ${s.startedAt}; ${s.rowsBefore} row(s) from before it are counted but not chained`
      : `${file}: ${s.table}: chained from the first row (${s.startedAt})`,
  );
  if (report.intact) lines.push(`${file}: audit trail intact (${report.entries} chained row(s))`);
  else {
    const b = report.firstBreak!;
    lines.push(`${file}: TAMPERED: ${b.table} row ${b.rowId}${b.seq !== null ? ` (chain entry ${b.seq})` : ''}: ${breakWords[b.kind]}`);
    if (b.claims) lines.push(`${file}: it claims: ${JSON.stringify(b.claims).slice(0, 2000)}`);
  }
  return lines;
}


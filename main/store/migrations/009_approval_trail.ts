/**
 * Approval that holds (docs/security.md):
 * - review_events.sealed: at an approval, the document's content as approved (approvalSeals.ts): fields, payment
 *   fields, each page's text by hash, the e-invoice XML by hash. An approval holds while the content still equals it.
 * - review_events.os_account: the operating-system account beside the reviewer name (a free setting).
 * - review_events.origin: null for a decision taken here; the file a merge or corpus import brought it from.
 * - confirmed_accounts: bank accounts and VAT IDs an analyst confirmed for a supplier (the Suppliers view).
 * - audit_chain: the hash chain over revisions, field revisions and review events (auditChain.ts); audit_chain_start
 *   records, per table, the last row that was there before the chain began (a project older than the chain).
 */
import type { Migration } from './migration.js';

const chained = ['revisions', 'field_revisions', 'review_events'];

export const approvalTrailSchema: Migration = {
  version: 9,
  name: 'approval_trail',
  statements: [
    'ALTER TABLE review_events ADD COLUMN sealed TEXT',
    'ALTER TABLE review_events ADD COLUMN os_account TEXT',
    'ALTER TABLE review_events ADD COLUMN origin TEXT',
    `CREATE TABLE IF NOT EXISTS confirmed_accounts (
       supplier TEXT NOT NULL,
       kind TEXT NOT NULL CHECK (kind IN ('iban', 'bic', 'vat')),
       value TEXT NOT NULL,
       confirmed_by TEXT NOT NULL,
       os_account TEXT,
       at TEXT NOT NULL,
       PRIMARY KEY (supplier, kind, value)
     ) WITHOUT ROWID`,
    `CREATE TABLE IF NOT EXISTS audit_chain (
       seq INTEGER PRIMARY KEY,
       table_name TEXT NOT NULL,
       row_id TEXT NOT NULL,
       row_hash TEXT NOT NULL,
       prev_hash TEXT NOT NULL,
       hash TEXT NOT NULL
     )`,
    'CREATE INDEX IF NOT EXISTS audit_chain_by_row ON audit_chain (table_name, row_id, seq)',
    `CREATE TABLE IF NOT EXISTS audit_chain_start (
       table_name TEXT PRIMARY KEY,
       after_rowid INTEGER NOT NULL,
       rows_before INTEGER NOT NULL,
       started_at TEXT NOT NULL
     ) WITHOUT ROWID`,
    ...chained.map(
      (table) =>
        `INSERT OR IGNORE INTO audit_chain_start (table_name, after_rowid, rows_before, started_at)
         SELECT '${table}', COALESCE(MAX(rowid), 0), COUNT(*), strftime('%Y-%m-%dT%H:%M:%fZ', 'now') FROM ${table}`,
    ),
  ],
};

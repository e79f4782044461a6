/**
 * Save conflicts (migration 014) and the assignment and claim history (migration 015) join the audit chain
 * (auditChain.ts), as migration 016 did for the invoices exports: where the chain starts for revision_conflicts,
 * field_conflicts and work_events — the rows recorded before this migration are counted, not chained. A conflict's
 * choice (its resolution columns, written once the analyst chose) is chained again as an entry of its own.
 * work_assignments (who holds a document now) is not chained: it is the sum of work_events, which are.
 */
import type { Migration } from './migration.js';

const start = (table: string) =>
  `INSERT OR IGNORE INTO audit_chain_start (table_name, after_rowid, rows_before, started_at)
   SELECT '${table}', COALESCE(MAX(rowid), 0), COUNT(*), strftime('%Y-%m-%dT%H:%M:%fZ', 'now') FROM ${table}`;

export const chainConflictsAndWorkSchema: Migration = {
  version: 17,
  name: 'chain_conflicts_and_work',
  statements: [start('revision_conflicts'), start('field_conflicts'), start('work_events')],
};

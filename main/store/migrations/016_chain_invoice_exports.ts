/**
 * The invoices exports join the audit chain (auditChain.ts): where the chain starts for invoice_exports — the exports
 * recorded before this migration are counted, not chained, as migration 009 did for the first chained tables. The
 * chain's first link stays on the first tables' starts (a project chained before keeps its chain); this start is
 * chained itself with the first export chained after it.
 */
import type { Migration } from './migration.js';

export const chainInvoiceExportsSchema: Migration = {
  version: 16,
  name: 'chain_invoice_exports',
  statements: [
    `INSERT OR IGNORE INTO audit_chain_start (table_name, after_rowid, rows_before, started_at)
     SELECT 'invoice_exports', COALESCE(MAX(rowid), 0), COUNT(*), strftime('%Y-%m-%dT%H:%M:%fZ', 'now') FROM invoice_exports`,
  ],
};

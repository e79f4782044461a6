/**
 * Invoice review: the keys a duplicate check looks up (app/invoices/duplicateKeys.ts), one row per document, indexed
 * so the check is a few index probes however large the project; and the review events — every status change with who
 * made it, when, and for an approval with exceptions the exceptions approved over and the reason. The page's current
 * status stays in pages.review_status; the newest event of a page says who set it and why.
 */
import type { Migration } from './migration.js';

export const invoiceReviewSchema: Migration = {
  version: 8,
  name: 'invoice_review',
  statements: [
    `CREATE TABLE IF NOT EXISTS invoice_keys (
       document_id TEXT PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE,
       supplier_name TEXT,
       supplier_vat TEXT,
       number TEXT,
       total_cents INTEGER,
       issue_day INTEGER,
       corrective INTEGER NOT NULL DEFAULT 0,
       refs TEXT
     ) WITHOUT ROWID`,
    `CREATE INDEX IF NOT EXISTS invoice_keys_by_name_number ON invoice_keys(supplier_name, number)`,
    `CREATE INDEX IF NOT EXISTS invoice_keys_by_vat_number ON invoice_keys(supplier_vat, number)`,
    `CREATE INDEX IF NOT EXISTS invoice_keys_by_name_total ON invoice_keys(supplier_name, total_cents, issue_day)`,
    `CREATE INDEX IF NOT EXISTS invoice_keys_by_vat_total ON invoice_keys(supplier_vat, total_cents, issue_day)`,
    `CREATE TABLE IF NOT EXISTS review_events (
       id TEXT PRIMARY KEY,
       page_id TEXT NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
       status TEXT NOT NULL,
       exceptions TEXT NOT NULL DEFAULT '[]',
       reason TEXT,
       reviewer TEXT NOT NULL,
       at TEXT NOT NULL
     )`,
    `CREATE INDEX IF NOT EXISTS review_events_by_page ON review_events(page_id, at)`,
  ],
};

/**
 * Export once (docs/invoices-export.md, "Each invoice once"): every invoices export the project made — when, by whom
 * (the reviewer name and the OS account, as review events record them), on which channel (syntax and CIUS), into
 * which folder, and the SHA-256 of each file it wrote — and which invoices it sent, under which approval (the
 * approving review events' ids), and which earlier export each one corrects. An invoice is sent again on a channel
 * only under a new approval (or when `--all-approved` asks). Rows are written after the files are in place, in one
 * transaction: a crash before leaves the invoices unsent in the project's eyes, never the reverse.
 * `document_id` has no foreign key: the history stays when a document is removed.
 */
import type { Migration } from './migration.js';

export const invoiceExportsSchema: Migration = {
  version: 12,
  name: 'invoice_exports',
  statements: [
    `CREATE TABLE IF NOT EXISTS invoice_exports (
       id TEXT PRIMARY KEY,
       exported_at TEXT NOT NULL,
       reviewer TEXT,
       os_account TEXT,
       channel TEXT NOT NULL,
       all_approved INTEGER NOT NULL,
       out_dir TEXT NOT NULL,
       files TEXT NOT NULL
     )`,
    `CREATE TABLE IF NOT EXISTS invoice_export_items (
       export_id TEXT NOT NULL REFERENCES invoice_exports(id) ON DELETE CASCADE,
       document_id TEXT NOT NULL,
       approval TEXT NOT NULL,
       correction_of TEXT,
       PRIMARY KEY (export_id, document_id)
     ) WITHOUT ROWID`,
    `CREATE INDEX IF NOT EXISTS invoice_export_items_by_document ON invoice_export_items(document_id)`,
  ],
};

/**
 * The e-invoice a document carries (a PDF's embedded CII/UBL XML, or the imported XML file itself): its bytes as
 * attached, what it is (syntax, profile) and, where it could not be read, why. One row per document at most; the
 * fields are read again from the bytes when needed (the reader is pure and fast), so a better reader improves old
 * projects too.
 */
import type { Migration } from './migration.js';

export const documentEInvoicesSchema: Migration = {
  version: 6,
  name: 'document_einvoices',
  statements: [
    `CREATE TABLE IF NOT EXISTS document_einvoices (
       document_id TEXT PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE,
       status TEXT NOT NULL CHECK (status IN ('read', 'refused')),
       file_name TEXT NOT NULL,
       syntax TEXT,
       profile TEXT,
       xml BLOB,
       message TEXT,
       added_at TEXT NOT NULL
     ) WITHOUT ROWID`,
  ],
};

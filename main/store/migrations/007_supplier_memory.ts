/**
 * Supplier memory (docs/supplier-memory.md): the suppliers a project knows and one lesson per document an analyst
 * corrected or approved — where and how that supplier prints each field (JSON, app/invoice/supplierMemory/
 * lessonSchema.ts), never a per-invoice value. `kept` / `corrected`: how the values memory proposed for that document
 * fared once the analyst confirmed it. `approved`: the analyst approved the document's values as they stand (a lesson
 * without a correction, kept until the supplier is forgotten). A lesson goes with its document; a supplier's lessons go with it.
 */
import type { Migration } from './migration.js';

export const supplierMemorySchema: Migration = {
  version: 7,
  name: 'supplier_memory',
  statements: [
    `CREATE TABLE IF NOT EXISTS suppliers (
       id TEXT PRIMARY KEY,
       name TEXT NOT NULL,
       created_at TEXT NOT NULL
     ) WITHOUT ROWID`,
    `CREATE TABLE IF NOT EXISTS supplier_lessons (
       document_id TEXT PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE,
       supplier_id TEXT NOT NULL REFERENCES suppliers(id) ON DELETE CASCADE,
       page_id TEXT NOT NULL,
       lesson TEXT NOT NULL,
       kept INTEGER NOT NULL DEFAULT 0,
       corrected INTEGER NOT NULL DEFAULT 0,
       approved INTEGER NOT NULL DEFAULT 0 CHECK (approved IN (0, 1)),
       learned_at TEXT NOT NULL
     ) WITHOUT ROWID`,
    'CREATE INDEX IF NOT EXISTS supplier_lessons_by_supplier ON supplier_lessons (supplier_id)',
  ],
};

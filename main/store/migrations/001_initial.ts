/**
 * The first schema. Source files are kept by content (SHA-256) inside the project, so a project file copied to
 * another machine still has its documents; page images are a cache rendered from them.
 */
import type { Migration } from './migration.js';

export const initialSchema: Migration = {
  version: 1,
  name: 'initial',
  statements: [
    `CREATE TABLE documents (
       id TEXT PRIMARY KEY,
       sha256 TEXT NOT NULL UNIQUE,
       name TEXT NOT NULL,
       media_type TEXT NOT NULL,
       size_bytes INTEGER NOT NULL,
       imported_at TEXT NOT NULL
     )`,
    `CREATE TABLE source_blobs (
       sha256 TEXT PRIMARY KEY REFERENCES documents(sha256) ON DELETE CASCADE,
       bytes BLOB NOT NULL
     )`,
    `CREATE TABLE pages (
       id TEXT PRIMARY KEY,
       document_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
       page_number INTEGER NOT NULL,
       width INTEGER NOT NULL,
       height INTEGER NOT NULL,
       dpi REAL NOT NULL,
       text_layer TEXT,
       status TEXT NOT NULL DEFAULT 'pending',
       error TEXT,
       review_status TEXT NOT NULL DEFAULT 'unreviewed',
       UNIQUE (document_id, page_number)
     )`,
    `CREATE TABLE engine_runs (
       id TEXT PRIMARY KEY,
       page_id TEXT NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
       engine_id TEXT NOT NULL,
       engine_name TEXT NOT NULL,
       engine_version TEXT NOT NULL,
       pack_sha256 TEXT,
       licence TEXT,
       provider TEXT,
       settings TEXT NOT NULL,
       stats TEXT NOT NULL,
       started_at TEXT NOT NULL,
       finished_at TEXT NOT NULL
     )`,
    `CREATE TABLE extractions (
       id TEXT PRIMARY KEY,
       run_id TEXT NOT NULL UNIQUE REFERENCES engine_runs(id) ON DELETE CASCADE,
       page_id TEXT NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
       markdown TEXT NOT NULL,
       elements TEXT NOT NULL,
       words TEXT,
       fields TEXT,
       warnings TEXT NOT NULL,
       created_at TEXT NOT NULL
     )`,
    `CREATE INDEX extractions_by_page ON extractions(page_id, created_at)`,
    `CREATE TABLE revisions (
       id TEXT PRIMARY KEY,
       page_id TEXT NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
       parent_id TEXT REFERENCES revisions(id),
       text TEXT NOT NULL,
       author TEXT NOT NULL,
       created_at TEXT NOT NULL,
       seq INTEGER NOT NULL
     )`,
    `CREATE UNIQUE INDEX revisions_by_page ON revisions(page_id, seq)`,
  ],
};

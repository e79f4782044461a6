/**
 * Review notes: why an analyst rejected a page (and who, when), kept beside the page's review status so a rejection
 * carries its reason into curation and export.
 */
import type { Migration } from './migration.js';

export const reviewNotesSchema: Migration = {
  version: 5,
  name: 'review_notes',
  statements: [
    `CREATE TABLE IF NOT EXISTS review_notes (
       id TEXT PRIMARY KEY,
       page_id TEXT NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
       status TEXT NOT NULL,
       reason TEXT NOT NULL,
       author TEXT NOT NULL,
       created_at TEXT NOT NULL
     )`,
    `CREATE INDEX IF NOT EXISTS review_notes_by_page ON review_notes(page_id, created_at)`,
  ],
};

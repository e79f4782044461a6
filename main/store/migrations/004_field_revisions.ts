/**
 * Field revisions: the analyst's corrections of a page's invoice fields (number, dates, parties, totals, line
 * cells), kept like text revisions — who, when, which field, the value before and after, the previous revision of
 * that field (parent) — and apart from the engine's readings, so a re-read never overwrites them.
 * `new_value` is JSON; NULL means "back to the engine's value" (an undo of the field's first correction).
 * `undoes` names the revision an undo took back (the page's undo walks these as a stack).
 * IF NOT EXISTS: a project put back to an older schema version (the migration tests do) keeps the table it has.
 */
import type { Migration } from './migration.js';

export const fieldRevisionsSchema: Migration = {
  version: 4,
  name: 'field_revisions',
  statements: [
    `CREATE TABLE IF NOT EXISTS field_revisions (
       id TEXT PRIMARY KEY,
       page_id TEXT NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
       parent_id TEXT REFERENCES field_revisions(id),
       field TEXT NOT NULL,
       old_value TEXT,
       new_value TEXT,
       undoes TEXT REFERENCES field_revisions(id),
       author TEXT NOT NULL,
       created_at TEXT NOT NULL,
       seq INTEGER NOT NULL
     )`,
    `CREATE UNIQUE INDEX IF NOT EXISTS field_revisions_by_page ON field_revisions(page_id, seq)`,
  ],
};

/**
 * Save conflicts (docs/architecture.md, "Nothing lost"): a save whose base is not what the page (or the field) holds
 * now is refused with the error code `conflict`, and what it carried is kept here — never written over the newer
 * revision, never dropped. Each row names the revision the editor's text was based on (`base_id`, null: the engine's
 * reading), the newer revision it met (`theirs_id`), the text or value it proposed, who and when; and, once an
 * analyst chose, how (`theirs`, `mine` or `merged`), who chose, when, and the revision the choice saved (none for
 * `theirs`, which keeps the page as it is); where the choice met a newer revision in turn, the conflict that kept it
 * (`superseded_by`).
 *
 * Apart from revisions and field_revisions on purpose: a kept conflict is not the page's text, so the queries that
 * read a page's revisions (latest text, counts, corpus, merge, the audit chain) stay as they were.
 * The revision ids carry no foreign key: a merge or a removed document may leave them naming nothing, and the row
 * is still the record of what was proposed.
 */
import type { Migration } from './migration.js';

export const saveConflictsSchema: Migration = {
  version: 14,
  name: 'save_conflicts',
  statements: [
    `CREATE TABLE IF NOT EXISTS revision_conflicts (
       id TEXT PRIMARY KEY,
       page_id TEXT NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
       base_id TEXT,
       theirs_id TEXT NOT NULL,
       text TEXT NOT NULL,
       author TEXT NOT NULL,
       created_at TEXT NOT NULL,
       resolution TEXT CHECK (resolution IN ('theirs', 'mine', 'merged')),
       resolved_revision_id TEXT,
       resolved_by TEXT,
       resolved_at TEXT,
       superseded_by TEXT
     )`,
    `CREATE INDEX IF NOT EXISTS revision_conflicts_by_page ON revision_conflicts(page_id, created_at)`,
    `CREATE TABLE IF NOT EXISTS field_conflicts (
       id TEXT PRIMARY KEY,
       page_id TEXT NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
       field TEXT NOT NULL,
       base_id TEXT,
       theirs_id TEXT NOT NULL,
       value TEXT NOT NULL,
       author TEXT NOT NULL,
       created_at TEXT NOT NULL,
       resolution TEXT CHECK (resolution IN ('theirs', 'mine', 'merged')),
       resolved_revision_id TEXT,
       resolved_by TEXT,
       resolved_at TEXT,
       superseded_by TEXT
     )`,
    `CREATE INDEX IF NOT EXISTS field_conflicts_by_page ON field_conflicts(page_id, created_at)`,
  ],
};

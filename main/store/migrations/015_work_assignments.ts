/**
 * Working side by side (docs/invoice-review.md, "Working side by side"): who a document is assigned to and who has
 * claimed it now (one row per document that ever had either), and every assignment and claim with who did it and
 * when (work_events, appended only; `seq` orders them — no AUTOINCREMENT, whose sqlite_sequence table the project-file
 * check refuses). `document_id` has no foreign key in the history: it stays when a document goes.
 * Presence (who has a document open) is not here: it lives in the server's memory and ends with the window.
 */
import type { Migration } from './migration.js';

export const workAssignmentsSchema: Migration = {
  version: 15,
  name: 'work_assignments',
  statements: [
    `CREATE TABLE IF NOT EXISTS work_assignments (
       document_id TEXT PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE,
       assignee TEXT,
       assigned_by TEXT,
       assigned_at TEXT,
       claimed_by TEXT,
       claimed_at TEXT
     )`,
    `CREATE INDEX IF NOT EXISTS work_assignments_by_assignee ON work_assignments(assignee)`,
    `CREATE TABLE IF NOT EXISTS work_events (
       seq INTEGER PRIMARY KEY,
       document_id TEXT NOT NULL,
       action TEXT NOT NULL CHECK (action IN ('assigned', 'unassigned', 'claimed', 'released')),
       person TEXT,
       actor TEXT NOT NULL,
       at TEXT NOT NULL
     )`,
    `CREATE INDEX IF NOT EXISTS work_events_by_document ON work_events(document_id, seq)`,
  ],
};

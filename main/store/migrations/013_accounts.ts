/**
 * Team mode (docs/team-mode.md): the project's accounts and the rules the team works under.
 * - accounts: one row per person; `name` is what every revision, field revision and review event records as its
 *   author, so a name is never given to a second account (a removed account keeps its row and its name).
 *   `token_hash` is the SHA-256 of the personal token (32 random bytes): the token itself is printed once and never
 *   stored. `removed_at` set: the token opens nothing from then on.
 * - account_events: who was added, removed, given a new token, and every change of a team rule (four eyes).
 *   Both tables are chained in the audit trail like the review events (auditChain.ts; an account row again at each
 *   change), so a role given or an account added outside Recto shows in `recto audit`.
 * - team_rules: the rules in force (`four_eyes`: on unless an admin turned it off).
 */
import type { Migration } from './migration.js';

export const accountsSchema: Migration = {
  version: 13,
  name: 'accounts',
  statements: [
    `CREATE TABLE IF NOT EXISTS accounts (
       id TEXT PRIMARY KEY,
       name TEXT NOT NULL UNIQUE COLLATE NOCASE,
       role TEXT NOT NULL CHECK (role IN ('reviewer', 'approver', 'admin')),
       token_hash TEXT NOT NULL UNIQUE,
       created_at TEXT NOT NULL,
       removed_at TEXT
     )`,
    `CREATE TABLE IF NOT EXISTS account_events (
       id TEXT PRIMARY KEY,
       at TEXT NOT NULL,
       action TEXT NOT NULL,
       account TEXT,
       role TEXT,
       detail TEXT,
       by_name TEXT,
       os_account TEXT
     )`,
    `CREATE TABLE IF NOT EXISTS team_rules (
       rule TEXT PRIMARY KEY,
       value TEXT NOT NULL
     ) WITHOUT ROWID`,
    // The chain covers both tables from their first row (nothing was there before them).
    ...['accounts', 'account_events'].map(
      (table) =>
        `INSERT OR IGNORE INTO audit_chain_start (table_name, after_rowid, rows_before, started_at)
         VALUES ('${table}', 0, 0, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`,
    ),
  ],
};

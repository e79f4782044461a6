/**
 * A second, raw connection to a project's file, for tests and benchmarks that must reach under the store: to damage
 * a row on purpose, to count rows the store does not expose, or to seed 100,000 pages fast. The product has no such
 * door (ProjectStore has no database getter; lint keeps better-sqlite3 inside main/store/).
 */
import Database from 'better-sqlite3';

const connections = new Map<string, Database.Database>();

/** One connection per project file, opened on first use and kept open (SQLite in WAL mode shares it safely). */
export function rawDatabase(store: { readonly file: string }): Database.Database {
  let db = connections.get(store.file);
  if (!db || !db.open) {
    db = new Database(store.file);
    db.pragma('busy_timeout = 5000');
    connections.set(store.file, db);
  }
  return db;
}

/** Closes the raw connection to this file, if one is open (before the test deletes or replaces the file). */
export function closeRawDatabase(store: { readonly file: string }): void {
  connections.get(store.file)?.close();
  connections.delete(store.file);
}

/**
 * Takes a project's file back to an older schema `version` as far as tables go: drops every table that a later
 * migration added (found against a fresh database migrated to `version`) and sets `user_version`. Columns a later
 * migration added to an older table are the caller's to drop. For tests of what Recto does with an older project.
 */
export function dropTablesAfterVersion(db: Database.Database, version: number, migrations: readonly { version: number; statements: readonly string[] }[]): void {
  const tablesOf = (d: Database.Database) => (d.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`).all() as { name: string }[]).map((row) => row.name);
  const older = new Database(':memory:');
  try {
    for (const migration of migrations.filter((m) => m.version <= version)) for (const statement of migration.statements) older.exec(statement);
    const kept = new Set(tablesOf(older));
    for (const table of tablesOf(db).filter((name) => !kept.has(name))) db.exec(`DROP TABLE "${table}"`);
  } finally {
    older.close();
  }
  db.pragma(`user_version = ${version}`);
}

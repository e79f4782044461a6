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

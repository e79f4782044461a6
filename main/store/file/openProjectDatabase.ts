/**
 * Opening a project file safely: a file that is not a Recto project, or was written by a newer Recto, is refused
 * before anything is written to it. Only then is it opened for writing, switched to WAL and migrated forward.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { currentSchemaVersion, migrations } from '../migrations/index.js';
import { checkProjectSchema } from './projectFileCheck.js';
import { ProjectFileError } from './projectFileError.js';

/** SQLite `application_id` of Recto projects: "Rcto" in ASCII. */
export const rectoApplicationId = 0x5263746f;

export { ProjectFileError };

const sqliteMagic = Buffer.from('SQLite format 3\0', 'latin1');

/** Reads the header fields we need without opening the file through SQLite at all. */
function inspectHeader(file: string): { applicationId: number; userVersion: number } {
  let header: Buffer;
  try {
    const fd = fs.openSync(file, 'r');
    try {
      header = Buffer.alloc(100);
      const read = fs.readSync(fd, header, 0, 100, 0);
      if (read === 0) throw new ProjectFileError(file, 'the file is empty, not a Recto project');
      if (read < 100) throw new ProjectFileError(file, 'not a Recto project (too short to be a database)');
    } finally {
      fs.closeSync(fd);
    }
  } catch (error) {
    if (error instanceof ProjectFileError) throw error;
    throw new ProjectFileError(file, `cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  if (!header.subarray(0, 16).equals(sqliteMagic)) {
    throw new ProjectFileError(file, 'not a Recto project (not an SQLite database)');
  }
  // SQLite header: user_version at byte 60, application_id at byte 68, both big-endian 32-bit.
  return { userVersion: header.readUInt32BE(60), applicationId: header.readUInt32BE(68) };
}

export interface OpenOptions {
  /** Create the file when it does not exist. */
  create: boolean;
  /** The durability baseline for bench:store only: NORMAL can lose the last commits on power loss. */
  synchronous?: 'FULL' | 'NORMAL';
}

/** Opens (or creates) a project database, migrated to the current schema. */
/** Throws ProjectFileError unless the file's header says it is a Recto project this version can read. */
export function checkProjectHeader(file: string): void {
  if (!fs.statSync(file, { throwIfNoEntry: false })?.isFile()) throw new ProjectFileError(file, 'not a file');
  const { applicationId, userVersion } = inspectHeader(file);
  if (applicationId !== rectoApplicationId) {
    throw new ProjectFileError(file, 'not a Recto project (an SQLite database of another application)');
  }
  if (userVersion > currentSchemaVersion) {
    throw new ProjectFileError(
      file,
      `written by a newer Recto (schema ${userVersion}; this version reads up to ${currentSchemaVersion}); update Recto to open it`,
    );
  }
}

// The Electron shell runs a build of better-sqlite3 made for Electron's ABI (see resources/scripts/bootstrap.mjs).
const sqliteOptions = (): Database.Options => {
  const nativeBinding = process.env.RECTO_SQLITE_BINDING;
  return nativeBinding ? { nativeBinding } : {};
};

/**
 * Opens another project read-only (to merge it, to check it), refused unless its header and schema are Recto's.
 */
export function openProjectDatabaseReadOnly(file: string): Database.Database {
  if (!fs.existsSync(file)) throw new ProjectFileError(file, 'no such project file');
  checkProjectHeader(file);
  let db: Database.Database;
  try {
    db = new Database(file, { ...sqliteOptions(), readonly: true, fileMustExist: true });
  } catch (error) {
    throw new ProjectFileError(file, `cannot be opened (${error instanceof Error ? error.message : String(error)})`);
  }
  try {
    checkProjectSchema(db, file);
    return db;
  } catch (error) {
    db.close();
    throw error instanceof ProjectFileError ? error : new ProjectFileError(file, `not a Recto project (${String(error)})`);
  }
}

export function openProjectDatabase(file: string, options: OpenOptions): Database.Database {
  const exists = fs.existsSync(file);
  if (!exists && !options.create) throw new ProjectFileError(file, 'no such project file');
  if (exists && options.create) throw new ProjectFileError(file, 'a file of that name already exists');
  if (exists) checkProjectHeader(file);
  else fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });

  const db = new Database(file, sqliteOptions());
  try {
    // Before any query: the schema must be exactly Recto's (no views, no foreign triggers; projectFileCheck.ts).
    if (exists) checkProjectSchema(db, file);
    // The application id is written before WAL is switched on, so it is in the main file from the first moment:
    // the header check above reads the main file, never the write-ahead log.
    if (!exists) db.pragma(`application_id = ${rectoApplicationId}`);
    db.pragma('journal_mode = WAL');
    // FULL: a commit is on disk before the save is acknowledged, even across a power loss (NORMAL can lose the last
    // commits then). Its price, measured by bench:store, is in docs/benchmarks.md.
    db.pragma(`synchronous = ${options.synchronous === 'NORMAL' ? 'NORMAL' : 'FULL'}`);
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    migrate(db);
    return db;
  } catch (error) {
    db.close();
    throw error instanceof ProjectFileError ? error : new ProjectFileError(file, `cannot be opened: ${String(error)}`);
  }
}

/** Applies every migration newer than the file's `user_version`, each in its own transaction. */
function migrate(db: Database.Database): void {
  const from = db.pragma('user_version', { simple: true }) as number;
  for (const migration of migrations) {
    if (migration.version <= from) continue;
    db.transaction(() => {
      for (const statement of migration.statements) db.exec(statement);
      db.pragma(`user_version = ${migration.version}`);
    })();
  }
}

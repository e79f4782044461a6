/**
 * A project file is checked before Recto runs any query on it. Reading a table is running whatever the file says
 * that table is: a view that recurses without end, a trigger that fires on our writes. So the file's schema must be
 * exactly the one Recto's migrations make for its schema version — the same tables, indexes and triggers with the
 * same SQL, no views, nothing else — and the pages must pass `PRAGMA quick_check`. `trusted_schema = OFF` keeps
 * functions with side effects out of whatever schema SQLite reads before the comparison.
 */
import Database from 'better-sqlite3';
import { migrations } from '../migrations/index.js';
import { ProjectFileError } from './projectFileError.js';

interface SchemaRow {
  type: string;
  name: string;
  tbl_name: string;
  sql: string | null;
}

/** Tables SQLite keeps for itself: statistics written by ANALYZE (which only guide the query planner). */
const sqliteOwnTables = /^sqlite_stat[1-4]$/;

const expectedByVersion = new Map<number, Map<string, SchemaRow>>();

function schemaRows(db: Database.Database): SchemaRow[] {
  return db.prepare('SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY name').all() as SchemaRow[];
}

/** The schema a fresh project migrated to `version` has, by object name. */
function expectedSchema(version: number): Map<string, SchemaRow> {
  let expected = expectedByVersion.get(version);
  if (!expected) {
    const db = new Database(':memory:');
    try {
      for (const migration of migrations) {
        if (migration.version > version) break;
        for (const statement of migration.statements) db.exec(statement);
      }
      expected = new Map(schemaRows(db).map((row) => [row.name, row]));
    } finally {
      db.close();
    }
    expectedByVersion.set(version, expected);
  }
  return expected;
}

const describe = (row: SchemaRow) => `${row.type} "${row.name.slice(0, 80)}"`;

/**
 * Throws ProjectFileError unless the schema of `db` is exactly Recto's for its `user_version`. Reads nothing but
 * `sqlite_schema` and pragmas, so it cannot run anything the file defines.
 */
export function checkProjectSchema(db: Database.Database, file: string): void {
  db.pragma('trusted_schema = OFF');
  let rows: SchemaRow[];
  let version: number;
  try {
    version = db.pragma('user_version', { simple: true }) as number;
    rows = schemaRows(db);
  } catch (error) {
    throw new ProjectFileError(file, `not a Recto project (its schema cannot be read: ${error instanceof Error ? error.message : String(error)})`);
  }
  const expected = expectedSchema(version);
  const seen = new Set<string>();
  for (const row of rows) {
    if (row.type === 'table' && sqliteOwnTables.test(row.name)) continue;
    const wanted = expected.get(row.name);
    if (!wanted) throw new ProjectFileError(file, `not a Recto project (it has an unexpected ${describe(row)})`);
    if (wanted.type !== row.type) {
      throw new ProjectFileError(file, `not a Recto project (its "${row.name}" is a ${row.type} where Recto has a ${wanted.type})`);
    }
    if (wanted.tbl_name !== row.tbl_name || wanted.sql !== row.sql) {
      throw new ProjectFileError(file, `not a Recto project (its ${describe(row)} is not the one Recto makes)`);
    }
    seen.add(row.name);
  }
  for (const [name, row] of expected) {
    if (!seen.has(name)) throw new ProjectFileError(file, `not a Recto project (its ${describe(row)} is missing)`);
  }
}

/** Throws ProjectFileError unless `PRAGMA quick_check` finds the file's pages and indexes sound. */
export function quickCheckProject(db: Database.Database, file: string): void {
  const problems = db.pragma('quick_check(5)', { simple: false }) as { quick_check: string }[];
  const messages = problems.map((row) => row.quick_check);
  if (messages.length !== 1 || messages[0] !== 'ok') {
    throw new ProjectFileError(file, `damaged (${messages.join('; ').slice(0, 300)})`);
  }
}

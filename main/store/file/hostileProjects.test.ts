/**
 * Hostile project files: a `documents` that is an endless recursive view, triggers added or changed, a damaged file.
 * Each is refused — by name and reason — before any query runs on it, whether it is opened, merged or checked.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fillProject } from '../../../testing/corpusFixtures.js';
import { mergeProjectInto } from '../../corpus/mergeProjects.js';
import { ProjectFileError, ProjectStore } from '../projectStore.js';
import { validateProjectFile } from './validateProjectFile.js';

let dir: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-hostile-project-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A real project with some pages, then changed with plain SQLite as an attacker would. */
function tampered(name: string, statements: string[]): string {
  const file = path.join(dir, name);
  const store = ProjectStore.create(file);
  fillProject(store, [{ name: 'a.pdf', pages: 2, corrections: { 0: ['text'] } }]);
  store.close();
  const db = new Database(file);
  for (const statement of statements) db.exec(statement);
  db.close();
  return file;
}

const endlessDocuments = [
  'PRAGMA foreign_keys = OFF',
  'DROP TABLE documents',
  `CREATE VIEW documents AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n)
   SELECT printf('%d', i) AS id, '' AS sha256, 'x' AS name, 'application/pdf' AS media_type, 0 AS size_bytes,
          '' AS imported_at, NULL AS source FROM n`,
];

describe('a hostile project file', () => {
  it('whose documents table is an endless recursive view is refused at once, however it is reached', async () => {
    const file = tampered('view.recto', endlessDocuments);
    await expect(validateProjectFile(file)).rejects.toThrow('view.recto: not a Recto project (its "documents" is a view where Recto has a table)');
    expect(() => ProjectStore.open(file)).toThrow(ProjectFileError);
    const target = ProjectStore.create(path.join(dir, 'target.recto'));
    try {
      expect(() => mergeProjectInto(target, file)).toThrow(/"documents" is a view/);
    } finally {
      target.close();
    }
  }, 20_000);

  it('with a trigger of its own, or one of ours changed, is refused', async () => {
    const added = tampered('added.recto', ['CREATE TRIGGER wipe AFTER INSERT ON revisions BEGIN DELETE FROM pages; END']);
    await expect(validateProjectFile(added)).rejects.toThrow('it has an unexpected trigger "wipe"');
    expect(() => ProjectStore.open(added)).toThrow(/unexpected trigger "wipe"/);

    const changed = tampered('changed.recto', [
      'DROP TRIGGER page_checks_follow_review_status',
      'CREATE TRIGGER page_checks_follow_review_status AFTER UPDATE OF review_status ON pages BEGIN DELETE FROM revisions; END',
    ]);
    await expect(validateProjectFile(changed)).rejects.toThrow('its trigger "page_checks_follow_review_status" is not the one Recto makes');
  });

  it('with a table missing or an index dropped is refused', async () => {
    const missing = tampered('missing.recto', ['DROP INDEX page_checks_by_score']);
    await expect(validateProjectFile(missing)).rejects.toThrow('its index "page_checks_by_score" is missing');
  });

  it('that is damaged fails the quick check', async () => {
    const file = tampered('damaged.recto', ['PRAGMA journal_mode = DELETE']);
    const bytes = fs.readFileSync(file);
    const pageSize = bytes.readUInt16BE(16);
    // Garble every page after the schema page: the schema still reads, the tables and indexes do not.
    for (let offset = pageSize * 2; offset + 16 < bytes.length; offset += pageSize) bytes.fill(0xa5, offset + 8, offset + 16);
    fs.writeFileSync(file, bytes);
    await expect(validateProjectFile(file)).rejects.toThrow(/damaged\.recto: (damaged|not a Recto project)/);
  });

  it('is refused when its check runs past the time limit', async () => {
    const file = tampered('slow.recto', []);
    await expect(validateProjectFile(file, { timeoutMs: 1 })).rejects.toThrow('slow.recto: could not be checked within 0 s; not opened');
    await expect(validateProjectFile(file)).resolves.toBeUndefined();
  });
});

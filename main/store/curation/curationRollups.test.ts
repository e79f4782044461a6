/**
 * Migration 003 on a project written with schema 2: the check rows (which lack inserted characters) are dropped and
 * recomputed on demand, after which the maintained aggregates answer as the pages do.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { correctPage, fillProject, invoicePage } from '../../../testing/corpusFixtures.js';
import { summarizeCuration } from './curationSummary.js';
import { pageChecksSchema } from '../migrations/002_page_checks.js';
import { currentSchemaVersion, migrations } from '../migrations/index.js';
import { ProjectStore } from '../projectStore.js';
import { rawDatabase } from '../../../testing/rawDatabase.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-rollups-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Puts a project back to schema 2 as it was written then: no rollups, the old kinds table with rows. */
function backToSchema2(store: ProjectStore): void {
  const db = rawDatabase(store);
  for (const name of db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'curation_rollup%'").pluck().all()) {
    db.exec(`DROP TRIGGER ${name as string}`);
  }
  for (const table of ['curation_rollup', 'curation_rollup_days', 'curation_rollup_kinds', 'curation_filter_keys', 'page_check_kinds']) {
    db.exec(`DROP TABLE ${table}`);
  }
  for (const statement of pageChecksSchema.statements.filter((s) => /page_check_kinds/.test(s) && /^\s*CREATE/.test(s))) db.exec(statement);
  db.exec(`INSERT INTO page_check_kinds (page_id, kind, elements, chars, changed_chars) SELECT page_id, 'table', 1, 10, 25 FROM page_checks`);
  // Tables of later migrations go too: a schema-2 file has exactly schema 2's objects (checked when it is opened).
  for (const migration of migrations.filter((m) => m.version > 3)) {
    for (const statement of migration.statements) {
      const table = /^\s*CREATE TABLE (?:IF NOT EXISTS )?(\w+)/.exec(statement)?.[1];
      if (table) db.exec(`DROP TABLE ${table}`);
    }
  }
  db.pragma('user_version = 2');
}

describe('migration 003 (curation rollups)', () => {
  it('drops schema-2 check rows, which are recomputed with inserted characters and rolled up', () => {
    const file = path.join(dir, 'p.recto');
    const store = ProjectStore.create(file);
    const ids = fillProject(store, [{ name: 'a.pdf', pages: 4, corrections: { 0: ['table'], 2: ['text', 'header'] } }]);
    store.revisions.saveRevision(ids[1]!, `${correctPage(invoicePage(1).markdown, ['formula'])}\n\nA line the engine missed.`, 'Ana', null);
    const expected = store.curation.summarize({});
    backToSchema2(store);
    store.close();

    const reopened = ProjectStore.open(file);
    try {
      const db = rawDatabase(reopened);
      expect(db.pragma('user_version', { simple: true })).toBe(currentSchemaVersion);
      expect(db.prepare('SELECT COUNT(*) FROM page_checks').pluck().get()).toBe(0);
      expect(summarizeCuration(db, {}).pages).toBe(0);
      // The derived tests the store cached survive (they do not depend on the check rows).
      expect(db.prepare('SELECT COUNT(*) FROM page_derived_tests').pluck().get()).toBe(3);
      expect(reopened.checks.recomputeMissing()).toBe(4);
      const summary = summarizeCuration(db, {});
      expect(summary).toEqual(expected);
      expect(summary.errorsByKind.every((k) => k.changeRate >= 0 && k.changeRate <= 1)).toBe(true);
      expect(summary.errorsByKind.some((k) => k.insertedChars > 0)).toBe(true);
      expect(summarizeCuration(db, {}, { source: 'pages' }).errorsByKind).toEqual(summary.errorsByKind);
    } finally {
      reopened.close();
    }
  });
});

/**
 * `recto audit` (issue 37): every edit made outside Recto to revisions, field revisions, review events, invoices
 * exports (issue 39), save conflicts and their choices and the assignment and claim history (issue 40) — each
 * hashed column of a chained row changed, a row removed, a row added, a chain entry edited or removed, the chain's
 * start moved — is found (exit 1, the row named); Recto's own writes, merges included, keep it intact (exit 0); a
 * project made before the chain says where the chain starts; a file that is not a project is exit 2.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mergeProjectInto } from '../corpus/mergeProjects.js';
import { approve } from '../services/approval.js';
import { migrations } from '../store/migrations/index.js';
import { dropTablesAfterVersion } from '../../testing/rawDatabase.js';
import { ProjectStore } from '../store/projectStore.js';
import { addReadDocument, invoiceReading } from '../../testing/invoiceReadings.js';
import { auditCommand } from './auditCommand.js';

let dir: string;
let base: string;

const invoice = { invoice_number: 'R-1', issue_date: '2024-01-02', due_date: null, seller: 'Muster GmbH', buyer: 'Beispiel AG', currency: 'EUR', subtotal: 10, tax: 1.9, total: 11.9, lines: [{ description: 'Work', quantity: 1, unit_price: 10, amount: 10 }] };

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-audit-'));
  base = path.join(dir, 'base.recto');
  const store = ProjectStore.create(base);
  const { pageId, documentId } = addReadDocument(store, 'a.pdf', invoiceReading(invoice), createHash('sha256').update('a.pdf').digest('hex'));
  store.revisions.saveRevision(pageId, 'Invoice R-1, corrected', 'Ada', null);
  store.fieldRevisions.save(pageId, 'payment.iban', 'DE89370400440532013000', 'Ada');
  approve(store, { pageId, scope: 'document', reviewer: 'Ada' });
  store.invoiceExports.record(exportOf('export-1', documentId));
  const other = addReadDocument(store, 'b.pdf', invoiceReading({ ...invoice, invoice_number: 'R-2' }), createHash('sha256').update('b.pdf').digest('hex'));
  store.reviewNotes.reject(other.pageId, 'not ours', 'Bo');
  // Two people on one page: a text and a field save on an older base kept as conflicts, one of them chosen for;
  // the document given, claimed and taken over.
  const first = store.revisions.saveRevision(other.pageId, 'Invoice R-2, first edit', 'Ada', null);
  store.revisions.saveRevision(other.pageId, 'Invoice R-2, Bo edited', 'Bo', first.id);
  const textConflict = store.saveConflicts.saveText(other.pageId, 'Invoice R-2, Ada edited too', 'Ada', first.id);
  if (!('conflict' in textConflict)) throw new Error('expected a text conflict');
  const total = store.fieldRevisions.save(other.pageId, 'total', 12, 'Ada');
  store.fieldRevisions.save(other.pageId, 'total', 13, 'Bo');
  const fieldConflict = store.saveConflicts.saveField(other.pageId, 'total', 14, 'Ada', total.id);
  if (!('conflict' in fieldConflict)) throw new Error('expected a field conflict');
  store.saveConflicts.resolveField(fieldConflict.conflict.id, 'theirs', undefined, fieldConflict.conflict.theirs.id, 'Ada');
  store.work.assign(other.documentId, 'Ada', 'Bo');
  store.work.claim(other.documentId, 'Ada');
  store.work.claim(other.documentId, 'Bo', true);
  store.close();
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** An invoices export as the export records it (writeInvoicesExport.ts), sending one invoice. */
function exportOf(id: string, documentId: string) {
  return {
    id,
    exportedAt: new Date().toISOString(),
    reviewer: 'Ada',
    osAccount: 'ada',
    channel: 'invoices/ubl/en16931',
    allApproved: false,
    outDir: path.join(dir, 'out'),
    files: [{ file: 'invoices.csv', sha256: 'a'.repeat(64) }],
    items: [{ documentId, approval: 'approval-event', correctionOf: null }],
  };
}

async function audit(file: string): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await auditCommand([file], { write: (s: string) => ((out += s), true) }, { write: (s: string) => ((err += s), true) });
  return { code, out, err };
}

let copies = 0;
/** A copy of the base project with `edit` applied through a raw sqlite connection, as someone with sqlite3 would. */
function tampered(edit: (db: Database.Database) => void): string {
  const file = path.join(dir, `t${++copies}.recto`);
  fs.copyFileSync(base, file);
  const db = new Database(file);
  try {
    edit(db);
  } finally {
    db.close();
  }
  return file;
}

const hashed: Record<string, string[]> = {
  revisions: ['page_id', 'parent_id', 'text', 'author', 'created_at'],
  field_revisions: ['page_id', 'parent_id', 'field', 'old_value', 'new_value', 'undoes', 'author', 'created_at'],
  review_events: ['page_id', 'status', 'exceptions', 'reason', 'reviewer', 'at', 'sealed', 'os_account', 'origin'],
  invoice_exports: ['exported_at', 'reviewer', 'os_account', 'channel', 'all_approved', 'out_dir', 'files'],
  revision_conflicts: ['page_id', 'base_id', 'theirs_id', 'text', 'author', 'created_at', 'resolution', 'resolved_revision_id', 'resolved_by', 'resolved_at', 'superseded_by'],
  field_conflicts: ['page_id', 'field', 'base_id', 'theirs_id', 'value', 'author', 'created_at', 'resolution', 'resolved_revision_id', 'resolved_by', 'resolved_at', 'superseded_by'],
  work_events: ['document_id', 'action', 'person', 'actor', 'at'],
};
/** The column that names a row (work_events has no id: its `seq`). */
const idOf = (table: string) => (table === 'work_events' ? 'seq' : 'id');

describe('recto audit', () => {
  it('an untouched project, and one extended by a merge, are intact (exit 0)', async () => {
    expect(await audit(base)).toMatchObject({ code: 0, out: expect.stringContaining('audit trail intact') });
    const target = path.join(dir, 'target.recto');
    const store = ProjectStore.create(target);
    mergeProjectInto(store, base);
    store.close();
    expect((await audit(target)).code).toBe(0);
  });

  it('finds every column of every chained row edited outside Recto, naming the row and what it claims', async () => {
    let edits = 0;
    let found = 0;
    for (const [table, columns] of Object.entries(hashed)) {
      const db = new Database(base, { readonly: true });
      const ids = db.prepare(`SELECT ${idOf(table)} FROM ${table}`).pluck().all() as (string | number)[];
      db.close();
      expect(ids.length).toBeGreaterThan(0);
      for (const id of ids) {
        for (const column of columns) {
          // A value of the column's kind that differs: another page id for a page, a changed text otherwise.
          const file = tampered((raw) => {
            raw.pragma('foreign_keys = OFF');
            // As someone with sqlite3 can: a value outside a column's CHECK (a conflict's choice, a work event's action).
            raw.pragma('ignore_check_constraints = ON');
            raw.prepare(`UPDATE ${table} SET ${column} = COALESCE(${column}, '') || 'x' WHERE ${idOf(table)} = ?`).run(id);
          });
          const result = await audit(file);
          edits += 1;
          if (result.code === 1 && result.err.includes(`${table} row ${String(id)}`) && result.err.includes('it claims')) found += 1;
          fs.rmSync(file);
        }
      }
    }
    console.log(`recto audit: ${found} of ${edits} single-column edits found`);
    expect(found).toBe(edits);
  }, 120_000);

  it('finds a row removed, a row added, a chain entry edited or removed, and the chain start moved', async () => {
    const cases: [string, (db: Database.Database) => void][] = [
      ['removed review event', (db) => db.prepare(`DELETE FROM review_events WHERE reviewer = 'Bo'`).run()],
      ['removed field revision', (db) => db.prepare('DELETE FROM field_revisions').run()],
      ['added revision', (db) => db.prepare(`INSERT INTO revisions (id, page_id, parent_id, text, author, created_at, seq) SELECT 'forged', page_id, NULL, 'forged', 'Ada', created_at, 99 FROM revisions LIMIT 1`).run()],
      ['added approval', (db) => db.prepare(`INSERT INTO review_events (id, page_id, status, exceptions, reason, reviewer, at) SELECT 'forged', page_id, 'approved', '[]', NULL, 'bob (CFO)', '2099-01-01T00:00:00.000Z' FROM review_events LIMIT 1`).run()],
      ['chain entry edited', (db) => db.prepare(`UPDATE audit_chain SET row_hash = hash WHERE seq = 2`).run()],
      ['chain entry removed', (db) => db.prepare('DELETE FROM audit_chain WHERE seq = 1').run()],
      ['chain start moved', (db) => db.prepare(`UPDATE audit_chain_start SET after_rowid = after_rowid + 100 WHERE table_name = 'revisions'`).run()],
      ['exported invoice edited', (db) => db.prepare(`UPDATE invoice_export_items SET approval = 'forged'`).run()],
      ['exported invoice added', (db) => db.prepare(`INSERT INTO invoice_export_items (export_id, document_id, approval, correction_of) VALUES ('export-1', 'another', 'forged', NULL)`).run()],
      ['exported invoice removed', (db) => db.prepare('DELETE FROM invoice_export_items').run()],
      ['export removed', (db) => db.prepare('DELETE FROM invoice_exports').run()],
      ['export added', (db) => db.prepare(`INSERT INTO invoice_exports (id, exported_at, reviewer, os_account, channel, all_approved, out_dir, files) VALUES ('forged', '2099-01-01T00:00:00.000Z', 'bob', NULL, 'invoices/ubl/en16931', 0, '/tmp', '[]')`).run()],
      ['kept conflict removed', (db) => db.prepare('DELETE FROM revision_conflicts').run()],
      ['conflict added', (db) => db.prepare(`INSERT INTO field_conflicts (id, page_id, field, base_id, theirs_id, value, author, created_at) SELECT 'forged', page_id, field, NULL, theirs_id, '99', 'Bo', created_at FROM field_conflicts LIMIT 1`).run()],
      ['choice undone', (db) => db.prepare('UPDATE field_conflicts SET resolution = NULL, resolved_by = NULL, resolved_at = NULL').run()],
      ['claim history removed', (db) => db.prepare(`DELETE FROM work_events WHERE action = 'released'`).run()],
      ['assignment added', (db) => db.prepare(`INSERT INTO work_events (document_id, action, person, actor, at) SELECT document_id, 'assigned', 'Mallory', 'Bo', at FROM work_events LIMIT 1`).run()],
      ['conflicts chain start moved', (db) => db.prepare(`UPDATE audit_chain_start SET after_rowid = after_rowid + 1 WHERE table_name = 'revision_conflicts'`).run()],
      ['exports chain start moved', (db) => db.prepare(`UPDATE audit_chain_start SET rows_before = rows_before + 1, after_rowid = after_rowid + 1 WHERE table_name = 'invoice_exports'`).run()],
    ];
    for (const [name, edit] of cases) {
      const result = await audit(tampered(edit));
      expect({ name, code: result.code }).toEqual({ name, code: 1 });
      expect(result.err).toMatch(/TAMPERED: /);
    }
  });

  it('a project made before the chain says where the chain starts (exit 0) and chains from then on', async () => {
    const file = path.join(dir, 'old.recto');
    const store = ProjectStore.create(file);
    const { pageId } = addReadDocument(store, 'a.pdf', invoiceReading(invoice));
    store.revisions.saveRevision(pageId, 'before the chain', 'Ada', null);
    store.close();
    // Back to schema 8: what migration 009 added, gone.
    const db = new Database(file);
    dropTablesAfterVersion(db, 8, migrations);
    for (const column of ['sealed', 'os_account', 'origin']) db.exec(`ALTER TABLE review_events DROP COLUMN ${column}`);
    db.close();

    const first = await audit(file);
    expect(first.code).toBe(0);
    expect(first.out).toMatch(/revisions: the chain starts at .*; 1 row\(s\) from before it are counted but not chained/);
    const reopened = ProjectStore.open(file);
    reopened.revisions.saveRevision(pageId, 'after the chain', 'Ada', null);
    reopened.close();
    expect((await audit(file)).code).toBe(0);
    const raw = new Database(file);
    raw.prepare(`UPDATE revisions SET text = 'edited' WHERE text = 'after the chain'`).run();
    raw.close();
    expect((await audit(file)).code).toBe(1);
  });

  it('a project that exported invoices before they were chained keeps its chain, counts those exports and chains the next', async () => {
    const file = path.join(dir, 'exported-before.recto');
    const store = ProjectStore.create(file);
    const { pageId, documentId } = addReadDocument(store, 'a.pdf', invoiceReading(invoice));
    store.revisions.saveRevision(pageId, 'chained already', 'Ada', null);
    store.close();
    // Back to schema 12: an export recorded as Recto wrote it then (no chain entry), no start for the exports.
    const db = new Database(file);
    db.prepare(`DELETE FROM audit_chain_start WHERE table_name = 'invoice_exports'`).run();
    db.prepare(`INSERT INTO invoice_exports (id, exported_at, reviewer, os_account, channel, all_approved, out_dir, files) VALUES ('old', '2024-01-01T00:00:00.000Z', 'Ada', NULL, 'invoices/ubl/en16931', 0, '/tmp', '[]')`).run();
    dropTablesAfterVersion(db, 12, migrations);
    db.close();

    const reopened = ProjectStore.open(file);
    const first = await audit(file);
    expect(first.code).toBe(0);
    expect(first.out).toMatch(/invoice_exports: the chain starts at .*; 1 row\(s\) from before it are counted but not chained/);
    reopened.invoiceExports.record(exportOf('new', documentId));
    reopened.close();
    expect((await audit(file)).code).toBe(0);
    const raw = new Database(file);
    raw.prepare(`UPDATE invoice_export_items SET approval = 'forged' WHERE export_id = 'new'`).run();
    raw.close();
    expect(await audit(file)).toMatchObject({ code: 1, err: expect.stringContaining('invoice_exports row new') });
  });

  it('a project with save conflicts and claims from before they were chained keeps its chain, counts them and chains the next', async () => {
    const file = path.join(dir, 'conflicts-before.recto');
    const store = ProjectStore.create(file);
    const { pageId, documentId } = addReadDocument(store, 'a.pdf', invoiceReading(invoice));
    const first = store.revisions.saveRevision(pageId, 'first', 'Ada', null);
    store.revisions.saveRevision(pageId, 'second', 'Bo', first.id);
    store.close();
    // Back to schema 16: a conflict and a claim recorded as Recto wrote them then (no chain entry), no starts for them.
    const db = new Database(file);
    db.prepare(`DELETE FROM audit_chain_start WHERE table_name IN ('revision_conflicts', 'field_conflicts', 'work_events')`).run();
    db.prepare(`INSERT INTO revision_conflicts (id, page_id, base_id, theirs_id, text, author, created_at) SELECT 'old', page_id, NULL, id, 'old text', 'Ada', created_at FROM revisions LIMIT 1`).run();
    db.prepare(`INSERT INTO work_events (document_id, action, person, actor, at) VALUES (?, 'claimed', 'Ada', 'Ada', '2024-01-01T00:00:00.000Z')`).run(documentId);
    db.pragma('user_version = 16');
    db.close();

    const reopened = ProjectStore.open(file);
    const before = await audit(file);
    expect(before.code).toBe(0);
    expect(before.out).toMatch(/revision_conflicts: the chain starts at .*; 1 row\(s\) from before it are counted but not chained/);
    expect(before.out).toMatch(/work_events: the chain starts at .*; 1 row\(s\) from before it are counted but not chained/);
    const kept = reopened.saveConflicts.saveText(pageId, 'third, on the first', 'Ada', first.id);
    if (!('conflict' in kept)) throw new Error('expected a conflict');
    reopened.work.claim(documentId, 'Bo', true);
    reopened.close();
    expect((await audit(file)).code).toBe(0);
    const raw = new Database(file);
    raw.prepare(`UPDATE work_events SET actor = 'Mallory' WHERE person = 'Bo'`).run();
    raw.close();
    expect(await audit(file)).toMatchObject({ code: 1, err: expect.stringContaining('TAMPERED: work_events row') });
  });

  it('a file that is not a Recto project is exit 2, with its reason', async () => {
    const file = path.join(dir, 'not.recto');
    fs.writeFileSync(file, 'not a database');
    expect(await audit(file)).toMatchObject({ code: 2, err: expect.stringContaining('not.recto') });
    expect((await audit(path.join(dir, 'missing.recto'))).code).toBe(2);
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { learnLesson, type SupplierLesson } from '../../app/invoice/supplierMemory/index.js';
import { fillProject } from '../../testing/corpusFixtures.js';
import { line } from '../../testing/syntheticWords.js';
import { ProjectStore } from './projectStore.js';
import { MAX_LESSONS } from './supplierMemory.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-supplier-memory-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const words = [...line('Acme Tooling Ltd', 40, 40), ...line('Invoice No.', 40, 100), ...line('A-17', 300, 100), ...line('Total', 40, 300), ...line('12.50', 300, 300)];
const lesson: SupplierLesson = learnLesson(words, { invoice_number: 'A-17', issue_date: null, due_date: null, seller: 'Acme Tooling Ltd', buyer: null, currency: 'GBP', subtotal: null, tax: null, total: 12.5 });

function project(documents = 3): { store: ProjectStore; docs: { id: string; pageId: string }[] } {
  const store = ProjectStore.create(path.join(dir, 'p.recto'));
  fillProject(store, Array.from({ length: documents }, (_, i) => ({ name: `d${i}.pdf`, pages: 1 })));
  const docs = store.documents.listDocuments().map((d) => ({ id: d.id, pageId: d.pages[0]!.id }));
  return { store, docs };
}

const teach = (store: ProjectStore, doc: { id: string; pageId: string }, supplierId: string | null, outcome = { kept: 0, corrected: 0 }, approved = false) =>
  store.supplierMemory.teach({ documentId: doc.id, pageId: doc.pageId, lesson, supplierId, newName: 'Acme Tooling Ltd', outcome, approved });

describe('supplier memory rows', () => {
  it('keeps lessons per document under suppliers: list, rename, merge, forget', () => {
    const { store, docs } = project();
    const acme = teach(store, docs[0]!, null);
    teach(store, docs[1]!, acme, { kept: 8, corrected: 1 });
    const other = teach(store, docs[2]!, null);
    expect(store.supplierMemory.list().map((s) => [s.id === acme, s.pages.length]).sort()).toEqual([
      [false, 1],
      [true, 2],
    ]);
    expect(store.supplierMemory.trackRecords().get(acme)).toEqual({ kept: 8, corrected: 1 });
    store.supplierMemory.rename(other, '  Acme   (second account) ');
    expect(store.supplierMemory.list().map((s) => s.name)).toContain('Acme (second account)');
    store.supplierMemory.merge(acme, other);
    expect(store.supplierMemory.list()).toHaveLength(1);
    expect(store.supplierMemory.list()[0]!.pages).toHaveLength(3);
    expect(store.supplierMemory.index().size).toBe(1);
    store.supplierMemory.forget(acme);
    expect(store.supplierMemory.list()).toEqual([]);
    expect(() => store.supplierMemory.forget(acme)).toThrow(/no supplier/);
    store.close();
  });

  it('restores exactly what forget removed: id, name, lessons, counts and approvals', () => {
    const { store, docs } = project();
    const acme = teach(store, docs[0]!, null, { kept: 0, corrected: 0 }, true);
    teach(store, docs[1]!, acme, { kept: 8, corrected: 1 });
    const other = teach(store, docs[2]!, null);
    store.supplierMemory.rename(acme, 'Acme (renamed)');
    // The project file through another connection: committed rows, as they are on disk.
    const db = new Database(path.join(dir, 'p.recto'));
    db.pragma('foreign_keys = ON');
    const rows = () => db.prepare('SELECT * FROM supplier_lessons ORDER BY document_id').all();
    const before = { suppliers: db.prepare('SELECT * FROM suppliers ORDER BY id').all(), lessons: rows() };
    const forgotten = store.supplierMemory.forget(acme);
    expect(forgotten.lessons).toHaveLength(2);
    expect(store.supplierMemory.list().map((s) => s.id)).toEqual([other]);
    expect(store.supplierMemory.restore(forgotten)).toBe(2);
    expect({ suppliers: db.prepare('SELECT * FROM suppliers ORDER BY id').all(), lessons: rows() }).toEqual(before);
    expect(store.supplierMemory.trackRecords().get(acme)).toEqual({ kept: 8, corrected: 1 });
    expect(store.supplierMemory.list().find((s) => s.id === acme)?.name).toBe('Acme (renamed)');

    // A document that taught another supplier after the forget keeps that lesson; a removed document is not restored.
    const again = store.supplierMemory.forget(acme);
    teach(store, docs[0]!, other);
    db.prepare('DELETE FROM documents WHERE id = ?').run(docs[1]!.id);
    expect(store.supplierMemory.restore(again)).toBe(0);
    expect(store.supplierMemory.supplierOf(docs[0]!.id)).toBe(other);
    expect(store.supplierMemory.list().map((s) => s.id)).toEqual([other]);
    db.close();
    store.close();
  });

  it('lists only the supplier’s own identifiers: one that another supplier’s pages print (the buyer’s) is left out', () => {
    const { store, docs } = project(2);
    const withIds = (vatIds: string[], name: string): SupplierLesson => ({ ...lesson, identity: { ...lesson.identity, name, vatIds, glns: ['4333741000005'] } });
    store.supplierMemory.teach({ documentId: docs[0]!.id, pageId: docs[0]!.pageId, lesson: withIds(['GB123456789', 'DE 999 999 999'], 'Acme'), supplierId: null, newName: 'Acme', outcome: { kept: 0, corrected: 0 }, approved: true });
    store.supplierMemory.teach({ documentId: docs[1]!.id, pageId: docs[1]!.pageId, lesson: withIds(['DE999999999'], 'Brenner'), supplierId: null, newName: 'Brenner', outcome: { kept: 0, corrected: 0 }, approved: true });
    const [acme, brenner] = store.supplierMemory.list();
    expect(acme).toMatchObject({ name: 'Acme', vatIds: ['GB123456789'], glns: [] });
    expect(brenner).toMatchObject({ name: 'Brenner', vatIds: [] });
    store.close();
  });

  it('a supplier follows its only document’s seller as the analyst corrects it, until the analyst names it', () => {
    const { store, docs } = project(1);
    const named = (name: string): SupplierLesson => ({ ...lesson, identity: { ...lesson.identity, name } });
    const again = (name: string, supplierId: string) =>
      store.supplierMemory.teach({ documentId: docs[0]!.id, pageId: docs[0]!.pageId, lesson: named(name), supplierId, newName: name, outcome: { kept: 0, corrected: 0 }, approved: false });
    const id = again('Versicherungsverein', 'none');
    again('MVM Versicherungsverein a.G.', id);
    expect(store.supplierMemory.list()[0]!.name).toBe('MVM Versicherungsverein a.G.');
    store.supplierMemory.rename(id, 'MVM');
    again('MVM Musterhafter Versicherungsverein a.G.', id);
    expect(store.supplierMemory.list()[0]!.name).toBe('MVM');
    store.close();
  });

  it('unteaching takes a lesson back unless the document was approved', () => {
    const { store, docs } = project(2);
    teach(store, docs[0]!, null);
    teach(store, docs[1]!, null, undefined, true);
    store.supplierMemory.unteach(docs[0]!.id);
    store.supplierMemory.unteach(docs[1]!.id);
    expect(store.supplierMemory.list().flatMap((s) => s.pages.map((p) => p.documentId))).toEqual([docs[1]!.id]);
    store.close();
  });

  it('survives reopening, and ignores crafted rows instead of trusting or crashing on them', () => {
    const { store, docs } = project(3);
    teach(store, docs[0]!, null);
    store.close();
    const db = new Database(path.join(dir, 'p.recto'));
    db.pragma('foreign_keys = OFF');
    db.prepare("INSERT INTO suppliers (id, name, created_at) VALUES ('evil', 'Evil', 'x')").run();
    const crafted = ['{"version":1', JSON.stringify({ ...lesson, identity: { ...lesson.identity, fingerprint: Array(100_000).fill(1) } }), JSON.stringify({ ...lesson, version: 2 })];
    crafted.forEach((json, i) => db.prepare("INSERT INTO supplier_lessons (document_id, supplier_id, page_id, lesson, kept, corrected, learned_at) VALUES (?, 'evil', 'p', ?, -5, 1e300, 'x')").run(`crafted-${i}`, json));
    db.close();
    const reopened = ProjectStore.open(path.join(dir, 'p.recto'));
    expect(reopened.supplierMemory.list().map((s) => s.name)).toEqual(['Acme Tooling Ltd']);
    expect(MAX_LESSONS).toBeGreaterThan(1000);
    reopened.close();
  });
});

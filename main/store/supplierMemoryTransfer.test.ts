import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { learnLesson } from '../../app/invoice/supplierMemory/index.js';
import { carrySupplierMemoryFromCorpus, SUPPLIERS_FILE, suppliersJsonl } from '../corpus/supplierMemoryFile.js';
import { fillProject } from '../../testing/corpusFixtures.js';
import { line } from '../../testing/syntheticWords.js';
import { ProjectStore } from './projectStore.js';
import { carrySupplierMemoryFrom } from './supplierMemoryTransfer.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-supplier-transfer-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const lesson = learnLesson([...line('Acme Tooling Ltd', 40, 40), ...line('Total', 40, 300), ...line('12.50', 300, 300)], {
  invoice_number: null,
  issue_date: null,
  due_date: null,
  seller: 'Acme Tooling Ltd',
  buyer: null,
  currency: 'GBP',
  subtotal: null,
  tax: null,
  total: 12.5,
});
const documents = [{ name: 'a.pdf', pages: 1 }, { name: 'b.pdf', pages: 1 }, { name: 'c.pdf', pages: 2 }];

/** A project of the three documents (same bytes, so the same SHA-256, in every project made here). */
function project(name: string): { store: ProjectStore; docs: { id: string; pageId: string }[] } {
  const store = ProjectStore.create(path.join(dir, name));
  fillProject(store, documents);
  return { store, docs: store.documents.listDocuments().map((d) => ({ id: d.id, pageId: d.pages[0]!.id })) };
}

/** The analyst's memory there: two suppliers learned, one renamed, then merged into the other; one approval. */
function taughtProject(): ProjectStore {
  const { store, docs } = project('there.recto');
  const teach = (i: number, newName: string, approved = false) =>
    store.supplierMemory.teach({ documentId: docs[i]!.id, pageId: docs[i]!.pageId, lesson, supplierId: null, newName, outcome: { kept: 3, corrected: 1 }, approved });
  const acme = teach(0, 'Acme');
  const brenner = teach(1, 'Brenner', true);
  store.supplierMemory.rename(acme, 'Acme Tooling (UK)');
  store.supplierMemory.merge(acme, brenner);
  return store;
}

const summary = (store: ProjectStore) => store.supplierMemory.list().map((s) => ({ name: s.name, pages: s.pages.length, kept: s.kept, corrected: s.corrected }));

describe('supplier memory carried to another project', () => {
  it('by a merge: the rename, the merge and the approval come along', () => {
    const there = taughtProject();
    there.close();
    const { store: here } = project('here.recto');
    expect(carrySupplierMemoryFrom(here, path.join(dir, 'there.recto'))).toBe(2);
    expect(summary(here)).toEqual([{ name: 'Acme Tooling (UK)', pages: 2, kept: 6, corrected: 2 }]);
    // Carried again (a second merge): nothing doubles.
    expect(carrySupplierMemoryFrom(here, path.join(dir, 'there.recto'))).toBe(0);
    here.close();
  });

  it('joins a supplier this project already files one of the documents under, and keeps this project’s name', () => {
    const there = taughtProject();
    there.close();
    const { store: here, docs } = project('here.recto');
    here.supplierMemory.teach({ documentId: docs[1]!.id, pageId: docs[1]!.pageId, lesson, supplierId: null, newName: 'ACME local', outcome: { kept: 0, corrected: 0 }, approved: false });
    carrySupplierMemoryFrom(here, path.join(dir, 'there.recto'));
    expect(summary(here)).toEqual([{ name: 'ACME local', pages: 2, kept: 3, corrected: 1 }]);
    here.close();
  });

  it('by a corpus: suppliers.jsonl for the exported documents, a line that is no lesson reported and skipped', () => {
    const there = taughtProject();
    const shas = new Set(there.documents.listDocuments().map((d) => d.sha256));
    const corpus = path.join(dir, 'corpus');
    fs.mkdirSync(corpus);
    fs.writeFileSync(path.join(corpus, SUPPLIERS_FILE), `${suppliersJsonl(there, shas)}{"supplierId":"x","lesson":"{}"}\n`);
    there.close();
    const { store: here } = project('here.recto');
    const taken = carrySupplierMemoryFromCorpus(here, corpus);
    expect(taken.carried).toBe(2);
    expect(taken.problems).toEqual([{ where: `${SUPPLIERS_FILE}:3`, reason: 'not a supplier lesson; skipped' }]);
    expect(summary(here)).toEqual([{ name: 'Acme Tooling (UK)', pages: 2, kept: 6, corrected: 2 }]);
    here.close();
  });
});

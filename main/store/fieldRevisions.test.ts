import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Extraction } from '../../app/model/extraction.js';
import { ProjectStore } from './projectStore.js';
import { InvalidFieldError } from './fieldRevisions.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-fields-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const invoice = (total: number): Extraction => ({
  markdown: `Invoice 42\n\nTotal ${total.toFixed(2)}`,
  elements: [],
  page: { width: 1000, height: 1400 },
  engine: { id: 'bundled', name: 'Bundled', version: '1', packSha256: null, licence: null, provider: 'text-layer', settings: {} },
  stats: { durationMs: 1 },
  warnings: [],
  fields: {
    invoice: {
      invoice_number: '42', issue_date: '2024-03-01', due_date: null, seller: 'Muster GmbH', buyer: null, currency: 'EUR',
      subtotal: null, tax: null, total, lines: [{ description: 'Work', quantity: 2, unit_price: 5, amount: 10 }],
    },
    invoiceSources: { total: { text: total.toFixed(2), label: 'Total', boxes: [[10, 10, 50, 20]] } },
  },
});

function project() {
  const store = ProjectStore.create(path.join(dir, 'p.recto'));
  const doc = store.documents.addDocument({
    sha256: 'c'.repeat(64),
    name: 'invoice.pdf',
    mediaType: 'application/pdf',
    bytes: Buffer.from('%PDF'),
    pages: [{ pageNumber: 1, width: 1000, height: 1400, dpi: 150, textLayer: null }],
  })!;
  const pageId = doc.pages[0]!.id;
  store.readings.saveExtraction(pageId, invoice(10), new Date());
  return { store, pageId, documentId: doc.id };
}

describe('field revisions', () => {
  it('records author, time, parent, field, old and new value, across reopen', () => {
    const { store, pageId } = project();
    const first = store.fieldRevisions.save(pageId, 'total', 12, 'Ana');
    const second = store.fieldRevisions.save(pageId, 'total', 11.9, 'Ben');
    store.fieldRevisions.save(pageId, 'lines.0.amount', 12, 'Ana');
    expect(first).toMatchObject({ field: 'total', oldValue: 10, newValue: 12, parentId: null, author: 'Ana', undoes: null });
    expect(second).toMatchObject({ oldValue: 12, newValue: 11.9, parentId: first.id, author: 'Ben' });
    store.close();
    const reopened = ProjectStore.open(path.join(dir, 'p.recto'));
    expect(reopened.fieldRevisions.list(pageId).map((r) => [r.field, r.newValue])).toEqual([['total', 12], ['total', 11.9], ['lines.0.amount', 12]]);
    expect(reopened.fieldRevisions.currentValues(pageId)).toMatchObject({ total: 11.9, lines: [{ amount: 12 }] });
    reopened.close();
  });

  it('undoes newest first, down to the engine value, then has nothing left', () => {
    const { store, pageId } = project();
    store.fieldRevisions.save(pageId, 'total', 12, 'Ana');
    store.fieldRevisions.save(pageId, 'invoice_number', '43', 'Ana');
    store.fieldRevisions.save(pageId, 'total', 13, 'Ana');
    expect(store.fieldRevisions.undo(pageId, 'Ana')).toMatchObject({ field: 'total', oldValue: 13, newValue: 12 });
    expect(store.fieldRevisions.currentValues(pageId).total).toBe(12);
    expect(store.fieldRevisions.undo(pageId, 'Ana')).toMatchObject({ field: 'invoice_number', newValue: null, toEngine: true });
    expect(store.fieldRevisions.currentValues(pageId).invoice_number).toBe('42');
    expect(store.fieldRevisions.undo(pageId, 'Ana')).toMatchObject({ field: 'total', toEngine: true });
    expect(store.fieldRevisions.currentValues(pageId).total).toBe(10);
    expect(store.fieldRevisions.undo(pageId, 'Ana')).toBeNull();
    store.close();
  });

  it("keeps the analyst's value through a re-read; uncorrected fields follow the new reading", () => {
    const { store, pageId } = project();
    store.fieldRevisions.save(pageId, 'invoice_number', 'RE-42', 'Ana');
    store.readings.saveExtraction(pageId, invoice(99), new Date());
    const current = store.fieldRevisions.currentValues(pageId);
    expect(current.invoice_number).toBe('RE-42');
    expect(current.total).toBe(99);
    store.close();
  });

  it('counts pages and revisions, and refuses paths that are not fields', () => {
    const { store, pageId, documentId } = project();
    store.fieldRevisions.save(pageId, 'total', 12, 'Ana');
    store.fieldRevisions.save(pageId, 'seller', null, 'Ana');
    expect(store.fieldRevisions.stats()).toEqual({ pages: 1, revisions: 2 });
    expect(store.fieldRevisions.stats(documentId)).toEqual({ pages: 1, revisions: 2 });
    expect(() => store.fieldRevisions.save(pageId, 'lines.x.amount', 1, 'Ana')).toThrow(InvalidFieldError);
    expect(() => store.fieldRevisions.save(pageId, '__proto__', 1, 'Ana')).toThrow(InvalidFieldError);
    store.close();
  });
});

describe('rejection with a reason', () => {
  it('sets the status and keeps the reason, author and time', () => {
    const { store, pageId } = project();
    expect(store.reviewNotes.reject(pageId, 'not an invoice', 'Ana').reviewStatus).toBe('rejected');
    expect(store.reviewNotes.rejectionReason(pageId)).toMatchObject({ reason: 'not an invoice', author: 'Ana' });
    store.close();
  });
});

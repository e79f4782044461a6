import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Extraction } from '../../../app/model/extraction.js';
import { ProjectStore } from '../projectStore.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-attention-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const reading = (lineAmount: number, invoiceNumber: string | null): Extraction => ({
  markdown: 'Invoice\n\nTotal 11.90',
  // One box, as every engine that grounds its text gives: a reading without any is a signal of its own ('no-boxes').
  elements: [{ id: 'e1', kind: 'text', box: [0, 0, 100, 20], span: [0, 7], confidence: null }],
  page: { width: 100, height: 100 },
  engine: { id: 'bundled', name: 'Bundled', version: '1', packSha256: null, licence: null, provider: 'text-layer', settings: {} },
  stats: { durationMs: 1 },
  warnings: [],
  words: [{ text: 'Total', box: [0, 0, 10, 10], confidence: 0.99 }],
  fields: {
    invoice: {
      invoice_number: invoiceNumber, issue_date: '2024-01-02', due_date: null, seller: 'Muster GmbH', buyer: 'Beispiel AG', currency: 'EUR',
      subtotal: 10, tax: 1.9, total: 11.9, lines: [{ description: 'Work', quantity: 1, unit_price: 10, amount: lineAmount }],
    },
    invoiceSources: {},
  },
});

describe('needs-attention queue', () => {
  it('flags failed rules and missing fields before any correction, and clears them when corrected', () => {
    const store = ProjectStore.create(path.join(dir, 'p.recto'));
    const pages = ['a', 'b'].map((sha, i) => {
      const doc = store.documents.addDocument({ sha256: sha.repeat(64), name: `${sha}.pdf`, mediaType: 'application/pdf', bytes: Buffer.from(sha), pages: [{ pageNumber: 1, width: 100, height: 100, dpi: 72, textLayer: null }] })!;
      store.readings.saveExtraction(doc.pages[0]!.id, i === 0 ? reading(10, '7') : reading(12, null), new Date());
      return doc.pages[0]!.id;
    });
    const first = store.attention.list();
    expect(first.map((item) => item.pageId)).toEqual(pages);
    expect(first[0]!.signals).toEqual([]);
    expect(first[1]!.signals.map((s) => s.kind).sort()).toEqual(['failed-rule', 'failed-rule', 'missing-field']);
    expect(first[1]!.signals.some((s) => s.detail.startsWith('BR-CO-10'))).toBe(true);
    store.fieldRevisions.save(pages[1]!, 'lines.0.amount', 10, 'Ana');
    store.fieldRevisions.save(pages[1]!, 'invoice_number', 'RE-8', 'Ana');
    const after = store.attention.list();
    expect(after[1]!.signals).toEqual([]);
    expect(after[1]!.corrected).toBe(true);
    store.close();
  });

  it('does not count a document whose field corrections were all undone as corrected', () => {
    const store = ProjectStore.create(path.join(dir, 'p.recto'));
    const doc = store.documents.addDocument({ sha256: 'c'.repeat(64), name: 'c.pdf', mediaType: 'application/pdf', bytes: Buffer.from('c'), pages: [{ pageNumber: 1, width: 100, height: 100, dpi: 72, textLayer: null }] })!;
    const pageId = doc.pages[0]!.id;
    store.readings.saveExtraction(pageId, reading(10, '7'), new Date());
    store.fieldRevisions.save(pageId, 'invoice_number', 'RE-8', 'Ana');
    store.fieldRevisions.save(pageId, 'invoice_number', 'RE-9', 'Ana');
    store.fieldRevisions.save(pageId, 'seller', 'Other GmbH', 'Ana');
    expect(store.attention.list()[0]!.corrected).toBe(true);
    store.fieldRevisions.undo(pageId, 'Ana');
    store.fieldRevisions.undo(pageId, 'Ana');
    expect(store.attention.list()[0]!.corrected).toBe(true); // invoice_number is back at RE-8, still a correction
    store.fieldRevisions.undo(pageId, 'Ana');
    expect(store.attention.list()[0]!.corrected).toBe(false);
    store.fieldRevisions.save(pageId, 'invoice_number', null, 'Ana'); // clearing a value is a correction
    expect(store.attention.list()[0]!.corrected).toBe(true);
    store.close();
  });

  it('a page ≠ XML difference is an exception only where the page does not print the XML value; else a reading doubt', () => {
    const store = ProjectStore.create(path.join(dir, 'p.recto'));
    const doc = store.documents.addDocument({ sha256: 'd'.repeat(64), name: 'd.pdf', mediaType: 'application/pdf', bytes: Buffer.from('d'), pages: [{ pageNumber: 1, width: 100, height: 100, dpi: 72, textLayer: null }] })!;
    const pageId = doc.pages[0]!.id;
    const read = reading(10, '7');
    // The page prints the order date beside the issue date and the goods value beside the net amount; the reader
    // took the wrong one of each. Its total (11.90) is printed, the XML's (12.90) nowhere: that one the document says.
    read.markdown = 'Invoice 7\n\nDate 03.01.2024 Order date 02.01.2024\n\nGoods 10.00 Net 9.90\n\nTotal 11.90';
    const xmlValues = { ...read.fields!.invoice as Record<string, unknown>, issue_date: '2024-01-03', subtotal: 9.9, total: 12.9 };
    read.fields = { ...read.fields, invoiceXml: xmlValues };
    store.readings.saveExtraction(pageId, read, new Date());
    const signals = store.attention.list()[0]!.signals;
    expect(signals.filter((s) => s.kind === 'xml-disagreement').map((s) => s.detail)).toEqual(['total: page 11.9 — XML 12.9']);
    expect(signals.filter((s) => s.kind === 'low-confidence').map((s) => s.detail.split(' (')[0])).toEqual(['issue_date: page 2024-01-02 — XML 2024-01-03', 'subtotal: page 10 — XML 9.9']);
    store.close();
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { curationListRequestSchema } from '../../../app/contract/curation.js';
import type { Extraction } from '../../../app/model/extraction.js';
import { ProjectStore } from '../projectStore.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-curation-attention-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** An invoice page: `lineAmount` 10 keeps every rule; another breaks LINE-ARITHMETIC and BR-CO-10; no number is a missing field. */
const reading = (lineAmount: number, invoiceNumber: string | null, words: number[] = [0.99]): Extraction => ({
  markdown: `Invoice ${invoiceNumber ?? ''}\n\nTotal 11.90`,
  // One box, as every engine that grounds its text gives: a reading without any is a signal of its own ('no-boxes').
  elements: [{ id: 'e1', kind: 'text', box: [0, 0, 100, 20], span: [0, 7], confidence: null }],
  page: { width: 100, height: 100 },
  engine: { id: 'bundled', name: 'Bundled', version: '1', packSha256: null, licence: null, provider: 'text-layer', settings: {} },
  stats: { durationMs: 1 },
  warnings: [],
  words: words.map((confidence, i) => ({ text: `w${i}`, box: [0, 0, 10, 10], confidence })),
  fields: {
    invoice: {
      invoice_number: invoiceNumber, issue_date: '2024-01-02', due_date: null, seller: 'Muster GmbH', buyer: 'Beispiel AG', currency: 'EUR',
      subtotal: 10, tax: 1.9, total: 11.9, lines: [{ description: 'Work', quantity: 1, unit_price: 10, amount: lineAmount }],
    },
    invoiceSources: {},
  },
});

function project() {
  const store = ProjectStore.create(path.join(dir, 'p.recto'));
  // clean, low-confidence words only, failed rules + missing number, a corrected page, an approved page with failed rules
  const readings = [reading(10, 'A-1'), reading(10, 'A-2', [0.2, 0.3, 0.99]), reading(12, null), reading(10, 'A-4'), reading(12, 'A-5')];
  const pages = readings.map((extraction, i) => {
    const doc = store.documents.addDocument({ sha256: String(i).repeat(64), name: `doc${i}.pdf`, mediaType: 'application/pdf', bytes: Buffer.from(String(i)), pages: [{ pageNumber: 1, width: 100, height: 100, dpi: 72, textLayer: null }] })!;
    store.readings.saveExtraction(doc.pages[0]!.id, extraction, new Date());
    return doc.pages[0]!.id;
  });
  store.revisions.saveRevision(pages[3]!, 'Invoice A-4 corrected\n\nTotal 11.90', 'Ana', null);
  store.documents.setReviewStatus(pages[4]!, 'approved');
  store.checks.recomputeMissing();
  const list = (request: object) => store.curation.list(curationListRequestSchema.parse({ sort: 'attention', ...request }), () => store.attention.list());
  return { store, pages, list };
}

describe('curation list ordered by needs attention', () => {
  it('puts uncorrected pages first, heaviest signals first, then corrected pages by score', () => {
    const { store, pages, list } = project();
    const result = list({});
    expect(result.total).toBe(5);
    // Failed rules + missing field (weight 3+3+2) before low-confidence words (1); the approved page asks for nothing,
    // then the clean page; the corrected page last.
    expect(result.items.map((item) => item.pageId)).toEqual([pages[2], pages[1], pages[0], pages[4], pages[3]]);
    expect(result.items[0]!.signals.map((signal) => signal.kind)).toContain('missing-field');
    expect(result.items[1]!.signals.map((signal) => signal.kind)).toEqual(['low-confidence']);
    expect(list({ direction: 'desc' }).items.map((item) => item.pageId)).toEqual([pages[3], pages[4], pages[0], pages[1], pages[2]]);
    expect(list({ limit: 2, offset: 1 }).items.map((item) => item.pageId)).toEqual([pages[1], pages[0]]);
    store.close();
  });

  it('narrows to one signal, with any sort, and counts only what matches', () => {
    const { store, pages, list } = project();
    const lowConfidence = list({ signal: 'low-confidence' });
    expect(lowConfidence.total).toBe(1);
    expect(lowConfidence.items.map((item) => item.pageId)).toEqual([pages[1]]);
    const failed = list({ signal: 'failed-rule', sort: 'score' });
    expect(failed.items.map((item) => item.pageId).sort()).toEqual([pages[2], pages[4]].sort());
    expect(list({ signal: 'repetition' })).toEqual({ total: 0, items: [] });
    store.close();
  });

  it('counts a field correction as a correction: the page moves behind the uncorrected ones', () => {
    const { store, pages, list } = project();
    store.fieldRevisions.save(pages[2]!, 'invoice_number', 'A-3', 'Ana');
    const items = list({}).items;
    expect(items.map((item) => item.pageId).slice(0, 3)).toEqual([pages[1], pages[0], pages[4]]);
    const fieldCorrected = items.find((item) => item.pageId === pages[2])!;
    expect(fieldCorrected.corrected).toBe(true);
    expect(fieldCorrected.hasRevision).toBe(false);
    store.close();
  });

  it('keeps the other filters, and gives every page of a column sort its signals', () => {
    const { store, pages, list } = project();
    expect(list({ reviewStatus: ['approved'] }).items.map((item) => item.pageId)).toEqual([pages[4]]);
    const byScore = list({ sort: 'score', limit: 500 });
    expect(byScore.total).toBe(5);
    expect(byScore.items.find((item) => item.pageId === pages[1])!.signals.map((signal) => signal.kind)).toEqual(['low-confidence']);
    store.close();
  });
});

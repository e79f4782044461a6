/**
 * Review decisions leave a project and enter another without loss: an approval with exceptions (who, when, why, over
 * what) or a rejection made in one project is the same decision after `recto merge` and after a corpus export and
 * `recto import-corpus`; a page decided differently on both sides keeps the later decision; a second transfer adds
 * nothing. Crafted event rows are refused in hostileRows.test.ts.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Extraction } from '../../app/model/extraction.js';
import { fakeInspect } from '../../testing/fakes.js';
import { approve, setReviewStatusBy } from '../services/approval.js';
import { PageImageCache } from '../services/pageImageCache.js';
import { ProjectStore } from '../store/projectStore.js';
import { exportCorpus } from './exportCorpus.js';
import { importCorpus } from './importCorpus.js';
import { reviewedInvoiceOf } from './invoicesExport/collectInvoices.js';
import { mergeProjectInto } from './mergeProjects.js';
import { projectPageImages } from './pageImages.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-review-transfer-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const reading = (invoice: Record<string, unknown>): Extraction => ({
  markdown: 'Invoice R-1',
  elements: [{ id: 'e1', kind: 'text', box: [0, 0, 10, 10], span: [0, 7], confidence: 1 }],
  page: { width: 100, height: 100 },
  engine: { id: 'bundled', name: 'Bundled', version: '1', packSha256: null, licence: null, provider: 'text-layer', settings: {} },
  stats: { durationMs: 1 },
  warnings: [],
  fields: {
    invoice: { invoice_number: 'R-1', issue_date: '2024-01-02', seller: 'Muster GmbH', buyer: 'Beispiel AG', currency: 'EUR', subtotal: 10, tax: 1.9, total: 11.9, lines: [{ description: 'Work', quantity: 1, unit_price: 10, amount: 10 }], ...invoice },
    invoiceSources: {},
  },
});

function addInvoice(store: ProjectStore, name: string, invoice: Record<string, unknown>): string {
  const doc = store.documents.addDocument({ sha256: createHash('sha256').update(name).digest('hex'), name, mediaType: 'application/pdf', bytes: Buffer.from(name), pages: [{ pageNumber: 1, width: 100, height: 100, dpi: 72, textLayer: null }] })!;
  store.readings.saveExtraction(doc.pages[0]!.id, reading(invoice), new Date());
  return doc.pages[0]!.id;
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 3));

/** Project A: one invoice approved over its exceptions (a failing total, no number), one rejected with a reason. */
async function decidedProject(file: string) {
  const store = ProjectStore.create(file);
  const approved = addInvoice(store, 'bad.pdf', { total: 99, invoice_number: null });
  const rejected = addInvoice(store, 'other.pdf', { invoice_number: 'Z-9', seller: 'Andere KG' });
  expect(approve(store, { pageId: approved, scope: 'page', reviewer: 'Ada', reason: 'Total confirmed by phone' }).outcome).toBe('approved-with-exceptions');
  setReviewStatusBy(store, rejected, 'in-review', 'Bo');
  await tick();
  store.reviewNotes.reject(rejected, 'Not our order', 'Bo');
  return { store, approved, rejected };
}

/** What a page's decisions look like from outside: the status, and each event's who, when, why and over what. */
function decisions(store: ProjectStore, documentName: string) {
  const doc = store.documents.listDocuments().find((d) => d.name === documentName)!;
  const page = doc.pages[0]!;
  const invoice = reviewedInvoiceOf(store, store.documents.getDocument(doc.id))!;
  return {
    status: page.reviewStatus,
    // Where an event came from, its seal and its row id are this project's own; the decision is what travels.
    events: store.reviewEvents.ofPage(page.id).map(({ pageId: _p, id: _i, sealed: _s, origin: _o, osAccount: _a, ...e }) => e),
    exported: { status: invoice.status, reviewer: invoice.reviewer, reviewedAt: invoice.reviewedAt, reason: invoice.exceptionReason, exceptions: invoice.exceptions },
  };
}

describe('review decisions through a merge', () => {
  it('an approval with exceptions and a rejection arrive with the same status, who, when, why; a second merge adds nothing', async () => {
    const a = await decidedProject(path.join(dir, 'a.recto'));
    const expected = { bad: decisions(a.store, 'bad.pdf'), other: decisions(a.store, 'other.pdf') };
    expect(expected.bad.exported).toMatchObject({ status: 'approved-with-exceptions', reviewer: 'Ada', reason: 'Total confirmed by phone' });
    expect(expected.bad.events[0]!.exceptions.length).toBeGreaterThan(0);
    expect(expected.other.events.map((e) => [e.status, e.reason])).toEqual([['in-review', null], ['rejected', 'Not our order']]);
    a.store.close();

    const b = ProjectStore.create(path.join(dir, 'b.recto'));
    try {
      const summary = mergeProjectInto(b, path.join(dir, 'a.recto'));
      expect(summary.reviewEventsAdded).toBe(3);
      expect(decisions(b, 'bad.pdf')).toEqual(expected.bad);
      expect(decisions(b, 'other.pdf')).toEqual(expected.other);
      expect(mergeProjectInto(b, path.join(dir, 'a.recto')).reviewEventsAdded).toBe(0);
      expect(decisions(b, 'bad.pdf')).toEqual(expected.bad);
    } finally {
      b.close();
    }
  });

  it('a page decided differently on both sides keeps the decision taken here, both decisions in its history, the page flagged', async () => {
    const a = await decidedProject(path.join(dir, 'a.recto'));
    a.store.close();
    // B has the same invoice, rejected by Cy (from another project, merged first into the empty B: adopted).
    const b = ProjectStore.create(path.join(dir, 'b.recto'));
    const early = ProjectStore.create(path.join(dir, 'early.recto'));
    const earlyPage = addInvoice(early, 'bad.pdf', { total: 99, invoice_number: null });
    setReviewStatusBy(early, earlyPage, 'rejected', 'Cy');
    early.close();
    try {
      expect(mergeProjectInto(b, path.join(dir, 'early.recto'))).toMatchObject({ decisionsAdopted: 1, decisionConflicts: 0 });
      await tick();
      const summary = mergeProjectInto(b, path.join(dir, 'a.recto'));
      expect(summary).toMatchObject({ reviewConflicts: 1, decisionConflicts: 1 });
      const after = decisions(b, 'bad.pdf');
      expect(after.status).toBe('rejected');
      expect(after.events.map((e) => [e.status, e.reviewer])).toEqual([['approved-with-exceptions', 'Ada'], ['rejected', 'Cy']]);
      expect(after.exported).toMatchObject({ status: 'rejected', reviewer: 'Cy' });
      const page = b.documents.listDocuments().find((d) => d.name === 'bad.pdf')!.pages[0]!.id;
      expect(b.reviewEvents.conflictsOf(page).map((e) => e.reviewer)).toEqual(['Ada']);

      // A person here decides: the flag clears, and merging again changes nothing.
      await tick();
      setReviewStatusBy(b, page, 'rejected', 'Cy');
      expect(b.reviewEvents.conflictsOf(page)).toEqual([]);
      mergeProjectInto(b, path.join(dir, 'a.recto'));
      expect(decisions(b, 'bad.pdf')).toMatchObject({ status: 'rejected', exported: { status: 'rejected', reviewer: 'Cy' } });
      expect(b.reviewEvents.conflictsOf(page)).toEqual([]);
    } finally {
      b.close();
    }
  });
});

describe('review decisions through a corpus', () => {
  it('export then import-corpus gives the same status, who, when, why; a second import adds nothing', async () => {
    const a = await decidedProject(path.join(dir, 'a.recto'));
    const expected = { bad: decisions(a.store, 'bad.pdf'), other: decisions(a.store, 'other.pdf') };
    const out = path.join(dir, 'corpus');
    await exportCorpus(a.store, { outDir: out, images: 'none', pageImage: projectPageImages(a.store, new PageImageCache(path.join(dir, 'cache'), fakeInspect)) });
    a.store.close();
    const record = fs.readFileSync(path.join(out, 'records.jsonl'), 'utf8').split('\n').map((l) => (l ? (JSON.parse(l) as { review_events: unknown[] }) : null));
    expect(record.filter(Boolean).map((r) => r!.review_events.length).sort()).toEqual([1, 2]);

    const c = ProjectStore.create(path.join(dir, 'c.recto'));
    try {
      const summary = importCorpus(c, out);
      expect(summary.problems).toEqual([]);
      expect(summary.reviewEventsAdded).toBe(3);
      expect(decisions(c, 'bad.pdf')).toEqual(expected.bad);
      expect(decisions(c, 'other.pdf')).toEqual(expected.other);
      expect(importCorpus(c, out).reviewEventsAdded).toBe(0);
    } finally {
      c.close();
    }
  });
});

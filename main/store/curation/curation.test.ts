import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { curationListRequestSchema } from '../../../app/contract/curation.js';
import { correctPage, fillProject, fixtureExtraction, invoicePage } from '../../../testing/corpusFixtures.js';
import { ProjectStore } from '../projectStore.js';
import { attributeChanges } from '../../../app/curation/attributeChanges.js';
import { rawDatabase } from '../../../testing/rawDatabase.js';

let dir: string;
let store: ProjectStore;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-curation-'));
  store = ProjectStore.create(path.join(dir, 'p.recto'));
});
afterEach(() => {
  store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('attributeChanges', () => {
  it('charges a corrected cell to the table and a deleted header to the header', () => {
    const page = invoicePage(1);
    const table = attributeChanges(page.markdown, correctPage(page.markdown, ['table']), page.elements);
    const changed = Object.fromEntries(table.kinds.map((k) => [k.kind, k.changedChars]));
    expect(changed.table).toBeGreaterThan(0);
    expect(changed.text).toBe(0);
    const header = attributeChanges(page.markdown, correctPage(page.markdown, ['header']), page.elements);
    const headerKind = header.kinds.find((k) => k.kind === 'header')!;
    expect(headerKind.changedChars).toBe(headerKind.chars);
    expect(header.kinds.find((k) => k.kind === 'table')!.changedChars).toBe(0);
  });

  it('reports no change for identical texts', () => {
    const page = invoicePage(2);
    const same = attributeChanges(page.markdown, page.markdown, page.elements);
    expect(same.changedChars).toBe(0);
    expect(same.kinds.every((k) => k.changedChars === 0)).toBe(true);
  });
});

describe('page checks in the store', () => {
  it('scores a page when it is read and rescores it in the transaction of each revision', () => {
    const [pageId] = fillProject(store, [{ name: 'a.pdf', pages: 1 }]);
    const read = store.checks.get(pageId!)!;
    expect(read.revisionId).toBeNull();
    expect(read.scores.text).toBe(1);
    expect(read.scores.tables).toBe(1);
    const page = invoicePage(0);
    const revision = store.revisions.saveRevision(pageId!, correctPage(page.markdown, ['table', 'formula']), 'Ana', null);
    const checked = store.checks.get(pageId!)!;
    expect(checked.revisionId).toBe(revision.id);
    expect(checked.scores.tables).toBeLessThan(1);
    expect(checked.scores.formulas).toBeLessThan(1);
    expect(checked.scores.score).toBeLessThan(read.scores.score);
    expect(checked.changedKinds.find((k) => k.kind === 'table')!.changedChars).toBeGreaterThan(0);
    expect(checked.changedKinds.find((k) => k.kind === 'formula')!.changedChars).toBeGreaterThan(0);
    // Back to the engine's text: a perfect score again.
    store.revisions.saveRevision(pageId!, page.markdown, 'Ana', revision.id);
    expect(store.checks.get(pageId!)!.scores.score).toBe(1);
  });

  it('rescores a corrected page when a new extraction arrives', () => {
    const [pageId] = fillProject(store, [{ name: 'a.pdf', pages: 1, corrections: { 0: ['table'] } }]);
    expect(store.checks.get(pageId!)!.scores.score).toBeLessThan(1);
    const corrected = store.revisions.latestRevision(pageId!)!.text;
    store.readings.saveExtraction(pageId!, fixtureExtraction({ markdown: corrected, elements: invoicePage(0).elements }), new Date());
    const reread = store.checks.get(pageId!)!;
    expect(reread.extractionId).toBe(rawDatabase(store).prepare('SELECT id FROM extractions WHERE page_id = ? ORDER BY rowid DESC').pluck().get(pageId));
    expect(reread.scores.score).toBe(1);
  });

  it('gives check rows to pages of projects read before the checks existed', () => {
    const ids = fillProject(store, [{ name: 'a.pdf', pages: 2, corrections: { 0: ['text'] } }]);
    rawDatabase(store).exec('DELETE FROM page_checks');
    expect(store.checks.get(ids[0]!)).toBeNull();
    expect(store.checks.recomputeMissing()).toBe(2);
    expect(store.checks.get(ids[0]!)!.scores.text).toBeLessThan(1);
  });
});

describe('curation queries', () => {
  it('sorts worst first, filters by status, engine, kind and document, and pages through', () => {
    const ids = fillProject(store, [
      { name: 'a.pdf', pages: 4, corrections: { 0: ['table'], 1: ['text'], 2: ['header', 'table', 'text'] } },
      { name: 'b.pdf', pages: 2, engineId: 'other', corrections: { 1: ['formula'] } },
    ]);
    store.documents.setReviewStatus(ids[2]!, 'approved');
    const list = (request: object) => store.curation.list(curationListRequestSchema.parse(request));

    const all = list({});
    expect(all.total).toBe(6);
    const scores = all.items.map((i) => i.scores.score);
    expect(scores).toEqual([...scores].sort((a, b) => a - b));
    // A missed formula weighs most (formula term 0.5), then the page corrected in three kinds.
    expect(all.items.slice(0, 2).map((i) => i.pageId)).toEqual([ids[5], ids[2]]);
    expect(all.items[1]!.changedKinds.map((k) => k.kind)).toEqual(expect.arrayContaining(['header', 'table', 'text']));

    expect(list({ direction: 'desc' }).items[0]!.scores.score).toBe(1);
    expect(list({ reviewStatus: ['approved'] }).items.map((i) => i.pageId)).toEqual([ids[2]]);
    expect(list({ engine: 'other' }).total).toBe(2);
    const tablesChanged = list({ elementKind: 'table', elementKindChanged: true });
    expect(tablesChanged.items.map((i) => i.pageId).sort()).toEqual([ids[0], ids[2]].sort());
    expect(tablesChanged.total).toBe(2);
    expect(list({ elementKind: 'formula', engine: 'other' }).total).toBe(2);
    expect(list({ elementKind: 'formula', elementKindChanged: true, reviewStatus: ['approved'] }).total).toBe(0);
    expect(list({ correctedOnly: true }).total).toBe(4);
    const documentId = store.documents.getPage(ids[4]!).documentId;
    expect(list({ documentId }).items.map((i) => i.pageNumber).sort()).toEqual([1, 2]);
    const page1 = list({ limit: 4 });
    const page2 = list({ limit: 4, offset: 4 });
    expect(page2.items).toHaveLength(2);
    expect(new Set([...page1.items, ...page2.items].map((i) => i.pageId)).size).toBe(6);
    // Sorting by a check that applies only to some pages lists those pages.
    const byFormula = list({ sort: 'formulas' });
    expect(byFormula.items[0]!.pageId).toBe(ids[5]);
  });

  it('filters by a combined score range, alone and with other filters and sorts', () => {
    const ids = fillProject(store, [
      { name: 'a.pdf', pages: 5, corrections: { 0: ['table'], 1: ['formula'], 2: ['header', 'table', 'text'], 3: ['text'] } },
      { name: 'b.pdf', pages: 2, engineId: 'other', corrections: { 0: ['formula', 'table'] } },
    ]);
    store.documents.setReviewStatus(ids[2]!, 'approved');
    const list = (request: object) => store.curation.list(curationListRequestSchema.parse({ limit: 500, ...request }));
    const scores = new Map(list({}).items.map((i) => [i.pageId, i.scores.score]));
    const within = (min: number, max: number) => [...scores].filter(([, s]) => s >= min && s <= max).map(([id]) => id).sort();
    const [low, high] = [0.3, 0.95];
    expect(within(low, high).length).toBeGreaterThan(0);
    expect(within(low, high).length).toBeLessThan(scores.size);
    for (const sort of ['score', 'text', 'changedChars'] as const) {
      const ranged = list({ sort, minScore: low, maxScore: high });
      expect(ranged.items.map((i) => i.pageId).sort()).toEqual(within(low, high));
      expect(ranged.total).toBe(within(low, high).length);
    }
    // Both ends inclusive.
    const exact = scores.get(ids[0]!)!;
    expect(list({ minScore: exact, maxScore: exact }).items.map((i) => i.pageId)).toContain(ids[0]);
    expect(list({ maxScore: 0.999999 }).total).toBe([...scores.values()].filter((s) => s <= 0.999999).length);
    expect(list({ minScore: low, reviewStatus: ['approved'] }).total).toBe(scores.get(ids[2]!)! >= low ? 1 : 0);
    expect(list({ minScore: 0, maxScore: 1 }).total).toBe(scores.size);
    expect(() => curationListRequestSchema.parse({ minScore: 0.8, maxScore: 0.2 })).toThrow(/minScore must not be above maxScore/);
    expect(() => curationListRequestSchema.parse({ minScore: 1.5 })).toThrow();
  });

  it('summarises scores, errors by element kind and corrections over time', () => {
    fillProject(store, [{ name: 'a.pdf', pages: 5, corrections: { 0: ['table'], 1: ['table', 'text'], 3: ['header'] } }]);
    const summary = store.curation.summarize({});
    expect(summary.pages).toBe(5);
    expect(summary.correctedPages).toBe(3);
    // Only the corrected pages are scored: the two nobody corrected are in neither the histogram nor the mean.
    expect(summary.scoreHistogram.reduce((sum, b) => sum + b.count, 0)).toBe(3);
    const corrected = store.curation.list(curationListRequestSchema.parse({ limit: 500 })).items.filter((item) => item.hasRevision);
    expect(summary.meanScore).toBeCloseTo(corrected.reduce((sum, item) => sum + item.scores.score, 0) / corrected.length, 5);
    expect(store.curation.summarize({}, { source: 'pages' })).toMatchObject({ meanScore: expect.closeTo(summary.meanScore!, 5), scoreHistogram: summary.scoreHistogram });
    const table = summary.errorsByKind.find((k) => k.kind === 'table')!;
    expect(table).toMatchObject({ pages: 5, pagesChanged: 2 });
    expect(table.changeRate).toBeGreaterThan(0);
    expect(summary.errorsByKind.find((k) => k.kind === 'formula')!.pagesChanged).toBe(0);
    expect(summary.correctionsOverTime).toHaveLength(1);
    expect(summary.correctionsOverTime[0]!.pages).toBe(3);
    expect(store.curation.summarize({ reviewStatus: ['approved'] }).pages).toBe(0);
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { curationListRequestSchema, curationSummarySchema, type CurationFilter, type CurationSummary } from '../../../app/contract/curation.js';
import { elementKinds } from '../../../app/model/extraction.js';
import { correctPage, fillProject, fixtureExtraction, invoicePage, type CorrectionKind } from '../../../testing/corpusFixtures.js';
import { ProjectStore } from '../projectStore.js';
import { attributeChanges } from '../../../app/curation/attributeChanges.js';
import { changeRateOf } from './curationSummary.js';
import { rawDatabase } from '../../../testing/rawDatabase.js';

let dir: string;
let store: ProjectStore;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-summary-'));
  store = ProjectStore.create(path.join(dir, 'p.recto'));
});
afterEach(() => {
  store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Rollup means are sums of scores rounded to 1e-6 over counts; scan means are AVG: equal to ~1e-9. */
function expectSameSummary(fromRollups: CurationSummary, fromPages: CurationSummary): void {
  const round = (summary: CurationSummary) =>
    JSON.parse(JSON.stringify(summary, (_key, value: unknown) => (typeof value === 'number' ? Number(value.toFixed(8)) : value))) as unknown;
  expect(round(fromRollups)).toEqual(round(fromPages));
}

const filters: CurationFilter[] = [
  // Every kind, present and changed, alone and with the other dimensions.
  ...elementKinds.flatMap((elementKind): CurationFilter[] => [
    { elementKind },
    { elementKind, elementKindChanged: true },
    { elementKind, elementKindChanged: true, correctedOnly: true, reviewStatus: ['unreviewed', 'in-review'] },
  ]),
  {},
  { reviewStatus: ['approved'] },
  { reviewStatus: ['unreviewed', 'rejected'] },
  { engine: 'other' },
  { correctedOnly: true },
  { engine: 'fixture', correctedOnly: true, reviewStatus: ['in-review', 'approved'] },
  { elementKind: 'table' },
  { elementKind: 'table', elementKindChanged: true },
  { elementKind: 'header', elementKindChanged: true, correctedOnly: true },
  { elementKind: 'formula', engine: 'other' },
  { elementKind: 'other' },
];

describe('curation summary from the maintained aggregates', () => {
  it('equals the summary aggregated from the pages after saves, re-reads, status changes and deletions', () => {
    const kinds: CorrectionKind[][] = [['table'], ['text', 'header'], ['formula'], ['order', 'table'], ['header']];
    const corrections = (offset: number) => Object.fromEntries([0, 2, 3, 5].map((i) => [i, kinds[(i + offset) % kinds.length]!]));
    const ids = fillProject(store, [
      { name: 'a.pdf', pages: 7, corrections: corrections(0) },
      { name: 'b.pdf', pages: 5, engineId: 'other', corrections: corrections(2) },
      { name: 'c.pdf', pages: 4, corrections: corrections(4) },
    ]);
    const compare = (label: string) => {
      for (const filter of filters) {
        const fromRollups = store.curation.summarize(filter);
        expect(() => curationSummarySchema.parse(fromRollups), label).not.toThrow();
        expectSameSummary(fromRollups, store.curation.summarize(filter, { source: 'pages' }));
        // The list's total is read from the rollups too.
        expect(store.curation.list(curationListRequestSchema.parse(filter)).total, `${label} ${JSON.stringify(filter)}`).toBe(
          fromRollups.pages,
        );
      }
    };
    compare('filled');

    // More revisions: changed kinds come and go, a page goes back to the engine's text.
    store.revisions.saveRevision(ids[1]!, correctPage(invoicePage(1).markdown, ['table', 'formula']), 'Ben', null);
    store.revisions.saveRevision(ids[0]!, correctPage(invoicePage(0).markdown, ['text']), 'Ben', null);
    store.revisions.saveRevision(ids[2]!, invoicePage(2).markdown, 'Ben', null);
    store.revisions.saveRevision(ids[8]!, `${invoicePage(101).markdown}\n\nA paragraph the engine missed entirely.`, 'Ben', null);
    compare('revised');

    // Saves on later days: pages move from one day of the corrections-over-time chart to another.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date('2030-01-02T10:00:00Z'));
      store.revisions.saveRevision(ids[0]!, correctPage(invoicePage(0).markdown, ['formula']), 'Cy', null);
      store.revisions.saveRevision(ids[5]!, correctPage(invoicePage(5).markdown, ['table']), 'Cy', null);
      vi.setSystemTime(new Date('2030-01-03T10:00:00Z'));
      store.revisions.saveRevision(ids[0]!, correctPage(invoicePage(0).markdown, ['formula', 'text']), 'Cy', null);
    } finally {
      vi.useRealTimers();
    }
    expect(store.curation.summarize({}).correctionsOverTime.map((d) => d.day)).toEqual(
      expect.arrayContaining(['2030-01-02', '2030-01-03']),
    );
    compare('later days');

    // Review statuses move pages between cells (by the trigger that mirrors them).
    for (const [i, status] of [[0, 'approved'], [3, 'rejected'], [8, 'in-review'], [9, 'approved'], [0, 'in-review']] as const) {
      store.documents.setReviewStatus(ids[i]!, status);
    }
    compare('statuses');

    // A new reading by another engine, of a corrected and of an uncorrected page.
    store.readings.saveExtraction(ids[3]!, fixtureExtraction(invoicePage(3), 'other'), new Date());
    store.readings.saveExtraction(ids[4]!, fixtureExtraction(invoicePage(4), 'other'), new Date());
    compare('re-read');

    // A document removed: its pages' checks and kinds leave the rollups (cascades).
    rawDatabase(store).prepare('DELETE FROM documents WHERE id = ?').run(store.documents.getPage(ids[12]!).documentId);
    compare('deleted');
    expect(store.curation.summarize({}).pages).toBe(12);

    // Every page's checks recomputed from nothing (a project migrated to this schema): the same figures.
    const before = store.curation.summarize({});
    rawDatabase(store).exec('DELETE FROM page_checks');
    expect(store.curation.summarize({}).pages).toBe(0);
    expect(rawDatabase(store).prepare('SELECT COALESCE(SUM(pages), 0) FROM curation_rollup_kinds').pluck().get()).toBe(0);
    store.checks.recomputeMissing();
    expectSameSummary(store.curation.summarize({}), before);
  });

  it('answers one document from its pages', () => {
    const ids = fillProject(store, [
      { name: 'a.pdf', pages: 4, corrections: { 0: ['table'], 1: ['formula'], 2: ['header', 'table', 'text'] } },
      { name: 'b.pdf', pages: 3, corrections: { 0: ['text'] } },
    ]);
    const documentId = store.documents.getPage(ids[5]!).documentId;
    const one = store.curation.summarize({ documentId });
    expect(one).toMatchObject({ pages: 3, correctedPages: 1 });
    expect(one.errorsByKind.find((k) => k.kind === 'text')!.pagesChanged).toBe(1);
    expect(store.curation.summarize({ documentId, correctedOnly: true }).pages).toBe(1);
  });
});

describe('errors by kind: the change rate', () => {
  it('is a share in [0, 1] however much is removed or inserted', () => {
    const page = invoicePage(3);
    const edits = [
      '', // everything deleted
      'Completely different text, much longer than what the engine read, so insertions dominate the page. '.repeat(20),
      page.markdown.replace('<table>', 'Prefix text the engine missed <table>'),
      page.markdown.split('\n\n').reverse().join('\n\n'),
      page.markdown.replaceAll('\n\n', ' '), // the blank lines between elements removed: "other" text
      page.markdown.replace(/\d/g, '#'),
    ];
    for (const corrected of edits) {
      const { kinds } = attributeChanges(page.markdown, corrected, page.elements);
      for (const kind of kinds) {
        // Removed characters never exceed the kind's own text, so the rate needs no clamping.
        expect(kind.changedChars - kind.insertedChars, `${kind.kind} in ${corrected.slice(0, 30)}`).toBeLessThanOrEqual(kind.chars);
        const rate = changeRateOf(kind);
        expect(rate).toBeGreaterThanOrEqual(0);
        expect(rate).toBeLessThanOrEqual(1);
      }
    }
    // The whole text replaced by a longer one: every kind fully changed.
    const rewritten = attributeChanges(page.markdown, edits[1]!, page.elements);
    expect(rewritten.kinds.filter((k) => k.chars > 0).every((k) => changeRateOf(k) === 1 || k.kind === 'other')).toBe(true);
  });

  it('is changed / (chars + inserted) in the summary, 1 for text that was entirely missed', () => {
    const [pageId] = fillProject(store, [{ name: 'a.pdf', pages: 1 }]);
    const page = invoicePage(0);
    store.revisions.saveRevision(pageId!, `${page.markdown}\n\n${'A long paragraph the engine never read. '.repeat(10)}`, 'Ana', null);
    const summary = store.curation.summarize({});
    for (const kind of summary.errorsByKind) {
      expect(kind.changeRate).toBeCloseTo(kind.changedChars / (kind.chars + kind.insertedChars || 1), 12);
    }
    // The insertion lands after the footer, the last element: charged to it, and far more than its own text.
    const footer = summary.errorsByKind.find((k) => k.kind === 'footer')!;
    expect(footer.insertedChars).toBeGreaterThan(footer.chars);
    expect(footer.changeRate).toBeGreaterThan(0.8);
    expect(footer.changeRate).toBeLessThanOrEqual(1);
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { invoiceReading as reading } from '../../../testing/invoiceReadings.js';
import { rawDatabase } from '../../../testing/rawDatabase.js';
import { bundleFieldRevisionProblem, FieldRevisionBundleError } from './applyFieldRevisions.js';
import type { BundleFieldRevision } from './pageBundles.js';
import { ProjectStore } from '../projectStore.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-field-bundles-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A two-page invoice: number and date on page 1, the total on page 2. Returns the page ids. */
function invoiceProject(file: string): { store: ProjectStore; pages: [string, string] } {
  const store = ProjectStore.create(path.join(dir, file));
  const doc = store.documents.addDocument({
    sha256: 'd'.repeat(64),
    name: 'invoice.pdf',
    mediaType: 'application/pdf',
    bytes: Buffer.from('%PDF'),
    pages: [1, 2].map((pageNumber) => ({ pageNumber, width: 100, height: 100, dpi: 72, textLayer: null })),
  })!;
  const [first, second] = doc.pages.map((p) => p.id) as [string, string];
  store.readings.saveExtraction(first, reading({ invoice_number: '7', issue_date: '2024-01-02', currency: 'EUR', lines: [] }), new Date());
  store.readings.saveExtraction(second, reading({ total: 11.9, lines: [{ description: 'Work', quantity: 1, unit_price: 10, amount: 10 }] }), new Date());
  return { store, pages: [first, second] };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

/** Copies every page of `from` into `to` as a merge does. */
function carry(from: ProjectStore, to: ProjectStore, pageIds?: string[]) {
  const reader = from.bundles();
  const writer = to.bundleWriter();
  return (pageIds ?? reader.pageIds()).map((id) => writer.apply(reader.read(id, { allRuns: true }), null));
}

describe('field revisions in page bundles', () => {
  it('every page of a document carries its field revisions; applying them twice adds them once', () => {
    const a = invoiceProject('a.recto');
    a.store.fieldRevisions.save(a.pages[1], 'total', 12.9, 'Ana');
    a.store.fieldRevisions.save(a.pages[0], 'invoice_number', '7A', 'Ana');
    const reader = a.store.bundles();
    expect(reader.read(a.pages[1], { allRuns: false }).fieldRevisions.map((r) => r.field)).toEqual(['total', 'invoice_number']);
    expect(reader.read(a.pages[0], { allRuns: false }).fieldRevisions).toEqual(reader.read(a.pages[1], { allRuns: false }).fieldRevisions);

    const b = ProjectStore.create(path.join(dir, 'b.recto'));
    const outcomes = carry(a.store, b);
    expect(outcomes.map((o) => o.fieldRevisionsAdded)).toEqual([2, 0]);
    expect(b.fieldRevisions.list(a.pages[1])).toEqual(a.store.fieldRevisions.list(a.pages[1]));
    expect(b.fieldRevisions.currentValues(a.pages[0])).toEqual(a.store.fieldRevisions.currentValues(a.pages[0]));
    expect(b.fieldRevisions.stats()).toEqual({ pages: 1, revisions: 2 });
    a.store.close();
    b.close();
  });

  it('a document whose later page arrived first gets its revisions moved to its first page when that comes', () => {
    const a = invoiceProject('a.recto');
    a.store.fieldRevisions.save(a.pages[0], 'total', 12.9, 'Ana');
    const b = ProjectStore.create(path.join(dir, 'b.recto'));
    carry(a.store, b, [a.pages[1]]);
    // Only page 2 is here: it is the document's first page in this project, and holds the revision.
    expect(b.fieldRevisions.list(a.pages[1]).map((r) => r.newValue)).toEqual([12.9]);
    carry(a.store, b, [a.pages[0]]);
    expect(rawDatabase(b).prepare('SELECT page_id FROM field_revisions').pluck().all()).toEqual([a.pages[0]]);
    expect(b.fieldRevisions.list(a.pages[1])).toEqual(a.store.fieldRevisions.list(a.pages[0]));
    a.store.close();
    b.close();
  });

  it('a field corrected on both sides: both kept in time order, the later shows, counted as a conflict', async () => {
    const a = invoiceProject('a.recto');
    const otherFile = path.join(dir, 'b.recto');
    a.store.copyTo(otherFile);
    const b = ProjectStore.open(otherFile);
    const ours = a.store.fieldRevisions.save(a.pages[0], 'total', 12, 'Ana');
    await tick();
    const theirs = b.fieldRevisions.save(a.pages[0], 'total', 13, 'Ben');
    const theirDate = b.fieldRevisions.save(a.pages[0], 'issue_date', '2024-01-03', 'Ben');

    const [outcome] = carry(b, a.store, [a.pages[0]]);
    expect(outcome).toMatchObject({ fieldRevisionsAdded: 2, fieldConflicts: 1 });
    expect(a.store.fieldRevisions.list(a.pages[0]).map((r) => r.id)).toEqual([ours.id, theirs.id, theirDate.id]);
    expect(a.store.fieldRevisions.currentValues(a.pages[0])).toMatchObject({ total: 13, issue_date: '2024-01-03' });
    // Each side's revision keeps its own history: Ben's parent is none (his first correction of the total).
    expect(a.store.fieldRevisions.list(a.pages[0])[1]).toMatchObject({ author: 'Ben', parentId: null, oldValue: 11.9 });
    // Undo takes back the newest, whichever side saved it; undoing the later total shows the earlier side's.
    expect(a.store.fieldRevisions.undo(a.pages[0], 'Ana')!.undoes).toBe(theirDate.id);
    expect(a.store.fieldRevisions.undo(a.pages[0], 'Ana')!.undoes).toBe(theirs.id);
    expect(a.store.fieldRevisions.currentValues(a.pages[0])).toMatchObject({ total: 12, issue_date: '2024-01-02' });

    // The other way round, the same values show (the later correction wins on either side).
    const [back] = carry(a.store, b, [a.pages[0]]);
    // Not a conflict now: this side already has every correction the other made.
    expect(back).toMatchObject({ fieldRevisionsAdded: 3, fieldConflicts: 0 });
    expect(b.fieldRevisions.currentValues(a.pages[0])).toEqual(a.store.fieldRevisions.currentValues(a.pages[0]));
    a.store.close();
    b.close();
  });

  it('refuses a malformed field revision and writes nothing of its bundle', () => {
    const a = invoiceProject('a.recto');
    a.store.fieldRevisions.save(a.pages[0], 'total', 12.9, 'Ana');
    rawDatabase(a.store).prepare(`UPDATE field_revisions SET new_value = '"twelve"'`).run();
    const b = ProjectStore.create(path.join(dir, 'b.recto'));
    expect(() => carry(a.store, b, [a.pages[0]])).toThrow(FieldRevisionBundleError);
    expect(() => carry(a.store, b, [a.pages[0]])).toThrow(/total holds a number, not "twelve"/);
    expect(rawDatabase(b).prepare('SELECT COUNT(*) FROM pages').pluck().get()).toBe(0);
    a.store.close();
    b.close();
  });
});

describe('bundleFieldRevisionProblem', () => {
  const revision = (change: Partial<BundleFieldRevision>): BundleFieldRevision => ({
    id: 'r1', parentId: null, field: 'total', oldValueJson: '11.9', newValueJson: '12.9', undoes: null, author: 'Ana',
    createdAt: '2024-01-01T00:00:00.000Z', ...change,
  });
  it.each([
    [{}, null],
    [{ newValueJson: null }, null],
    [{ newValueJson: 'null' }, null],
    [{ field: 'lines.3.description', oldValueJson: '""', newValueJson: '"Work"' }, null],
    [{ field: 'totl' }, /"totl" is not an invoice field/],
    [{ field: 'lines.1000.amount' }, /not an invoice field/],
    [{ newValueJson: '"12.9"' }, /new value: total holds a number/],
    [{ field: 'issue_date', oldValueJson: 'null', newValueJson: '20240101' }, /issue_date holds text/],
    [{ oldValueJson: '{' }, /old value is not JSON/],
    [{ author: '' }, /author and time are required/],
  ])('%j', (change, expected) => {
    const problem = bundleFieldRevisionProblem(revision(change as Partial<BundleFieldRevision>));
    if (expected === null) expect(problem).toBeNull();
    else expect(problem).toMatch(expected);
  });
});

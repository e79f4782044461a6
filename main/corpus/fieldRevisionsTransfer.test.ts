/**
 * Invoice field corrections leave a project and enter another without loss: through a corpus (export, then
 * import-corpus) and through a project merge — with their history, the merge's conflict policy, and bad input refused
 * before a row is written.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Extraction } from '../../app/model/extraction.js';
import { dropTablesAfterVersion, rawDatabase } from '../../testing/rawDatabase.js';
import { migrations } from '../store/migrations/index.js';
import { ProjectFileError, ProjectStore } from '../store/projectStore.js';
import { corpusRecordSchema, parseCorpusRecordLine, unrecordedFieldAuthor } from './corpusRecord.js';
import { exportCorpus } from './exportCorpus.js';
import { CorpusImportError, importCorpus } from './importCorpus.js';
import { mergeProjectInto } from './mergeProjects.js';

let dir: string;
let store: ProjectStore;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-field-transfer-'));
  store = ProjectStore.create(path.join(dir, 'p.recto'));
});
afterEach(() => {
  store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const reading = (markdown: string, invoice: Record<string, unknown> | null): Extraction => ({
  markdown,
  elements: [{ id: 'e1', kind: 'text', box: [0, 0, 10, 10], span: [0, Math.min(5, markdown.length)], confidence: 1 }],
  page: { width: 100, height: 100 },
  engine: { id: 'bundled', name: 'Bundled', version: '1', packSha256: null, licence: null, provider: 'text-layer', settings: {} },
  stats: { durationMs: 1 },
  warnings: [],
  ...(invoice ? { fields: { invoice, invoiceSources: {} } } : {}),
});

/** Adds a document whose pages carry the given invoice fields (null: not an invoice page); returns its page ids. */
function addDocument(target: ProjectStore, name: string, pages: (Record<string, unknown> | null)[]): string[] {
  const doc = target.documents.addDocument({
    sha256: createHash('sha256').update(name).digest('hex'),
    name,
    mediaType: 'application/pdf',
    bytes: Buffer.from(name),
    pages: pages.map((_, i) => ({ pageNumber: i + 1, width: 100, height: 100, dpi: 72, textLayer: null })),
  })!;
  doc.pages.forEach((page, i) => target.readings.saveExtraction(page.id, reading(`${name} page ${i + 1}`, pages[i]!), new Date()));
  return doc.pages.map((p) => p.id);
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 3));

/** Two invoices (one of two pages) and a letter, with field corrections of every sort: chains, a clear, an undo. */
async function correctedProject(target: ProjectStore) {
  const long = addDocument(target, 'long.pdf', [
    { invoice_number: 'R-1', issue_date: '2024-03-01', seller: 'Muster GmbH', currency: 'EUR', lines: [{ description: 'Work', quantity: 2, unit_price: 5, amount: 10 }] },
    { subtotal: 10, tax: 1.9, total: 11.9, lines: [{ description: 'Travel', quantity: 1, unit_price: 3, amount: 3 }] },
  ]);
  const short = addDocument(target, 'short.pdf', [{ invoice_number: '7', total: 5, lines: [] }]);
  addDocument(target, 'letter.pdf', [null]);
  const f = target.fieldRevisions;
  f.save(long[1]!, 'total', 12.9, 'Ana');
  await tick();
  f.save(long[0]!, 'total', 14.9, 'Ben');
  f.save(long[0]!, 'lines.1.amount', 4, 'Ana');
  f.save(long[0]!, 'lines.2.description', 'Parking', 'Ana');
  f.save(long[0]!, 'buyer', 'Beispiel AG', 'Ana');
  f.save(long[0]!, 'due_date', '2024-03-31', 'Ana');
  f.undo(long[0]!, 'Ana');
  f.save(short[0]!, 'invoice_number', null, 'Ben');
  f.save(short[0]!, 'total', 5.5, 'Ben');
  f.undo(short[0]!, 'Ben');
  f.undo(short[0]!, 'Ben');
  return { long, short };
}

const exportTo = (from: ProjectStore, out: string) => exportCorpus(from, { outDir: path.join(dir, out), images: 'none' });
const read = (out: string, file: string) => fs.readFileSync(path.join(dir, out, file), 'utf8');
const recordFields = (out: string) =>
  read(out, 'records.jsonl')
    .trim()
    .split('\n')
    .map((line) => parseCorpusRecordLine(line))
    .map((r) => ({ id: r.id, fields: r.fields, fields_engine: r.fields_engine, field_revisions: r.field_revisions }));
const count = (target: ProjectStore, table: string) => rawDatabase(target).prepare(`SELECT COUNT(*) FROM ${table}`).pluck().get();

/** What `datasets` writes back for ISO date and time strings (typed as dates by Arrow, written by pandas): epoch ms. */
function asDatasetsWritesBack(value: unknown, key = ''): unknown {
  if (typeof value === 'string' && /(_date|_at)$/.test(key) && /^\d{4}-\d{2}-\d{2}/.test(value)) return Date.parse(value);
  if (Array.isArray(value)) return value.map((item) => asDatasetsWritesBack(item, key));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, asDatasetsWritesBack(v, k)]));
  return value;
}

describe('field revisions through export and import-corpus', () => {
  it('imports a corpus written back by datasets, with dates and times as epoch milliseconds', async () => {
    await correctedProject(store);
    await exportTo(store, 'iso');
    const back = path.join(dir, 'datasets-back');
    fs.mkdirSync(back);
    for (const file of ['records.jsonl', 'fields.jsonl']) {
      const lines = read('iso', file).split('\n').filter(Boolean);
      fs.writeFileSync(path.join(back, file), lines.map((line) => `${JSON.stringify(asDatasetsWritesBack(JSON.parse(line)))}\n`).join(''));
    }
    expect(read('datasets-back', 'fields.jsonl')).toMatch(/"issue_date":\d{13}/);
    const copy = ProjectStore.create(path.join(dir, 'copy-back.recto'));
    try {
      const summary = importCorpus(copy, back);
      expect(summary.problems.filter((p) => p.where !== 'manifest.json')).toEqual([]);
      expect(summary.records).toBe(4);
      await exportTo(copy, 'again');
      expect(read('again', 'fields.jsonl')).toBe(read('iso', 'fields.jsonl'));
    } finally {
      copy.close();
    }
  });

  it('round trip: a re-export of the imported corpus has the same fields, fields.jsonl and field revisions', async () => {
    const { long, short } = await correctedProject(store);
    await exportTo(store, 'one');
    expect(recordFields('one').find((r) => r.id.endsWith('_p0002') && r.fields?.total === 14.9)).toBeDefined();

    const copy = ProjectStore.create(path.join(dir, 'copy.recto'));
    try {
      const summary = importCorpus(copy, path.join(dir, 'one'));
      expect(summary.problems).toEqual([]);
      expect(summary).toMatchObject({ records: 4, fieldRevisionsAdded: 11, fieldConflicts: 0 });
      for (const pageId of [long[0]!, short[0]!]) {
        expect(copy.fieldRevisions.list(pageId)).toEqual(store.fieldRevisions.list(pageId));
        expect(copy.fieldRevisions.currentValues(pageId)).toEqual(store.fieldRevisions.currentValues(pageId));
      }
      // Counted in the curation statistics as in the original.
      expect(copy.fieldRevisions.stats()).toEqual(store.fieldRevisions.stats());
      expect(copy.fieldRevisions.stats()).toEqual({ pages: 2, revisions: 11 });
      // The review queue sees the invoice with corrections left as corrected (by its fields alone: nobody edited its
      // text); short.pdf's corrections were all undone, so it counts as uncorrected, here as in the original.
      const corrected = (target: ProjectStore) => target.attention.list().filter((i) => i.corrected).map((i) => i.pageId).sort();
      expect(corrected(copy)).toEqual([long[0]!]);
      expect(corrected(copy)).toEqual(corrected(store));

      await exportTo(copy, 'two');
      expect(read('two', 'fields.jsonl')).toBe(read('one', 'fields.jsonl'));
      expect(recordFields('two')).toEqual(recordFields('one'));
      // The history is live: undo in the copy takes back the newest open correction of the original.
      expect(copy.fieldRevisions.undo(long[0]!, 'Cy')!.field).toBe('buyer');
      // Importing again adds nothing.
      expect(importCorpus(copy, path.join(dir, 'one'))).toMatchObject({ fieldRevisionsAdded: 0, problems: [] });
    } finally {
      copy.close();
    }
  });

  it('a corpus of only the later page of a document still carries the corrections; its first page brings them home', async () => {
    const { long } = await correctedProject(store);
    store.documents.setReviewStatus(long[1]!, 'approved');
    await exportCorpus(store, { outDir: path.join(dir, 'approved'), images: 'none', status: 'approved' });
    await exportTo(store, 'all');
    const copy = ProjectStore.create(path.join(dir, 'copy.recto'));
    try {
      expect(importCorpus(copy, path.join(dir, 'approved'))).toMatchObject({ records: 1, fieldRevisionsAdded: 7 });
      expect(copy.fieldRevisions.list(long[1]!)).toHaveLength(7);
      importCorpus(copy, path.join(dir, 'all'));
      expect(copy.fieldRevisions.list(long[1]!)).toEqual(store.fieldRevisions.list(long[0]!));
      expect(rawDatabase(copy).prepare('SELECT DISTINCT page_id FROM field_revisions WHERE field = ?').pluck().all('buyer')).toEqual([long[0]]);
    } finally {
      copy.close();
    }
  });

  it('an edited fields.jsonl is reported by line; the records, which carry the history, are imported', async () => {
    await correctedProject(store);
    await exportTo(store, 'out');
    const file = path.join(dir, 'out', 'fields.jsonl');
    const lines = fs.readFileSync(file, 'utf8').trim().split('\n');
    const edited = JSON.parse(lines[1]!);
    edited.total = 99;
    lines[1] = JSON.stringify(edited);
    fs.writeFileSync(file, `${lines.join('\n')}\n`);
    const copy = ProjectStore.create(path.join(dir, 'copy.recto'));
    try {
      const summary = importCorpus(copy, path.join(dir, 'out'));
      expect(summary.fieldRevisionsAdded).toBe(11);
      expect(summary.problems).toContainEqual({ where: 'fields.jsonl:2', reason: expect.stringMatching(/differs .*\(total\)/) });
    } finally {
      copy.close();
    }
  });
});

describe('export --since', () => {
  it('takes the pages of a document whose fields were corrected since then', async () => {
    const { short } = await correctedProject(store);
    await tick();
    const since = new Date().toISOString();
    expect((await exportCorpus(store, { outDir: path.join(dir, 'none'), images: 'none', since })).records).toBe(0);
    await tick();
    store.fieldRevisions.save(short[0]!, 'tax', 0.5, 'Ana');
    const summary = await exportCorpus(store, { outDir: path.join(dir, 'some'), images: 'none', since });
    expect(summary.records).toBe(1);
    expect(recordFields('some')[0]!.fields).toMatchObject({ tax: 0.5 });
  });
});

describe('a corpus exported before field revisions were carried', () => {
  it('gets one revision per corrected field from fields vs fields_engine, and re-exports the same fields', async () => {
    await correctedProject(store);
    await exportTo(store, 'new');
    // The same export as the earlier format wrote it: records without field_revisions.
    fs.cpSync(path.join(dir, 'new'), path.join(dir, 'old'), { recursive: true });
    const records = path.join(dir, 'old', 'records.jsonl');
    const lines = fs.readFileSync(records, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    fs.writeFileSync(records, lines.map(({ field_revisions: _, ...rest }) => `${JSON.stringify(rest)}\n`).join(''));

    const copy = ProjectStore.create(path.join(dir, 'copy.recto'));
    try {
      const summary = importCorpus(copy, path.join(dir, 'old'));
      // long.pdf: total, lines.1.amount, lines.2.description, buyer (due_date was undone); short.pdf: nothing left.
      expect(summary).toMatchObject({ fieldRevisionsAdded: 4, fieldConflicts: 0 });
      expect(summary.problems.map((p) => p.where)).toEqual(['records.jsonl']); // edited after export: the manifest says so
      expect(rawDatabase(copy).prepare('SELECT DISTINCT author FROM field_revisions').pluck().all()).toEqual([unrecordedFieldAuthor]);
      await exportTo(copy, 'again');
      expect(read('again', 'fields.jsonl')).toBe(read('new', 'fields.jsonl'));
      const strip = (rows: ReturnType<typeof recordFields>) => rows.map(({ field_revisions: _, ...rest }) => rest);
      expect(strip(recordFields('again'))).toEqual(strip(recordFields('new')));
      expect(importCorpus(copy, path.join(dir, 'old')).fieldRevisionsAdded).toBe(0);
    } finally {
      copy.close();
    }
  });
});

describe('malformed invoice fields in a corpus refuse the import and write nothing', () => {
  /** Rewrites one line of a file of the export with `edit`. */
  function editLine(out: string, file: string, pick: (line: Record<string, unknown>) => boolean, edit: (line: Record<string, unknown>) => void) {
    const target = path.join(dir, out, file);
    const lines = fs.readFileSync(target, 'utf8').trim().split('\n');
    const index = lines.findIndex((line) => pick(JSON.parse(line)));
    const value = JSON.parse(lines[index]!);
    edit(value);
    lines[index] = JSON.stringify(value);
    fs.writeFileSync(target, `${lines.join('\n')}\n`);
    return index + 1;
  }
  const withRevisions = (r: Record<string, unknown>) => (r.field_revisions as unknown[]).length > 0;
  type Revisions = { field: string; new_value_json: string | null }[];

  it.each([
    ['an unknown field path', 'records.jsonl', (r: Record<string, unknown>) => ((r.field_revisions as Revisions)[0]!.field = 'totl'), /field_revisions\.0: .*"totl" is not an invoice field/],
    ['a value of the wrong type', 'records.jsonl', (r: Record<string, unknown>) => ((r.field_revisions as Revisions)[0]!.new_value_json = '"12.90"'), /total holds a number, not "12.90"/],
    ['a value that is not JSON', 'records.jsonl', (r: Record<string, unknown>) => ((r.field_revisions as Revisions)[0]!.new_value_json = '12,90'), /new value is not JSON/],
    ['a revision without author', 'records.jsonl', (r: Record<string, unknown>) => delete (r.field_revisions as Record<string, unknown>[])[0]!.author, /field_revisions\.0\.author/],
    ['corrected fields of the wrong type', 'records.jsonl', (r: Record<string, unknown>) => ((r.fields as Record<string, unknown>).total = '14.90'), /fields\.total: .*number/],
    ['a misspelt key in the engine fields', 'records.jsonl', (r: Record<string, unknown>) => ((r.fields_engine as Record<string, unknown>).totl = 1), /fields_engine: .*totl/],
    ['a line item of the wrong shape', 'fields.jsonl', (r: Record<string, unknown>) => ((r.lines as unknown[])[0] = { description: 3 }), /fields\.lines\.0\.description/],
    ['an unknown field', 'fields.jsonl', (r: Record<string, unknown>) => (r.discount = 2), /discount/],
  ])('%s in %s', async (_, file, edit, reason) => {
    await correctedProject(store);
    await exportTo(store, 'out');
    const line = editLine('out', file, file === 'records.jsonl' ? withRevisions : () => true, edit);
    // Into a project that already has something: it stays exactly as it was.
    const copy = ProjectStore.create(path.join(dir, 'copy.recto'));
    addDocument(copy, 'mine.pdf', [{ total: 1, lines: [] }]);
    const before = ['documents', 'pages', 'extractions', 'revisions', 'field_revisions'].map((t) => count(copy, t));
    try {
      let error: unknown;
      try {
        importCorpus(copy, path.join(dir, 'out'));
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(CorpusImportError);
      expect((error as Error).message).toContain(`${file}:${line}: `);
      expect((error as Error).message).toMatch(reason);
      expect((error as Error).message).toMatch(/nothing was imported/);
      expect(['documents', 'pages', 'extractions', 'revisions', 'field_revisions'].map((t) => count(copy, t))).toEqual(before);
    } finally {
      copy.close();
    }
  });

  it('a fields.jsonl line that is not JSON', async () => {
    await correctedProject(store);
    await exportTo(store, 'out');
    fs.appendFileSync(path.join(dir, 'out', 'fields.jsonl'), '{"total": 1\n');
    const copy = ProjectStore.create(path.join(dir, 'copy.recto'));
    try {
      expect(() => importCorpus(copy, path.join(dir, 'out'))).toThrow(/fields\.jsonl:3: not JSON/);
      expect(count(copy, 'pages')).toBe(0);
    } finally {
      copy.close();
    }
  });
});

describe('field revisions through a project merge', () => {
  it('brings the other side’s corrections with their history; both sides’ corrections of a field kept, the later shows', async () => {
    const { long } = await correctedProject(store);
    const otherFile = path.join(dir, 'other.recto');
    store.copyTo(otherFile);
    const other = ProjectStore.open(otherFile);
    const ours = store.fieldRevisions.save(long[0]!, 'total', 15.9, 'Ana');
    await tick();
    const theirs = other.fieldRevisions.save(long[0]!, 'total', 16.9, 'Ben');
    other.fieldRevisions.save(long[0]!, 'seller', 'Muster GmbH & Co. KG', 'Ben');
    const added = addDocument(other, 'new.pdf', [{ invoice_number: 'N-1', total: 3, lines: [] }]);
    other.fieldRevisions.save(added[0]!, 'total', 3.3, 'Ben');
    other.close();

    const summary = mergeProjectInto(store, otherFile);
    expect(summary).toMatchObject({ documentsAdded: 1, fieldRevisionsAdded: 3, fieldConflicts: 1 });
    const history = store.fieldRevisions.list(long[0]!);
    expect(history.filter((r) => r.field === 'total').map((r) => [r.author, r.newValue])).toEqual([['Ana', 12.9], ['Ben', 14.9], ['Ana', 15.9], ['Ben', 16.9]]);
    expect(history.find((r) => r.id === theirs.id)).toMatchObject({ parentId: history.find((r) => r.newValue === 14.9)!.id, oldValue: 14.9 });
    expect(history.find((r) => r.id === ours.id)!.createdAt < theirs.createdAt).toBe(true);
    expect(store.fieldRevisions.currentValues(long[0]!)).toMatchObject({ total: 16.9, seller: 'Muster GmbH & Co. KG' });
    expect(store.fieldRevisions.currentValues(added[0]!)).toMatchObject({ total: 3.3 });
    // The curation statistics count them: 11 + ours + the other's three.
    expect(store.fieldRevisions.stats()).toEqual({ pages: 3, revisions: 15 });
    expect(mergeProjectInto(store, otherFile)).toMatchObject({ fieldRevisionsAdded: 0, fieldConflicts: 0 });
  });

  it('merges a project of an older schema, which has no field revisions at all', async () => {
    const otherFile = path.join(dir, 'old.recto');
    const old = ProjectStore.create(otherFile);
    addDocument(old, 'old.pdf', [{ total: 1, lines: [] }]);
    // Back to schema 3: the tables of every later migration gone.
    dropTablesAfterVersion(rawDatabase(old), 3, migrations);
    old.close();
    expect(mergeProjectInto(store, otherFile)).toMatchObject({ documentsAdded: 1, pagesAdded: 1, fieldRevisionsAdded: 0 });
  });

  it('a malformed field revision in the other project refuses the whole merge, naming it', async () => {
    const { long } = await correctedProject(store);
    const otherFile = path.join(dir, 'other.recto');
    store.copyTo(otherFile);
    const other = ProjectStore.open(otherFile);
    addDocument(other, 'new.pdf', [{ total: 3, lines: [] }]);
    const bad = other.fieldRevisions.save(long[0]!, 'total', 20, 'Ben');
    rawDatabase(other).prepare('UPDATE field_revisions SET field = ? WHERE id = ?').run('lines.x.amount', bad.id);
    other.close();
    const before = ['documents', 'pages', 'revisions', 'field_revisions'].map((t) => count(store, t));
    expect(() => mergeProjectInto(store, otherFile)).toThrow(ProjectFileError);
    expect(() => mergeProjectInto(store, otherFile)).toThrow(/other\.recto: long\.pdf, page 1: field revision .*"lines\.x\.amount" is not an invoice field; nothing was merged/);
    expect(['documents', 'pages', 'revisions', 'field_revisions'].map((t) => count(store, t))).toEqual(before);
  });
});

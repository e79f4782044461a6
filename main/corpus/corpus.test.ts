import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseBenchTests } from '../../app/checks/olmocr/schema.js';
import { runBenchTest } from '../../app/checks/olmocr/runTest.js';
import { PageImageCache } from '../services/pageImageCache.js';
import { ProjectStore } from '../store/projectStore.js';
import { fakeInspect } from '../../testing/fakes.js';
import { fillProject, type FixtureDocument } from '../../testing/corpusFixtures.js';
import { CorpusExportRefusedError, exportCorpus, type ExportOptions } from './exportCorpus.js';
import { importCorpus } from './importCorpus.js';
import { mergeProjectInto } from './mergeProjects.js';
import { projectPageImages, seedPageImage } from './pageImages.js';
import { corpusRecordSchema, parseCorpusRecordLine, type CorpusRecord } from './corpusRecord.js';
import { rawDatabase } from '../../testing/rawDatabase.js';

let dir: string;
let store: ProjectStore;
let cache: PageImageCache;

const documents: FixtureDocument[] = [
  { name: 'a.pdf', pages: 3, corrections: { 0: ['table', 'text'], 1: ['header', 'order'] } },
  { name: 'b.pdf', pages: 2, corrections: { 1: ['formula', 'table'] } },
];

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-corpus-'));
  store = ProjectStore.create(path.join(dir, 'p.recto'));
  cache = new PageImageCache(path.join(dir, 'cache'), fakeInspect);
});
afterEach(() => {
  store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const exportTo = (out: string, options: Partial<ExportOptions> = {}) =>
  exportCorpus(store, { outDir: path.join(dir, out), images: 'png', pageImage: projectPageImages(store, cache), ...options });

/** Every file under a folder with its bytes, sorted by path. */
function tree(root: string): [string, string][] {
  const files: [string, string][] = [];
  const walk = (sub: string) => {
    for (const name of fs.readdirSync(path.join(root, sub)).sort()) {
      const relative = path.join(sub, name);
      if (fs.statSync(path.join(root, relative)).isDirectory()) walk(relative);
      else files.push([relative, fs.readFileSync(path.join(root, relative)).toString('base64')]);
    }
  };
  walk('');
  return files;
}

function records(out: string): CorpusRecord[] {
  return fs
    .readFileSync(path.join(dir, out, 'records.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => parseCorpusRecordLine(line));
}

describe('corpus export', () => {
  it('writes the fixed layout, with every file in the manifest and records in the documented schema', async () => {
    fillProject(store, documents);
    const summary = await exportTo('out');
    expect(summary.skipped).toEqual([]);
    expect(summary.records).toBe(5);
    const out = path.join(dir, 'out');
    expect(fs.readdirSync(out).sort()).toEqual(['README.md', 'fields.jsonl', 'images', 'manifest.json', 'pdfs', 'records.jsonl', 'tests.jsonl']);
    const manifest = JSON.parse(fs.readFileSync(path.join(out, 'manifest.json'), 'utf8'));
    expect(manifest.files.map((f: { path: string }) => f.path)).toEqual(
      tree(out).map(([p]) => p).filter((p) => p !== 'manifest.json'),
    );
    const all = records('out');
    expect(all.map((r) => r.id)).toEqual([...all.map((r) => r.id)].sort());
    const corrected = all.filter((r) => r.corrected);
    expect(corrected).toHaveLength(3);
    for (const record of all) {
      expect(fs.existsSync(path.join(out, record.image!))).toBe(true);
      expect(record.elements.length).toBeGreaterThan(0);
      expect(record.engine.pack_sha256).toMatch(/^[0-9a-f]{64}$/);
    }
    expect(corrected.every((r) => r.reviewer === 'Ana Analyst' && r.checks.score !== null && r.checks.score < 1)).toBe(true);
    // A page nobody corrected has no score (nothing to compare the engine's text with); the reference-free checks stay.
    const uncorrected = all.filter((r) => !r.corrected);
    expect(uncorrected.length).toBeGreaterThan(0);
    for (const record of uncorrected) {
      expect(record.checks).toMatchObject({ score: null, text: null, tables: null, tables_structure: null, formulas: null, unit_tests: null });
      expect(record.checks.structure).toBeGreaterThan(0);
      expect(record.checks.repetition).toBeGreaterThan(0);
    }
    expect(fs.readFileSync(path.join(out, 'records.jsonl'), 'utf8')).not.toMatch(/"corrected":false[^\n]*"checks":\{"score":0\.0/);
    expect(fs.readFileSync(path.join(out, 'README.md'), 'utf8')).toContain('path: records.jsonl');
  });

  it('derives olmOCR tests that pass on the corrected text and fail on the engine text', async () => {
    fillProject(store, documents);
    await exportTo('out');
    const { tests, errors } = parseBenchTests(fs.readFileSync(path.join(dir, 'out', 'tests.jsonl'), 'utf8'), 'tests.jsonl');
    expect(errors).toEqual([]);
    const types = new Set(tests.map((t) => t.type));
    for (const type of ['present', 'absent', 'order', 'table', 'math']) expect(types).toContain(type);
    const byId = new Map(records('out').map((r) => [r.id, r]));
    for (const test of tests) {
      // Each test names its page's one-page PDF (pdfs/), which olmOCR-Bench's runner reads.
      expect(fs.existsSync(path.join(dir, 'out', 'pdfs', test.pdf)), test.pdf).toBe(true);
      const record = byId.get(test.pdf.replace(/\.pdf$/, ''))!;
      expect(runBenchTest(test, record.corrected_markdown).passed, test.id).toBe(true);
      expect(runBenchTest(test, record.engine_markdown).passed, test.id).toBe(false);
    }
    // Pages nobody corrected get no tests.
    expect([...byId.values()].filter((r) => !r.corrected).every((r) => r.tests === 0)).toBe(true);
  });

  it('is deterministic (byte-identical twice) and incremental (unchanged files are not rewritten)', async () => {
    const ids = fillProject(store, documents);
    await exportTo('one');
    // The second export takes the derived tests from the project's cache: same bytes either way.
    expect(rawDatabase(store).prepare('SELECT COUNT(*) FROM page_derived_tests').pluck().get()).toBe(3);
    await exportTo('two');
    expect(tree(path.join(dir, 'two'))).toEqual(tree(path.join(dir, 'one')));

    const again = await exportTo('one');
    expect(again.filesWritten).toEqual([]);
    expect(again.imagesKept).toBe(5);

    store.revisions.saveRevision(ids[2]!, 'A new reading of page three, written by hand.', 'Ben', null);
    const changed = await exportTo('one');
    expect(changed.filesWritten).toEqual(['README.md', 'images/metadata.jsonl', 'manifest.json', 'records.jsonl', 'tests.jsonl']);
    expect(changed.imagesWritten).toBe(0);

    const filtered = await exportTo('one', { status: 'approved' });
    expect(filtered.records).toBe(0);
    expect(filtered.filesRemoved).toHaveLength(10); // 5 images, 5 page PDFs
  });

  it('exports only pages of a review status, or revised since a time', async () => {
    const ids = fillProject(store, documents);
    store.documents.setReviewStatus(ids[0]!, 'approved');
    expect((await exportTo('approved', { status: 'approved' })).records).toBe(1);
    expect((await exportTo('since-past', { since: '2000-01-01T00:00:00Z' })).records).toBe(3);
    expect((await exportTo('since-future', { since: '2999-01-01T00:00:00Z' })).records).toBe(0);
  });

  it('refuses a non-empty folder that is not a Recto export, and writes nothing there', async () => {
    fillProject(store, documents);
    const out = path.join(dir, 'taken');
    fs.mkdirSync(out);
    fs.writeFileSync(path.join(out, 'thesis.docx'), 'mine');
    await expect(exportTo('taken')).rejects.toThrow(CorpusExportRefusedError);
    await expect(exportTo('taken')).rejects.toThrow(/not empty and is not a Recto corpus export/);
    expect(fs.readdirSync(out)).toEqual(['thesis.docx']);
  });

  it('exports what is good and reports broken rows and missing images', async () => {
    const ids = fillProject(store, documents);
    rawDatabase(store).prepare(`UPDATE extractions SET elements = '{broken' WHERE page_id = ?`).run(ids[1]);
    // Document b: its source copy is gone and no image was ever cached.
    const b = store.documents.getPage(ids[3]!);
    rawDatabase(store).prepare('DELETE FROM source_blobs WHERE sha256 = ?').run(b.documentSha256);
    const summary = await exportTo('out');
    expect(summary.records).toBe(2);
    expect(summary.skipped).toHaveLength(3);
    expect(summary.skipped.find((s) => s.page === 'a.pdf p. 2')!.reason).toMatch(/not valid JSON/);
    expect(summary.skipped.filter((s) => s.page.startsWith('b.pdf')).every((s) => /source file .* missing/.test(s.reason))).toBe(true);
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'out', 'manifest.json'), 'utf8'));
    expect(manifest.skipped).toHaveLength(3);
    // Without images the pages of b export fine.
    expect((await exportTo('noimages', { images: 'none' })).records).toBe(4);
  });
});

describe('corpus import and project merge', () => {
  it('round trip: project → export → import gives the same pages, revisions and scores', async () => {
    const ids = fillProject(store, documents);
    await exportTo('out');
    const copy = ProjectStore.create(path.join(dir, 'copy.recto'));
    const copyCache = new PageImageCache(path.join(dir, 'cache2'), fakeInspect);
    try {
      const summary = importCorpus(copy, path.join(dir, 'out'), { seedImage: seedPageImage(copyCache) });
      expect(summary.problems).toEqual([]);
      expect(summary).toMatchObject({ records: 5, pagesAdded: 5, documentsAdded: 2, revisionsAdded: 3, imagesSeeded: 5 });
      for (const id of ids) {
        const original = store.documents.getPage(id);
        const imported = copy.documents.getPage(id);
        expect({ ...imported, textLayer: null }).toEqual({ ...original, textLayer: null });
        expect(copy.revisions.listRevisions(id)).toEqual(store.revisions.listRevisions(id));
        expect(copy.readings.latestExtraction(id)).toEqual(store.readings.latestExtraction(id));
        expect(copy.checks.scores(id)).toEqual(store.checks.scores(id));
        expect(fs.existsSync(copyCache.pathFor(original.documentSha256, original.pageNumber))).toBe(true);
      }
      // Importing the same corpus again adds nothing.
      expect(importCorpus(copy, path.join(dir, 'out'))).toMatchObject({ pagesAdded: 0, revisionsAdded: 0, runsAdded: 0 });
    } finally {
      copy.close();
    }
  });

  it('reports bad lines of records.jsonl by line number and imports the rest', async () => {
    fillProject(store, documents);
    await exportTo('out', { images: 'none' });
    const file = path.join(dir, 'out', 'records.jsonl');
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    lines[1] = '{"id": "nonsense"}';
    fs.writeFileSync(file, lines.join('\n'));
    const copy = ProjectStore.create(path.join(dir, 'copy.recto'));
    try {
      const summary = importCorpus(copy, path.join(dir, 'out'));
      expect(summary.records).toBe(4);
      expect(summary.problems.map((p) => p.where)).toEqual(['records.jsonl', 'records.jsonl:2']);
    } finally {
      copy.close();
    }
  });

  it('merging two copies edited apart keeps every revision of both, ordered by time', async () => {
    const ids = fillProject(store, documents);
    const otherFile = path.join(dir, 'other.recto');
    store.copyTo(otherFile);
    const other = ProjectStore.open(otherFile);
    // Both sides edit page 1; only the other side edits page 3 and adds a document.
    const ours = store.revisions.saveRevision(ids[0]!, 'our edit', 'Ana', store.revisions.latestRevision(ids[0]!)!.id);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const theirs = other.revisions.saveRevision(ids[0]!, 'their edit', 'Ben', other.revisions.latestRevision(ids[0]!)!.id);
    other.revisions.saveRevision(ids[2]!, 'their page three', 'Ben', null);
    // A decision as Recto records it (a status with its event): a status set alone is no one's decision and a merge
    // does not take it (docs/security.md).
    other.documents.setReviewStatus(ids[2]!, 'approved');
    other.reviewEvents.record({ pageId: ids[2]!, status: 'approved', exceptions: [], reason: null, reviewer: 'Ben' });
    const added = fillProject(other, [{ name: 'c.pdf', pages: 2, corrections: { 0: ['text'] } }]);
    const expected = new Set([...rawDatabase(store).prepare('SELECT id FROM revisions').pluck().all(), ...rawDatabase(other).prepare('SELECT id FROM revisions').pluck().all()]);
    other.close();

    const summary = mergeProjectInto(store, otherFile);
    expect(summary).toMatchObject({ documentsAdded: 1, pagesAdded: 2, revisionsAdded: 3, diverged: 1 });
    expect(new Set(rawDatabase(store).prepare('SELECT id FROM revisions').pluck().all())).toEqual(expected);
    expect(store.revisions.listRevisions(ids[0]!).map((r) => r.id).slice(-2)).toEqual([ours.id, theirs.id]);
    expect(store.revisions.latestRevision(ids[0]!)!.text).toBe('their edit');
    expect(store.documents.getPage(ids[2]!).reviewStatus).toBe('approved');
    expect(store.checks.get(added[0]!)!.scores.text).toBeLessThan(1);
    expect(store.documents.getSourceBytes(store.documents.getPage(added[0]!).documentSha256).length).toBeGreaterThan(0);
    // Merging again changes nothing.
    expect(mergeProjectInto(store, otherFile)).toMatchObject({ pagesAdded: 0, revisionsAdded: 0, runsAdded: 0 });
  });
});

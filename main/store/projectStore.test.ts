import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Extraction } from '../../app/model/extraction.js';
import { ProjectFileError, ProjectStore } from './projectStore.js';
import { currentSchemaVersion } from './migrations/index.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-store-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const sampleDocument = (sha = 'a'.repeat(64)) => ({
  sha256: sha,
  name: 'invoice.pdf',
  mediaType: 'application/pdf',
  bytes: Buffer.from('%PDF-1.4 test'),
  pages: [
    { pageNumber: 1, width: 1240, height: 1754, dpi: 150, textLayer: { words: [] } },
    { pageNumber: 2, width: 1240, height: 1754, dpi: 150, textLayer: null },
  ],
});

const extraction: Extraction = {
  markdown: '# Invoice\n\nTotal 12.00',
  elements: [{ id: 'e1', kind: 'title', box: [10, 10, 200, 40], span: [0, 9], confidence: 1, level: 1 }],
  page: { width: 1240, height: 1754 },
  engine: { id: 'bundled', name: 'Bundled', version: '1', packSha256: null, licence: null, provider: 'text-layer', settings: {} },
  stats: { durationMs: 12 },
  warnings: [],
};

describe('ProjectStore', () => {
  it('keeps documents, pages, extractions and revisions across reopen', () => {
    const file = path.join(dir, 'p.recto');
    const store = ProjectStore.create(file);
    const doc = store.documents.addDocument(sampleDocument())!;
    expect(doc.pages).toHaveLength(2);
    const pageId = doc.pages[0]!.id;
    store.readings.saveExtraction(pageId, extraction, new Date());
    const r1 = store.revisions.saveRevision(pageId, 'first edit', 'Ana', null);
    const r2 = store.revisions.saveRevision(pageId, 'second edit', 'Ana', r1.id);
    store.close();

    const reopened = ProjectStore.open(file);
    const page = reopened.documents.getPage(pageId);
    expect(page.status).toBe('done');
    expect(page.engine).toBe('bundled');
    expect(page.revisionCount).toBe(2);
    expect(reopened.revisions.latestRevision(pageId)).toMatchObject({ id: r2.id, parentId: r1.id, text: 'second edit', author: 'Ana' });
    expect(reopened.readings.latestExtraction(pageId)?.markdown).toBe(extraction.markdown);
    expect(reopened.revisions.listRevisions(pageId).map((r) => r.text)).toEqual(['first edit', 'second edit']);
    expect(reopened.documents.pagesToRead()).toEqual([{ pageId: doc.pages[1]!.id, documentId: doc.id }]);
    expect(reopened.documents.getSourceBytes(doc.sha256).toString()).toBe('%PDF-1.4 test');
    reopened.close();
  });

  it('lists every document in import order with its pages in page order, as each reads alone', () => {
    const store = ProjectStore.create(path.join(dir, 'p.recto'));
    const ids = ['c', 'a', 'b'].map((letter, index) => {
      const doc = store.documents.addDocument({
        ...sampleDocument(letter.repeat(64)),
        name: `${letter}.pdf`,
        // Pages stored out of order: the list still gives them by page number.
        pages: [3, 1, 2].slice(0, index + 1).map((pageNumber) => ({ pageNumber, width: 100, height: 100, dpi: 72, textLayer: null })),
      })!;
      return doc.id;
    });
    const listed = store.documents.listDocuments();
    expect(listed.map((document) => document.name)).toEqual(['c.pdf', 'a.pdf', 'b.pdf']);
    expect(listed.map((document) => document.pages.map((page) => page.pageNumber))).toEqual([[3], [1, 3], [1, 2, 3]]);
    expect(listed).toEqual(ids.map((id) => store.documents.getDocument(id)));
    store.close();
  });

  it('does not import the same content twice', () => {
    const store = ProjectStore.create(path.join(dir, 'p.recto'));
    expect(store.documents.addDocument(sampleDocument())).not.toBeNull();
    expect(store.documents.addDocument(sampleDocument())).toBeNull();
    expect(store.documents.listDocuments()).toHaveLength(1);
    store.close();
  });

  it('writes nothing when a document fails halfway', () => {
    const store = ProjectStore.create(path.join(dir, 'p.recto'));
    const bad = sampleDocument();
    bad.pages.push({ ...bad.pages[0]! }); // duplicate page number violates UNIQUE
    expect(() => store.documents.addDocument(bad)).toThrow();
    expect(store.documents.listDocuments()).toEqual([]);
    store.close();
  });

  it('rejects a revision whose parent belongs to another page', () => {
    const store = ProjectStore.create(path.join(dir, 'p.recto'));
    const doc = store.documents.addDocument(sampleDocument())!;
    const r = store.revisions.saveRevision(doc.pages[0]!.id, 'x', 'Ana', null);
    expect(() => store.revisions.saveRevision(doc.pages[1]!.id, 'y', 'Ana', r.id)).toThrow(/not a revision of page/);
    expect(store.revisions.listRevisions(doc.pages[1]!.id)).toEqual([]);
    store.close();
  });

  it('refuses files that are not Recto projects, without modifying them', () => {
    const text = path.join(dir, 'notes.recto');
    fs.writeFileSync(text, 'hello, this is not a database at all; it is long enough to have a header '.repeat(3));
    expect(() => ProjectStore.open(text)).toThrow(/notes\.recto: not a Recto project/);

    const empty = path.join(dir, 'empty.recto');
    fs.writeFileSync(empty, '');
    expect(() => ProjectStore.open(empty)).toThrow(/empty/);

    const other = path.join(dir, 'other.db');
    const db = new Database(other);
    db.exec('CREATE TABLE t (x)');
    db.close();
    const before = fs.readFileSync(other);
    expect(() => ProjectStore.open(other)).toThrow(ProjectFileError);
    expect(fs.readFileSync(other).equals(before)).toBe(true);
  });

  it('refuses a project written by a newer Recto, without modifying it', () => {
    const file = path.join(dir, 'new.recto');
    ProjectStore.create(file).close();
    const db = new Database(file);
    db.pragma(`user_version = ${currentSchemaVersion + 1}`);
    db.pragma('journal_mode = DELETE');
    db.close();
    const before = fs.readFileSync(file);
    expect(() => ProjectStore.open(file)).toThrow(/newer Recto/);
    expect(fs.readFileSync(file).equals(before)).toBe(true);
  });
});

/**
 * The same bytes arriving under another document (a merged project or a corpus whose document has its own id and
 * name, and the file this project already holds): the pages go to the document already here, and the summary names
 * it, so the user sees which other document it is.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeInspect } from '../../testing/fakes.js';
import { PageImageCache } from '../services/pageImageCache.js';
import { ProjectStore } from '../store/projectStore.js';
import { exportCorpus } from './exportCorpus.js';
import { importCorpus } from './importCorpus.js';
import { mergeProjectInto } from './mergeProjects.js';
import { projectPageImages } from './pageImages.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-same-file-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const BYTES = Buffer.from('%PDF-1.7 the one invoice');

/** A project holding BYTES as a document called `name`, read once. */
function projectWith(file: string, name: string): string {
  const store = ProjectStore.create(file);
  const doc = store.documents.addDocument({ sha256: createHash('sha256').update(BYTES).digest('hex'), name, mediaType: 'application/pdf', bytes: BYTES, pages: [{ pageNumber: 1, width: 100, height: 100, dpi: 72, textLayer: null }] })!;
  store.readings.saveExtraction(
    doc.pages[0]!.id,
    { markdown: `Invoice ${name}`, elements: [], page: { width: 100, height: 100 }, engine: { id: 'bundled', name: 'Bundled', version: '1', packSha256: null, licence: null, provider: 'text-layer', settings: {} }, stats: { durationMs: 1 }, warnings: [] },
    new Date(),
  );
  store.close();
  return doc.id;
}

describe('the same file under another document', () => {
  it('a merge names the document already holding the bytes; merging the same project again names nothing new', () => {
    const mineId = projectWith(path.join(dir, 'mine.recto'), 'acme-17.pdf');
    projectWith(path.join(dir, 'theirs.recto'), 'scan 2024-03.pdf');
    const mine = ProjectStore.open(path.join(dir, 'mine.recto'));
    try {
      const summary = mergeProjectInto(mine, path.join(dir, 'theirs.recto'));
      expect(summary.sameFile).toEqual([{ file: 'scan 2024-03.pdf', documentId: mineId, documentName: 'acme-17.pdf' }]);
      expect(summary.documentsAdded).toBe(0);
      expect(mine.documents.listDocuments().map((d) => d.name)).toEqual(['acme-17.pdf']);
    } finally {
      mine.close();
    }
    // A copy of this very project brings the same document (same id, same name): nothing to point at.
    fs.copyFileSync(path.join(dir, 'mine.recto'), path.join(dir, 'copy.recto'));
    const again = ProjectStore.open(path.join(dir, 'mine.recto'));
    try {
      expect(mergeProjectInto(again, path.join(dir, 'copy.recto')).sameFile).toEqual([]);
    } finally {
      again.close();
    }
  });

  it('a corpus import names it too', async () => {
    const mineId = projectWith(path.join(dir, 'mine.recto'), 'acme-17.pdf');
    projectWith(path.join(dir, 'theirs.recto'), 'scan 2024-03.pdf');
    const theirs = ProjectStore.open(path.join(dir, 'theirs.recto'));
    const out = path.join(dir, 'corpus');
    try {
      await exportCorpus(theirs, { outDir: out, images: 'none', pageImage: projectPageImages(theirs, new PageImageCache(path.join(dir, 'cache'), fakeInspect)) });
    } finally {
      theirs.close();
    }
    const mine = ProjectStore.open(path.join(dir, 'mine.recto'));
    try {
      expect(importCorpus(mine, out).sameFile).toEqual([{ file: 'scan 2024-03.pdf', documentId: mineId, documentName: 'acme-17.pdf' }]);
    } finally {
      mine.close();
    }
  });
});

/**
 * Hostile export folders, corpora and caches: symbolic links, `..`, absolute paths, planted journals, FIFOs. Nothing
 * outside the chosen folder may be read, written or removed, and nothing from outside may reach the project.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PageImageCache } from '../services/pageImageCache.js';
import { ProjectStore } from '../store/projectStore.js';
import { fakeInspect } from '../../testing/fakes.js';
import { fillProject } from '../../testing/corpusFixtures.js';
import { CorpusExportRefusedError, exportCorpus, sha256Of, type ExportOptions } from './exportCorpus.js';
import { stagingFolderName } from './exportStaging.js';
import { importCorpus } from './importCorpus.js';
import { projectPageImages, seedPageImage } from './pageImages.js';

let dir: string;
let outside: string;
let store: ProjectStore;
let cache: PageImageCache;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-hostile-'));
  outside = path.join(dir, 'outside');
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(outside, 'victim.txt'), 'keep me');
  store = ProjectStore.create(path.join(dir, 'p.recto'));
  cache = new PageImageCache(path.join(dir, 'cache'), fakeInspect);
  fillProject(store, [{ name: 'a.pdf', pages: 2, corrections: { 0: ['text'] } }]);
});
afterEach(() => {
  store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const exportTo = (outDir: string, options: Partial<ExportOptions> = {}) =>
  exportCorpus(store, { outDir, images: 'png', pageImage: projectPageImages(store, cache), ...options });

/** A staging folder with a journal, as a killed export would leave it — or as someone could plant it. */
function plantJournal(folder: string, staged: Record<string, string>, remove: string[]): void {
  const staging = path.join(folder, stagingFolderName);
  for (const [file, content] of Object.entries(staged)) {
    fs.mkdirSync(path.dirname(path.join(staging, file)), { recursive: true });
    fs.writeFileSync(path.join(staging, file), content);
  }
  fs.writeFileSync(path.join(staging, 'commit.json'), JSON.stringify({ files: Object.keys(staged), remove }));
}

describe('export into a hostile folder', () => {
  it('does not carry out a journal planted in a folder of the user, and writes nothing there', async () => {
    const folder = path.join(dir, 'documents');
    fs.mkdirSync(folder);
    fs.writeFileSync(path.join(folder, 'important.txt'), 'the user’s file');
    plantJournal(folder, { 'planted.txt': 'moved in by the journal' }, ['important.txt']);
    await expect(exportTo(folder)).rejects.toThrow(CorpusExportRefusedError);
    expect(fs.readFileSync(path.join(folder, 'important.txt'), 'utf8')).toBe('the user’s file');
    expect(fs.existsSync(path.join(folder, 'planted.txt'))).toBe(false);
  });

  it('does not follow a symbolic link in the folder, for a journal or for an update', async () => {
    const folder = path.join(dir, 'out');
    fs.mkdirSync(folder);
    fs.symlinkSync(outside, path.join(folder, 'link'));
    plantJournal(folder, { 'link/planted.txt': 'written outside' }, ['link/victim.txt']);
    await expect(exportTo(folder)).rejects.toThrow(/link is a symbolic link .* nothing was written/);
    expect(fs.readFileSync(path.join(outside, 'victim.txt'), 'utf8')).toBe('keep me');
    expect(fs.existsSync(path.join(outside, 'planted.txt'))).toBe(false);

    // A real export whose images/ folder is then swapped for a link to a folder holding a file of the same name:
    // the next export (which drops that page) must not remove it through the link.
    const exported = path.join(dir, 'exported');
    await exportTo(exported);
    const images = fs.readdirSync(path.join(exported, 'images'));
    fs.cpSync(path.join(exported, 'images'), path.join(outside, 'images'), { recursive: true });
    fs.rmSync(path.join(exported, 'images'), { recursive: true });
    fs.symlinkSync(path.join(outside, 'images'), path.join(exported, 'images'));
    store.documents.setReviewStatus(store.documents.listDocuments()[0]!.pages[0]!.id, 'approved');
    await expect(exportTo(exported, { status: 'approved' })).rejects.toThrow(CorpusExportRefusedError);
    expect(fs.readdirSync(path.join(outside, 'images')).sort()).toEqual(images.sort());
  });

  it('rolls a journal forward only in an export of the same project', async () => {
    const folder = path.join(dir, 'out');
    await exportTo(folder);
    const manifest = JSON.parse(fs.readFileSync(path.join(folder, 'manifest.json'), 'utf8'));
    fs.writeFileSync(path.join(folder, 'manifest.json'), JSON.stringify({ ...manifest, project: 'someone else' }));
    plantJournal(folder, { 'planted.txt': 'x' }, ['README.md']);
    await exportTo(folder);
    expect(fs.existsSync(path.join(folder, 'planted.txt'))).toBe(false);
    expect(fs.existsSync(path.join(folder, 'README.md'))).toBe(true);
    expect(fs.existsSync(path.join(folder, stagingFolderName))).toBe(false);
  });

  it('replaces a staging folder that is a link without touching its target', async () => {
    const folder = path.join(dir, 'out');
    await exportTo(folder);
    fs.symlinkSync(outside, path.join(folder, stagingFolderName));
    await exportTo(folder);
    expect(fs.readdirSync(outside)).toEqual(['victim.txt']);
  });
});

describe('import of a hostile corpus', () => {
  async function corpus(): Promise<{ folder: string; lines: Record<string, unknown>[] }> {
    const folder = path.join(dir, 'corpus');
    await exportTo(folder);
    const lines = fs
      .readFileSync(path.join(folder, 'records.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    return { folder, lines };
  }
  const rewrite = (folder: string, lines: Record<string, unknown>[]) =>
    fs.writeFileSync(path.join(folder, 'records.jsonl'), lines.map((line) => `${JSON.stringify(line)}\n`).join(''));

  function importInto(folder: string) {
    const copy = ProjectStore.create(path.join(dir, `copy-${Math.random().toString(36).slice(2)}.recto`));
    const copyCache = new PageImageCache(path.join(dir, 'cache2'), fakeInspect);
    try {
      return { summary: importCorpus(copy, folder, { seedImage: seedPageImage(copyCache) }), copyCache };
    } finally {
      copy.close();
    }
  }

  it('refuses images that are links, outside the folder, unhashed, not PNG or FIFOs — and seeds none of them', async () => {
    const { folder, lines } = await corpus();
    const secret = path.join(outside, 'secret.png');
    fs.writeFileSync(secret, Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('secret')]));
    fs.symlinkSync(secret, path.join(folder, 'images', 'link.png'));
    fs.writeFileSync(path.join(folder, 'images', 'text.png'), 'not a png');
    execFileSync('mkfifo', [path.join(folder, 'images', 'fifo.png')]);
    const hostile: [string, string | null][] = [
      ['images/link.png', null],
      ['images/link.png', sha256Of(fs.readFileSync(secret))],
      ['../outside/secret.png', sha256Of(fs.readFileSync(secret))],
      [secret, sha256Of(fs.readFileSync(secret))],
      ['images/text.png', sha256Of('not a png')],
      ['images/fifo.png', sha256Of('')],
    ];
    const base = lines[0]!;
    const planted = hostile.map(([image, hash], index) => ({
      ...base,
      id: `${String(index).repeat(16)}_p0001`,
      source: { ...(base.source as object), sha256: String(index).repeat(64), page: 1 },
      image,
      image_sha256: hash,
    }));
    rewrite(folder, planted);
    const { summary, copyCache } = importInto(folder);
    expect(summary.imagesSeeded).toBe(0);
    expect(summary.problems.filter((p) => p.reason.startsWith('image')).map((p) => p.reason)).toEqual([
      'image images/link.png has no image_sha256, so it cannot be checked',
      'image images/link.png cannot be used: images/link.png: is a symbolic link',
      'image "../outside/secret.png" is not a path inside the corpus folder',
      `image ${JSON.stringify(secret)} is not a path inside the corpus folder`,
      'image images/text.png is not a PNG file',
      'image images/fifo.png cannot be used: images/fifo.png: is not a regular file',
    ]);
    expect(fs.existsSync(path.join(dir, 'cache2'))).toBe(false);
    expect(copyCache).toBeDefined();
  });

  it('refuses a records.jsonl that is a link', async () => {
    const { folder } = await corpus();
    fs.renameSync(path.join(folder, 'records.jsonl'), path.join(outside, 'records.jsonl'));
    fs.symlinkSync(path.join(outside, 'records.jsonl'), path.join(folder, 'records.jsonl'));
    expect(() => importInto(folder)).toThrow(/records.jsonl cannot be read \(records.jsonl: is a symbolic link\)/);
  });
});

describe('the page image cache', () => {
  it('never serves or exports a file that a link planted in the cache points to', async () => {
    const pageId = store.documents.listDocuments()[0]!.pages[0]!.id;
    const page = store.documents.getPage(pageId);
    const image = await cache.ensure(page.documentSha256, 1, page.documentName, () => store.documents.getSourceBytes(page.documentSha256));
    const rendered = fs.readFileSync(image);
    fs.rmSync(image);
    fs.writeFileSync(path.join(outside, 'secret'), 'secret');
    fs.symlinkSync(path.join(outside, 'secret'), image);
    const again = await cache.ensure(page.documentSha256, 1, page.documentName, () => store.documents.getSourceBytes(page.documentSha256));
    expect(fs.lstatSync(again).isFile()).toBe(true);
    expect(fs.readFileSync(again)).toEqual(rendered);
    expect(fs.readFileSync(path.join(outside, 'secret'), 'utf8')).toBe('secret');

    // The document's whole folder swapped for a link.
    const documentFolder = path.dirname(image);
    fs.rmSync(documentFolder, { recursive: true });
    fs.symlinkSync(outside, documentFolder);
    await cache.ensure(page.documentSha256, 1, page.documentName, () => store.documents.getSourceBytes(page.documentSha256));
    expect(fs.readdirSync(outside).sort()).toEqual(['secret', 'victim.txt']);
  });
});

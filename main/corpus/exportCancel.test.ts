/**
 * Cancelling an export, or killing the process in the middle of one, never leaves a half-written corpus: the folder
 * is as before, or the next export completes what a commit had started.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EventBus } from '../events/eventBus.js';
import { PageImageCache } from '../services/pageImageCache.js';
import { ProjectStore } from '../store/projectStore.js';
import { fakeInspect } from '../../testing/fakes.js';
import type { JobProgress } from '../../app/contract/events.js';
import { fillProject } from '../../testing/corpusFixtures.js';
import { CorpusExportCancelledError, exportCorpus, previousExport, type ExportOptions } from './exportCorpus.js';
import { ExportJobs } from './exportJob.js';
import { recoverInterruptedExport, stagingFolderName } from './exportStaging.js';
import { projectPageImages } from './pageImages.js';

let dir: string;
let store: ProjectStore;
let cache: PageImageCache;
let pageIds: string[];

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-export-cancel-'));
  store = ProjectStore.create(path.join(dir, 'p.recto'));
  cache = new PageImageCache(path.join(dir, 'cache'), fakeInspect);
  pageIds = fillProject(store, [
    { name: 'a.pdf', pages: 6, corrections: { 0: ['table', 'text'], 2: ['header', 'order'], 4: ['formula'] } },
    { name: 'b.pdf', pages: 4, corrections: { 1: ['formula', 'table'] } },
  ]);
});
afterEach(() => {
  store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const out = () => path.join(dir, 'corpus');
const exportNow = (options: Partial<ExportOptions> = {}) =>
  exportCorpus(store, { outDir: out(), images: 'png', pageImage: projectPageImages(store, cache), ...options });

/** Every file under a folder with its bytes (and the folder's entries, so a leftover staging folder shows). */
function tree(root: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (sub: string) => {
    for (const name of fs.readdirSync(path.join(root, sub)).sort()) {
      const relative = path.join(sub, name);
      if (fs.statSync(path.join(root, relative)).isDirectory()) walk(relative);
      else files[relative] = fs.readFileSync(path.join(root, relative)).toString('base64');
    }
  };
  walk('');
  return files;
}

/** An export cancelled once `afterPages` pages are done. */
function cancelledExport(afterPages: number, options: Partial<ExportOptions> = {}) {
  const controller = new AbortController();
  return exportNow({
    ...options,
    signal: controller.signal,
    onProgress: (done) => {
      if (done >= afterPages) controller.abort();
    },
  });
}

describe('cancelling an export', () => {
  it('into a new folder leaves no folder at all', async () => {
    await expect(cancelledExport(4)).rejects.toBeInstanceOf(CorpusExportCancelledError);
    expect(fs.existsSync(out())).toBe(false);
    // Nothing in the way of the next export.
    expect((await exportNow()).records).toBe(10);
  });

  it('over a previous export leaves it exactly as it was, and the next export updates it', async () => {
    await exportNow();
    const before = tree(out());
    store.revisions.saveRevision(pageIds[1]!, 'A new reading of this page, by hand.', 'Ben', null);
    store.revisions.saveRevision(pageIds[7]!, 'Another page corrected since.', 'Ben', null);
    for (const id of pageIds.slice(0, 5)) store.documents.setReviewStatus(id, 'approved');
    // Images too: a different filter removes files, and images are re-rendered into staging.
    fs.rmSync(path.join(out(), 'images', fs.readdirSync(path.join(out(), 'images'))[0]!));
    const damaged = tree(out());
    await expect(cancelledExport(9)).rejects.toBeInstanceOf(CorpusExportCancelledError);
    expect(tree(out())).toEqual(damaged);
    await expect(cancelledExport(3, { status: 'approved' })).rejects.toBeInstanceOf(CorpusExportCancelledError);
    expect(tree(out())).toEqual(damaged);

    const after = await exportNow();
    expect(after.filesWritten).toEqual(expect.arrayContaining(['records.jsonl', 'manifest.json']));
    expect(after.imagesWritten).toBe(1);
    expect(tree(out())).not.toEqual(before);
    expect(fs.existsSync(path.join(out(), stagingFolderName))).toBe(false);
  });

  it('through jobs.cancel ends the job with a "cancelled" event', async () => {
    const bus = new EventBus();
    const events: JobProgress[] = [];
    bus.subscribe((envelope) => {
      if (envelope.event === 'job.progress') events.push(envelope.payload as JobProgress);
    });
    const jobs = new ExportJobs();
    let jobId = '';
    let images = 0;
    const pageImagePath = async (pageId: string) => {
      // The analyst presses Cancel while the third page's image is on its way.
      if (++images === 3) expect(jobs.cancel(jobId)).toBe(true);
      const page = store.documents.getPage(pageId);
      return cache.ensure(page.documentSha256, page.pageNumber, page.documentName, () => store.documents.getSourceBytes(page.documentSha256));
    };
    const job = jobs.start({ store, bus, pageImagePath }, { outDir: out(), images: 'png' });
    jobId = job.jobId;
    await job.done;
    expect(images).toBe(3);
    expect(events.at(-1)).toMatchObject({ jobId: job.jobId, state: 'cancelled' });
    expect(events.at(-1)!.label).toMatch(/cancelled; the folder was left as it was/);
    expect(fs.existsSync(out())).toBe(false);
    expect(jobs.cancel(job.jobId)).toBe(false);
  });
});

describe('an export killed half-way', () => {
  it('before its commit: the next export discards what was staged', async () => {
    await exportNow();
    const before = tree(out());
    // What a killed export leaves: staged files, no journal.
    fs.mkdirSync(path.join(out(), stagingFolderName, 'images'), { recursive: true });
    fs.writeFileSync(path.join(out(), stagingFolderName, 'records.jsonl'), '{"half": ');
    fs.writeFileSync(path.join(out(), stagingFolderName, 'images', 'x.png'), 'not a png');
    expect(previousExport(out(), store.info().name)).not.toBeNull();
    expect(tree(out())).toEqual(before);
  });

  it('during its commit: the next export completes it from the journal', async () => {
    await exportNow();
    store.revisions.saveRevision(pageIds[3]!, 'Corrected after the first export.', 'Ben', null);
    // Run an export to completion elsewhere to learn what the commit would move in, then stage the same by hand
    // with a journal and only part of it moved: as if the process died between two renames.
    const complete = path.join(dir, 'complete');
    fs.cpSync(out(), complete, { recursive: true });
    await exportCorpus(store, { outDir: complete, images: 'png', pageImage: projectPageImages(store, cache) });
    const expected = tree(complete);
    const changed = Object.keys(expected).filter((file) => tree(out())[file] !== expected[file]);
    expect(changed).toEqual(expect.arrayContaining(['manifest.json', 'records.jsonl']));
    const staging = path.join(out(), stagingFolderName);
    for (const file of changed) {
      fs.mkdirSync(path.dirname(path.join(staging, file)), { recursive: true });
      fs.copyFileSync(path.join(complete, file), path.join(staging, file));
    }
    const order = [...changed.filter((f) => f !== 'manifest.json').sort(), 'manifest.json'];
    fs.writeFileSync(path.join(staging, 'commit.json'), JSON.stringify({ files: order, remove: [] }));
    fs.renameSync(path.join(staging, order[0]!), path.join(out(), order[0]!)); // the one rename that happened

    expect(recoverInterruptedExport(out(), store.info().name)).toBe('rolled-forward');
    expect(tree(out())).toEqual(expected);
  });
});

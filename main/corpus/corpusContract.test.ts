/**
 * Curation and corpus through the contract, as the renderer uses them: a session with the echo engine and the fake
 * importer (testing/fakes.ts), requests validated by dispatch, replies checked against the contract.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventEnvelope, JobProgress } from '../../app/contract/events.js';
import { EngineRegistry } from '../engines/engineRegistry.js';
import { createDispatch, type Dispatch } from '../services/dispatch.js';
import { createHandlers } from '../services/handlers.js';
import { PageImageCache } from '../services/pageImageCache.js';
import { RectoSession } from '../services/rectoSession.js';
import { SettingsFile } from '../settings/settingsFile.js';
import { echoEngineFactory, fakeInspect } from '../../testing/fakes.js';

let dir: string;
let session: RectoSession;
let dispatch: Dispatch;
let events: EventEnvelope[];

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-corpus-contract-'));
  events = [];
  session = new RectoSession({
    engines: new EngineRegistry(new Map([['echo', echoEngineFactory()]])),
    settings: new SettingsFile(path.join(dir, 'data', 'settings.json')),
    images: new PageImageCache(path.join(dir, 'cache'), fakeInspect),
    dataDir: path.join(dir, 'data'),
    samplesDir: path.join(dir, 'samples'),
  });
  session.settings.update({ engine: 'echo', authorName: 'Test Analyst' });
  session.bus.subscribe((envelope) => events.push(envelope));
  dispatch = createDispatch(createHandlers(session, { shell: 'browser', pageImageUrl: (id) => `/img/${id}` }), {
    validateReplies: true,
  });
});
afterEach(async () => {
  await session.dispose();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function call<T>(method: string, params: object): Promise<T> {
  const reply = await dispatch(method, params);
  if (!reply.ok) throw new Error(`${method}: ${reply.error.code} ${reply.error.message}`);
  return reply.result as T;
}

describe('curation and corpus methods', () => {
  it('lists and summarises checked pages, exports with progress events and refuses a foreign folder', async () => {
    await call('project.create', { path: path.join(dir, 'p.recto') });
    const source = path.join(dir, 'a.pdf');
    fs.writeFileSync(source, 'PAGES 3');
    await call('documents.importPaths', { paths: [source] });
    await session.queue.idle();
    const pages = session.store.documents.listDocuments()[0]!.pages;
    await call('revisions.save', { pageId: pages[1]!.id, text: 'word-2 corrected by hand', parentId: null });

    const list = await call<{ total: number; items: { pageId: string; hasRevision: boolean; scores: { score: number } }[] }>(
      'curation.list',
      { sort: 'score', limit: 2 },
    );
    expect(list.total).toBe(3);
    expect(list.items[0]).toMatchObject({ pageId: pages[1]!.id, hasRevision: true });
    expect(list.items[0]!.scores.score).toBeLessThan(1);
    const summary = await call<{ pages: number; correctedPages: number }>('curation.summary', {});
    expect(summary).toMatchObject({ pages: 3, correctedPages: 1 });
    const detail = await call<{ scores: { text: number } }>('curation.page', { pageId: pages[1]!.id });
    expect(detail.scores.text).toBeLessThan(1);
    expect(await dispatch('curation.list', { sort: 'nonsense' })).toMatchObject({ ok: false, error: { code: 'bad-request' } });

    const out = path.join(dir, 'corpus');
    const { jobId } = await call<{ jobId: string }>('corpus.export', { outDir: out, images: 'png' });
    const finished = await new Promise<JobProgress>((resolve) => {
      const check = () => {
        const last = events.filter((e) => e.event === 'job.progress').map((e) => e.payload as JobProgress).filter((p) => p.jobId === jobId).at(-1);
        if (last && last.state !== 'running') resolve(last);
        else setTimeout(check, 20);
      };
      check();
    });
    expect(finished).toMatchObject({ state: 'done', pagesDone: 3, errors: [] });
    expect(fs.readFileSync(path.join(out, 'records.jsonl'), 'utf8').trim().split('\n')).toHaveLength(3);
    expect(fs.readdirSync(path.join(out, 'images')).filter((name) => name.endsWith('.png'))).toHaveLength(3);

    const foreign = path.join(dir, 'foreign');
    fs.mkdirSync(foreign);
    fs.writeFileSync(path.join(foreign, 'notes.txt'), 'mine');
    const refused = await dispatch('corpus.export', { outDir: foreign });
    expect(refused).toMatchObject({ ok: false, error: { code: 'bad-input' } });
  });
});

describe('cancelling an export and choosing its folder', () => {
  async function lastEventOf(jobId: string): Promise<JobProgress> {
    return new Promise<JobProgress>((resolve) => {
      const check = () => {
        const last = events.filter((e) => e.event === 'job.progress').map((e) => e.payload as JobProgress).filter((p) => p.jobId === jobId).at(-1);
        if (last && last.state !== 'running') resolve(last);
        else setTimeout(check, 20);
      };
      check();
    });
  }

  it('jobs.cancel stops an export: a "cancelled" event, no folder written', async () => {
    await call('project.create', { path: path.join(dir, 'p.recto') });
    const source = path.join(dir, 'a.pdf');
    fs.writeFileSync(source, 'PAGES 4');
    await call('documents.importPaths', { paths: [source] });
    await session.queue.idle();
    const out = path.join(dir, 'corpus');
    // The export pauses before its first page: the cancel arrives before anything is exported.
    const { jobId } = await call<{ jobId: string }>('corpus.export', { outDir: out, images: 'png' });
    expect(await call('jobs.cancel', { jobId })).toEqual({ cancelled: true });
    expect(await lastEventOf(jobId)).toMatchObject({ state: 'cancelled', errors: [] });
    expect(fs.existsSync(out)).toBe(false);
    // Finished jobs are not cancelled again; an unknown id is no job.
    expect(await call('jobs.cancel', { jobId })).toEqual({ cancelled: false });

    const again = await call<{ jobId: string }>('corpus.export', { outDir: out, images: 'png' });
    expect(await lastEventOf(again.jobId)).toMatchObject({ state: 'done', pagesDone: 4 });
  });

  it('dialog.chooseExportFolder asks the shell (the desktop app), and is unsupported in the browser', async () => {
    const asked: (string | undefined)[] = [];
    let answer: string | null = path.join(dir, 'chosen');
    const desktop = createDispatch(
      createHandlers(session, {
        shell: 'electron',
        pageImageUrl: (id) => `recto://app/page-image/${id}`,
        dialogs: {
          chooseProject: async () => null,
          chooseFilesToImport: async () => null,
          chooseExportFolder: async (defaultPath) => {
            asked.push(defaultPath);
            return answer;
          },
        },
      }),
      { validateReplies: true },
    );
    expect(await desktop('dialog.chooseExportFolder', { defaultPath: '/somewhere/p-corpus' })).toEqual({
      ok: true,
      result: { path: path.join(dir, 'chosen') },
    });
    answer = null;
    expect(await desktop('dialog.chooseExportFolder', {})).toEqual({ ok: true, result: null });
    expect(asked).toEqual(['/somewhere/p-corpus', undefined]);
    expect(await dispatch('dialog.chooseExportFolder', {})).toMatchObject({ ok: false, error: { code: 'unsupported' } });
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventEnvelope, JobProgress } from '../../app/contract/events.js';
import { NO_BOXES_WARNING } from '../jobs/boxlessPages.js';
import { EngineRegistry } from '../engines/engineRegistry.js';
import { SettingsFile } from '../settings/settingsFile.js';
import { EchoEngine, echoEngineFactory, fakeInspect } from '../../testing/fakes.js';
import { createDispatch } from './dispatch.js';
import { createHandlers } from './handlers.js';
import { PageImageCache } from './pageImageCache.js';
import { RectoSession } from './rectoSession.js';

let dir: string;
let session: RectoSession;
let engine: EchoEngine;
let events: EventEnvelope[];

function makeSession(withEngine = new EchoEngine()): RectoSession {
  engine = withEngine;
  const created = new RectoSession({
    engines: new EngineRegistry(new Map([['echo', echoEngineFactory(engine)]])),
    settings: new SettingsFile(path.join(dir, 'data', 'settings.json')),
    images: new PageImageCache(path.join(dir, 'cache'), fakeInspect),
    dataDir: path.join(dir, 'data'),
    samplesDir: path.join(dir, 'samples'),
  });
  created.settings.update({ engine: 'echo', authorName: 'Test Analyst' });
  created.bus.subscribe((envelope) => events.push(envelope));
  return created;
}

function file(name: string, content: string): string {
  const full = path.join(dir, name);
  fs.writeFileSync(full, content);
  return full;
}

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-session-'));
  events = [];
  session = makeSession();
});
afterEach(async () => {
  await session.dispose();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('RectoSession through the contract', () => {
  it('imports, reads, saves revisions and shows them after reopening', async () => {
    const dispatch = createDispatch(createHandlers(session, { shell: 'browser', pageImageUrl: (id) => `/img/${id}` }), {
      validateReplies: true,
    });
    const project = path.join(dir, 'p.recto');
    expect(await dispatch('project.create', { path: project })).toMatchObject({ ok: true });
    const imported = await dispatch('documents.importPaths', { paths: [file('a.pdf', 'PAGES 2'), file('bad.txt', 'hello')] });
    expect(imported.ok).toBe(true);
    const result = (imported as { result: { imported: { pages: { id: string }[] }[]; errors: unknown[] } }).result;
    expect(result.imported).toHaveLength(1);
    expect(result.errors).toEqual([{ file: 'bad.txt', reason: 'not a test document' }]);

    await session.queue.idle();
    const pageId = result.imported[0]!.pages[0]!.id;
    const review = await dispatch('pages.getReview', { pageId });
    expect(review).toMatchObject({ ok: true, result: { imageUrl: `/img/${pageId}`, extraction: { markdown: 'word-1' } } });
    // The review screen's one request per page answers what the two requests answer.
    const fields = await dispatch('fields.document', { pageId });
    expect(await dispatch('pages.getReviewAndFields', { pageId })).toEqual({ ok: true, result: { review: (review as { result: unknown }).result, fields: (fields as { result: unknown }).result } });
    expect(await dispatch('pages.getReviewAndFields', { pageId: 'no-such-page' })).toMatchObject({ ok: false });
    const progress = events.filter((e) => e.event === 'job.progress').map((e) => e.payload as { state: string; pagesDone: number });
    expect(progress.at(-1)).toMatchObject({ state: 'done', pagesDone: 2 });

    events.length = 0;
    const saved = await dispatch('revisions.save', { pageId, text: 'corrected', parentId: null });
    expect(saved).toMatchObject({ ok: true, result: { author: 'Test Analyst', text: 'corrected' } });
    expect(events).toContainEqual({ event: 'page.updated', payload: { pageId, documentId: expect.any(String) } });
    await session.close();

    await session.openProject(project);
    const again = await dispatch('pages.getReview', { pageId });
    expect(again).toMatchObject({ ok: true, result: { latestRevision: { text: 'corrected' } } });
    expect(engine.pagesRead).toBe(2); // nothing is read twice
  });

  it('rejects requests that do not match the contract, and unknown methods', async () => {
    const dispatch = createDispatch(createHandlers(session, { shell: 'browser', pageImageUrl: () => '' }));
    expect(await dispatch('documents.delete-everything', {})).toMatchObject({ ok: false, error: { code: 'unknown-method' } });
    expect(await dispatch('revisions.save', { pageId: 5, text: null })).toMatchObject({ ok: false, error: { code: 'bad-request' } });
    expect(await dispatch('documents.list', {})).toMatchObject({ ok: false, error: { code: 'no-project' } });
    expect(await dispatch('dialog.importFiles', {})).toMatchObject({ ok: false, error: { code: 'unsupported' } });
    expect(await dispatch('project.open', { path: file('x.recto', 'not a database, but long enough to have a header '.repeat(4)) })).toMatchObject({
      ok: false,
      error: { code: 'bad-input', message: expect.stringContaining('x.recto: not a Recto project') },
    });
  });

  it('refuses relative paths, which would resolve against the working folder', async () => {
    const dispatch = createDispatch(createHandlers(session, { shell: 'browser', pageImageUrl: () => '' }));
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      for (const [method, params] of [
        ['project.create', { path: 'rel.recto' }],
        ['project.open', { path: '../rel.recto' }],
        ['corpus.import', { dir: 'corpus' }],
        ['corpus.export', { outDir: 'out' }],
        ['documents.importPaths', { paths: ['a.pdf'] }],
        ['settings.set', { recentProjects: ['rel.recto'] }],
      ] as const) {
        const reply = await dispatch(method, params);
        expect(reply, method).toMatchObject({ ok: false, error: { code: 'bad-request', message: expect.stringContaining('absolute path') } });
      }
      expect(fs.readdirSync(dir).filter((name) => name !== 'data')).toEqual([]);
    } finally {
      process.chdir(cwd);
    }
  });

  it('refuses the same bytes imported again, naming the document that holds them', async () => {
    await session.createProject(path.join(dir, 'p.recto'));
    const first = await session.importFiles([{ filePath: file('acme-17.pdf', 'PAGES 1') }]);
    const again = await session.importFiles([{ filePath: file('copy of acme.pdf', 'PAGES 1') }]);
    const id = first.imported[0]!.id;
    expect(again.imported).toEqual([]);
    expect(again.duplicates).toEqual(['copy of acme.pdf']);
    expect(again.duplicateOf).toEqual([{ file: 'copy of acme.pdf', documentId: id, documentName: 'acme-17.pdf' }]);
    await session.queue.idle();
  });

  it('reports a page the engine cannot read, and goes on with the others', async () => {
    const failing = new EchoEngine();
    failing.read = async (input) => {
      if (input.label.endsWith('p. 1')) throw new Error(`${input.label}: unreadable`);
      return EchoEngine.prototype.read.call(failing, input);
    };
    await session.dispose();
    session = makeSession(failing);
    await session.createProject(path.join(dir, 'p.recto'));
    const result = await session.importFiles([{ filePath: file('a.pdf', 'PAGES 2') }]);
    await session.queue.idle();
    const pages = session.store.documents.getDocument(result.imported[0]!.id).pages;
    expect(pages.map((p) => p.status)).toEqual(['error', 'done']);
    // Kept without the page's label, which every report of it adds (not "a.pdf p. 1: a.pdf p. 1: unreadable").
    expect(pages[0]!.error).toBe('unreadable');
  });

  it('says so on the page and in the job when a page is read with text but no element boxes', async () => {
    const boxless = new EchoEngine();
    boxless.read = async (input) => ({ ...(await EchoEngine.prototype.read.call(boxless, input)), elements: [] });
    await session.dispose();
    session = makeSession(boxless);
    await session.createProject(path.join(dir, 'boxless.recto'));
    const result = await session.importFiles([{ filePath: file('b.pdf', 'PAGES 1') }]);
    await session.queue.idle();
    const page = session.store.documents.getDocument(result.imported[0]!.id).pages[0]!;
    expect(session.store.readings.latestExtraction(page.id)!.warnings).toContain(NO_BOXES_WARNING);
    const last = events.filter((e) => e.event === 'job.progress').map((e) => e.payload as JobProgress).at(-1)!;
    expect(last.warnings).toEqual([{ pageId: page.id, reason: `b.pdf p. 1: ${NO_BOXES_WARNING}` }]);
  });

  it('reopens the project used last when Recto starts again', async () => {
    const project = path.join(dir, 'last.recto');
    await session.createProject(project);
    await session.dispose();
    session = makeSession();
    expect(session.project).toBeNull();
    expect(await session.reopenLastProject()).toMatchObject({ path: project });
  });

  it('renders a page image again when the cache lost it', async () => {
    await session.createProject(path.join(dir, 'p.recto'));
    const result = await session.importFiles([{ filePath: file('a.pdf', 'PAGES 1') }]);
    const pageId = result.imported[0]!.pages[0]!.id;
    const image = await session.pageImagePath(pageId);
    fs.rmSync(path.join(dir, 'cache'), { recursive: true });
    expect(await session.pageImagePath(pageId)).toBe(image);
    expect(fs.existsSync(image)).toBe(true);
  });
});

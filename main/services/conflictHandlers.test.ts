import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { conflictDetailSchema } from '../../app/contract/conflicts.js';
import type { EventEnvelope } from '../../app/contract/events.js';
import type { ReplyEnvelope } from '../../app/contract/wire.js';
import { EngineRegistry } from '../engines/engineRegistry.js';
import { SettingsFile } from '../settings/settingsFile.js';
import { EchoEngine, echoEngineFactory, fakeInspect } from '../../testing/fakes.js';
import { createDispatch, type Dispatch } from './dispatch.js';
import { createHandlers } from './handlers.js';
import { PageImageCache } from './pageImageCache.js';
import { RectoSession } from './rectoSession.js';
import { echoSession } from '../../testing/echoSession.js';

let dir: string;
let session: RectoSession;
let dispatch: Dispatch;
let pageId: string;
let events: EventEnvelope[];

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-conflict-handlers-'));
  events = [];
  session = echoSession(dir, { author: 'Ana' });
  await session.createProject(path.join(dir, 'p.recto'));
  fs.writeFileSync(path.join(dir, 'a.pdf'), 'PAGES 1');
  const imported = await session.importFiles([{ filePath: path.join(dir, 'a.pdf') }]);
  pageId = imported.imported[0]!.pages[0]!.id;
  await session.queue.idle();
  session.bus.subscribe((envelope) => events.push(envelope));
  dispatch = createDispatch(createHandlers(session, { shell: 'browser', pageImageUrl: () => '' }), { validateReplies: true });
});
afterEach(async () => {
  await session.dispose();
  fs.rmSync(dir, { recursive: true, force: true });
});

const result = <T>(reply: ReplyEnvelope): T => {
  if (!reply.ok) throw new Error(`${reply.error.code}: ${reply.error.message}`);
  return reply.result as T;
};

describe('revisions.save and fields.save on a base, over the contract', () => {
  it('answers a stale text save with the code conflict, its detail the kept text, and no page.updated', async () => {
    const base = result<{ id: string }>(await dispatch('revisions.save', { pageId, text: 'first', parentId: null }));
    session.settings.update({ authorName: 'Ben' });
    const theirs = result<{ id: string }>(await dispatch('revisions.save', { pageId, text: 'Ben’s', parentId: base.id }));
    session.settings.update({ authorName: 'Ana' });
    events.length = 0;
    const refused = await dispatch('revisions.save', { pageId, text: 'Ana’s', parentId: base.id });
    expect(refused).toMatchObject({ ok: false, error: { code: 'conflict', message: expect.stringMatching(/Ben saved a newer revision.*Your text is kept/) } });
    if (refused.ok) return;
    const detail = conflictDetailSchema.parse(refused.error.detail);
    expect(detail).toMatchObject({ kind: 'revision', conflict: { baseId: base.id, baseText: 'first', theirs: { id: theirs.id, text: 'Ben’s' }, text: 'Ana’s', author: 'Ana' } });
    expect(events).toEqual([]);
    expect(result<{ text: string }[]>(await dispatch('revisions.list', { pageId })).map((r) => r.text)).toEqual(['first', 'Ben’s']);
    expect(result<{ id: string }[]>(await dispatch('revisions.conflicts', { pageId })).map((c) => c.id)).toEqual([detail.conflict.id]);

    const chosen = result<{ revision: { text: string; parentId: string; author: string }; conflict: { resolution: string } }>(
      await dispatch('revisions.resolveConflict', { conflictId: detail.conflict.id, choice: 'merged', text: 'Ben’s and Ana’s', parentId: theirs.id }),
    );
    expect(chosen).toMatchObject({ revision: { text: 'Ben’s and Ana’s', parentId: theirs.id, author: 'Ana' }, conflict: { resolution: 'merged', resolvedBy: 'Ana' } });
    expect(events).toContainEqual({ event: 'page.updated', payload: { pageId, documentId: expect.any(String) } });
    expect(await dispatch('revisions.conflicts', { pageId })).toEqual({ ok: true, result: [] });
    // The page's history keeps it, with the choice.
    expect(result<{ resolution: string }[]>(await dispatch('revisions.conflicts', { pageId, all: true }))).toMatchObject([{ id: detail.conflict.id, resolution: 'merged', text: 'Ana’s' }]);
    // Chosen once only.
    expect(await dispatch('revisions.resolveConflict', { conflictId: detail.conflict.id, choice: 'mine', parentId: theirs.id })).toMatchObject({ ok: false, error: { code: 'bad-input', message: expect.stringMatching(/resolved already/) } });
    expect(await dispatch('revisions.resolveConflict', { conflictId: 'no-such-conflict', choice: 'theirs', parentId: null })).toMatchObject({ ok: false, error: { code: 'not-found' } });
  });

  it('answers a stale field save with the code conflict, and takes a choice on the field’s latest', async () => {
    session.settings.update({ authorName: 'Ben' });
    const theirs = result<{ id: string }>(await dispatch('fields.save', { pageId, field: 'total', value: 11.9, basedOn: null }));
    session.settings.update({ authorName: 'Ana' });
    const refused = await dispatch('fields.save', { pageId, field: 'total', value: 12, basedOn: null });
    expect(refused).toMatchObject({ ok: false, error: { code: 'conflict', message: expect.stringMatching(/total changed since your edit began: Ben set it to 11.9/) } });
    if (refused.ok) return;
    const detail = conflictDetailSchema.parse(refused.error.detail);
    expect(detail).toMatchObject({ kind: 'field', conflict: { field: 'total', baseValue: null, theirsValue: 11.9, value: 12 } });
    expect(result<unknown[]>(await dispatch('fields.conflicts', { pageId }))).toHaveLength(1);
    const mine = result<{ revision: { newValue: number; parentId: string } }>(
      await dispatch('fields.resolveConflict', { conflictId: detail.conflict.id, choice: 'mine', basedOn: theirs.id }),
    );
    expect(mine.revision).toMatchObject({ newValue: 12, parentId: theirs.id });
    expect(await dispatch('fields.conflicts', { pageId })).toEqual({ ok: true, result: [] });
    // An undo of what the screen showed as newest, when another is newest now: refused as a conflict, nothing undone.
    const newest = result<{ id: string }>(await dispatch('fields.save', { pageId, field: 'invoice_number', value: 'B-2', basedOn: null }));
    expect(await dispatch('fields.undo', { pageId, expected: mine.revision.parentId })).toMatchObject({ ok: false, error: { code: 'conflict' } });
    expect(await dispatch('fields.undo', { pageId, expected: newest.id })).toMatchObject({ ok: true, result: { undoes: newest.id } });
    // A base that is no revision of the field is bad input, not a conflict.
    expect(await dispatch('fields.save', { pageId, field: 'total', value: 13, basedOn: 'nothing' })).toMatchObject({ ok: false, error: { code: 'bad-input' } });
  });

  it('does not conflict along the autosave chain, nor for a first edit', async () => {
    let parentId: string | null = null;
    for (const text of ['a', 'ab', 'abc']) parentId = result<{ id: string }>(await dispatch('revisions.save', { pageId, text, parentId })).id;
    let basedOn: string | null = null;
    for (const value of [1, 2, 3]) basedOn = result<{ id: string }>(await dispatch('fields.save', { pageId, field: 'total', value, basedOn })).id;
    expect(await dispatch('revisions.conflicts', { pageId })).toEqual({ ok: true, result: [] });
    expect(await dispatch('fields.conflicts', { pageId })).toEqual({ ok: true, result: [] });
  });

  it('serves the project open at the time of the request (handlers made before any project)', async () => {
    const fresh = new RectoSession({
      engines: new EngineRegistry(new Map([['echo', echoEngineFactory(new EchoEngine())]])),
      settings: new SettingsFile(path.join(dir, 'data2', 'settings.json'), () => undefined),
      images: new PageImageCache(path.join(dir, 'cache2'), fakeInspect),
      dataDir: path.join(dir, 'data2'),
      samplesDir: path.join(dir, 'samples'),
    });
    try {
      const early = createDispatch(createHandlers(fresh, { shell: 'browser', pageImageUrl: () => '' }));
      expect(await early('revisions.conflicts', { pageId })).toMatchObject({ ok: false, error: { code: 'no-project' } });
      await fresh.openProject(session.store.file);
      expect(await early('revisions.conflicts', { pageId })).toEqual({ ok: true, result: [] });
    } finally {
      await fresh.dispose();
    }
  });
});

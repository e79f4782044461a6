/**
 * Nothing lost under load (docs/architecture.md, "Nothing lost"): 20 analysts save at once over the browser shell's
 * RPC — the server as `recto serve` runs it, on a real project; half of them over HTTP, half over the event socket
 * as the renderer sends while it is open, each socket also receiving every analyst's `page.updated` — for a few
 * seconds, on three shared pages and
 * their document's fields. Each one works as the review screen does: saves its text on the revision its last save
 * made (the autosave chain), and on a conflict chooses (theirs, mine or a merge) on the latest it was shown. Afterwards
 * every acknowledged save is in the project (a revision with its text, or a field revision with its value), every
 * refused one got an error code, and every `conflict` refusal kept its text or value as a conflict.
 * Counts only: speed is `npm run bench:team`'s to measure, never asserted here.
 *   RECTO_LOAD_SECONDS=N  how long the analysts save (default 4)
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConflictDetail } from '../../../app/contract/conflicts.js';
import type { FieldRevision } from '../../../app/contract/fields.js';
import type { Revision } from '../../../app/model/page.js';
import { conflictDetailSchema } from '../../../app/contract/conflicts.js';
import WebSocket from 'ws';
import { replyEnvelopeSchema, socketReplySchema, type ReplyEnvelope } from '../../../app/contract/wire.js';
import { createDispatch } from '../../services/dispatch.js';
import { createHandlers } from '../../services/handlers.js';
import type { RectoSession } from '../../services/rectoSession.js';
import { ProjectStore } from '../../store/projectStore.js';
import { startBrowserServer, type BrowserServer } from './browserServer.js';
import { echoSession } from '../../../testing/echoSession.js';

const ANALYSTS = 20;
const SECONDS = Number(process.env.RECTO_LOAD_SECONDS ?? 4);
/** The shared fields the analysts correct beside the text. */
const FIELDS = ['total', 'invoice_number'] as const;

let dir: string;
let session: RectoSession;
let server: BrowserServer;
let pageIds: string[] = [];
const agent = new http.Agent({ keepAlive: true, maxSockets: ANALYSTS * 2 });

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-load-'));
  for (const folder of ['docs', 'samples', 'renderer']) fs.mkdirSync(path.join(dir, folder));
  fs.writeFileSync(path.join(dir, 'docs', 'three.pdf'), 'PAGES 3');
  fs.writeFileSync(path.join(dir, 'renderer', 'index.html'), '<!doctype html><title>Recto</title>');
  session = echoSession(dir, { author: 'Load' });
  await session.createProject(path.join(dir, 'load.recto'));
  const imported = await session.importFiles([{ filePath: path.join(dir, 'docs', 'three.pdf') }]);
  pageIds = imported.imported.flatMap((document) => document.pages.map((page) => page.id));
  await session.queue.idle();
  server = await startBrowserServer({
    dispatch: createDispatch(createHandlers(session, { shell: 'browser', pageImageUrl: () => '' }), { log: () => undefined }),
    bus: session.bus,
    pageImagePath: (pageId) => session.pageImagePath(pageId),
    rendererDir: path.join(dir, 'renderer'),
  });
}, 60_000);

afterAll(async () => {
  agent.destroy();
  await server?.close();
  await session?.dispose();
  fs.rmSync(dir, { recursive: true, force: true });
});

type Rpc = (method: string, params: unknown) => Promise<ReplyEnvelope>;

/** One RPC over HTTP, as the renderer's transport sends it; the envelope, or the reason none came. */
function httpRpc(method: string, params: unknown): Promise<ReplyEnvelope> {
  const body = JSON.stringify(params);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1', port: server.port, path: `/api/rpc/${method}`, method: 'POST', agent,
        headers: { 'content-type': 'application/json', 'x-recto-token': server.token, 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => {
          if (response.statusCode !== 200) return reject(new Error(`${method}: HTTP ${response.statusCode} ${text.slice(0, 200)}`));
          resolve(replyEnvelopeSchema.parse(JSON.parse(text)));
        });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** An RPC over one event socket, as the renderer sends while the socket is open: request ids, replies by id. */
async function socketRpc(): Promise<{ rpc: Rpc; close(): void }> {
  const socket = new WebSocket(`ws://127.0.0.1:${server.port}/api/events?token=${server.token}`);
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const waiting = new Map<number, { resolve(envelope: ReplyEnvelope): void; reject(error: Error): void }>();
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as unknown;
    const reply = socketReplySchema.safeParse(message);
    if (!reply.success) return; // an event (page.updated …)
    waiting.get(reply.data.reply)?.resolve(replyEnvelopeSchema.parse(reply.data.body));
    waiting.delete(reply.data.reply);
  });
  socket.on('close', () => {
    for (const pending of waiting.values()) pending.reject(new Error('socket closed with a request unanswered'));
  });
  let next = 0;
  return {
    rpc: (method, params) =>
      new Promise((resolve, reject) => {
        const id = ++next;
        waiting.set(id, { resolve, reject });
        socket.send(JSON.stringify({ id, method, params }));
      }),
    close: () => socket.close(),
  };
}

/** What the analysts were told, save by save. */
const ledger = {
  textAcks: [] as { revisionId: string; text: string }[],
  fieldAcks: [] as { revisionId: string; field: string; value: number | string }[],
  textConflicts: [] as { conflictId: string; text: string }[],
  fieldConflicts: [] as { conflictId: string; value: number | string | null }[],
  otherErrors: [] as string[],
  uncoded: 0,
  saves: 0,
};

function conflictOf(reply: ReplyEnvelope): ConflictDetail | null {
  if (reply.ok) return null;
  if (!reply.error.code) ledger.uncoded++;
  if (reply.error.code !== 'conflict') {
    ledger.otherErrors.push(`${reply.error.code}: ${reply.error.message}`);
    return null;
  }
  return conflictDetailSchema.parse(reply.error.detail);
}

function recordConflict(detail: ConflictDetail): void {
  if (detail.kind === 'revision') ledger.textConflicts.push({ conflictId: detail.conflict.id, text: detail.conflict.text });
  else ledger.fieldConflicts.push({ conflictId: detail.conflict.id, value: detail.conflict.value });
}

/** One analyst: text edits on the pages in turn (the autosave chain), a field now and then, choices on conflicts. */
async function analyst(n: number, until: number, rpc: Rpc): Promise<void> {
  const parents = new Map<string, string | null>();
  for (const pageId of pageIds) {
    const review = await rpc('pages.getReview', { pageId });
    if (!review.ok) throw new Error(review.error.message);
    parents.set(pageId, (review.result as { latestRevision: Revision | null }).latestRevision?.id ?? null);
  }
  let fieldBase = new Map<string, string | null>(FIELDS.map((f) => [f, null]));
  for (let step = 0; Date.now() < until; step++) {
    const pageId = pageIds[(n + step) % pageIds.length]!;
    const text = `Analyst ${n}, edit ${step} of page ${pageId.slice(0, 8)}`;
    ledger.saves++;
    const reply = await rpc('revisions.save', { pageId, text, parentId: parents.get(pageId) ?? null });
    if (reply.ok) {
      const saved = reply.result as Revision;
      ledger.textAcks.push({ revisionId: saved.id, text });
      parents.set(pageId, saved.id);
    } else {
      const detail = conflictOf(reply);
      if (detail?.kind === 'revision') {
        recordConflict(detail);
        // Chosen on what the view showed as theirs: by turns theirs, mine, a merge.
        const choice = (['theirs', 'mine', 'merged'] as const)[step % 3]!;
        const merged = `${detail.conflict.theirs.text}\n${text}`;
        const resolved = await rpc('revisions.resolveConflict', { conflictId: detail.conflict.id, choice, text: choice === 'merged' ? merged : undefined, parentId: detail.conflict.theirs.id });
        if (resolved.ok) {
          const { revision } = resolved.result as { revision: Revision | null };
          if (revision) ledger.textAcks.push({ revisionId: revision.id, text: choice === 'merged' ? merged : text });
          parents.set(pageId, revision?.id ?? detail.conflict.theirs.id);
        } else {
          const again = conflictOf(resolved);
          if (again?.kind === 'revision') {
            recordConflict(again);
            parents.set(pageId, again.conflict.theirs.id);
          }
        }
      }
    }
    if (step % 4 === 0) {
      const field = FIELDS[step % FIELDS.length]!;
      const value = field === 'total' ? n * 1000 + step : `R-${n}-${step}`;
      ledger.saves++;
      const saved = await rpc('fields.save', { pageId: pageIds[0], field, value, basedOn: fieldBase.get(field) ?? null });
      if (saved.ok) {
        const revision = saved.result as FieldRevision;
        ledger.fieldAcks.push({ revisionId: revision.id, field, value });
        fieldBase = new Map(fieldBase).set(field, revision.id);
      } else {
        const detail = conflictOf(saved);
        if (detail?.kind === 'field') {
          recordConflict(detail);
          // Theirs taken: the next edit of the field is based on it.
          const taken = await rpc('fields.resolveConflict', { conflictId: detail.conflict.id, choice: 'theirs', basedOn: detail.conflict.theirs.id });
          if (!taken.ok) conflictOf(taken);
          fieldBase = new Map(fieldBase).set(field, detail.conflict.theirs.id);
        }
      }
    }
  }
}

describe('20 analysts saving at once over the RPC', () => {
  it('lose no acknowledged save, and every refusal has an error code (a conflict keeps its text)', async () => {
    const until = Date.now() + SECONDS * 1000;
    const sockets = await Promise.all(Array.from({ length: ANALYSTS / 2 }, () => socketRpc()));
    await Promise.all(Array.from({ length: ANALYSTS }, (_, n) => analyst(n, until, n % 2 === 0 ? httpRpc : sockets[(n - 1) / 2]!.rpc)));
    for (const socket of sockets) socket.close();

    const file = session.store.file;
    await session.close();
    const store = ProjectStore.open(file);
    try {
      const revisions = new Map(pageIds.flatMap((pageId) => store.revisions.listRevisions(pageId)).map((r) => [r.id, r.text]));
      const lostTexts = ledger.textAcks.filter((ack) => revisions.get(ack.revisionId) !== ack.text);
      const fieldRevisions = new Map(store.fieldRevisions.list(pageIds[0]!).map((r) => [r.id, r]));
      const lostFields = ledger.fieldAcks.filter((ack) => {
        const kept = fieldRevisions.get(ack.revisionId);
        return !kept || kept.field !== ack.field || kept.newValue !== ack.value;
      });
      const keptTexts = ledger.textConflicts.filter((c) => store.saveConflicts.textConflict(c.conflictId).text === c.text);
      const keptFields = ledger.fieldConflicts.filter((c) => store.saveConflicts.fieldConflict(c.conflictId).value === c.value);
      console.log(
        `concurrentSaves: ${ANALYSTS} analysts, ${SECONDS} s: ${ledger.saves} saves, ${ledger.textAcks.length} text and ${ledger.fieldAcks.length} field saves acknowledged, ` +
          `${ledger.textConflicts.length} text and ${ledger.fieldConflicts.length} field conflicts kept, ${ledger.otherErrors.length} other errors`,
      );
      // The run did what it is for: many saves, and analysts meeting each other's revisions.
      expect(ledger.textAcks.length).toBeGreaterThan(ANALYSTS);
      expect(ledger.textConflicts.length).toBeGreaterThan(0);
      expect(ledger.fieldConflicts.length).toBeGreaterThan(0);
      expect(lostTexts).toEqual([]);
      expect(lostFields).toEqual([]);
      expect(keptTexts).toHaveLength(ledger.textConflicts.length);
      expect(keptFields).toHaveLength(ledger.fieldConflicts.length);
      expect(ledger.otherErrors).toEqual([]);
      expect(ledger.uncoded).toBe(0);
      // The page's revision chain has no hole: every revision's parent is in it.
      for (const pageId of pageIds) {
        const ids = new Set(store.revisions.listRevisions(pageId).map((r) => r.id));
        expect(store.revisions.listRevisions(pageId).filter((r) => r.parentId !== null && !ids.has(r.parentId))).toEqual([]);
      }
      expect(store.auditChain().verify().intact).toBe(true);
    } finally {
      store.close();
    }
  }, 120_000);
});

/**
 * Fuzzing the RPC surface of the browser shell, as anyone on the machine could: a few thousand random and mutated
 * requests per run (seeded, so a failure is reproducible: RECTO_FUZZ_SEED=N, RECTO_FUZZ_RUNS=N), covering every
 * contract method plus unknown ones, bad headers, broken bodies and odd URLs. Every reply must be a status the
 * server means to send (never 500), a well-formed envelope, a result valid against the method's reply schema or a
 * coded error other than "internal" — and the server must still answer afterwards.
 *
 * Paths in the requests are kept inside this test's folder or are ones that are only read (a request for a project
 * at a random absolute path would create it there).
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractMethods, isMethodName, type MethodName } from '../../../app/contract/methods.js';
import WebSocket from 'ws';
import { replyEnvelopeSchema, socketReplySchema, type SocketReply } from '../../../app/contract/wire.js';
import { createDispatch } from '../../services/dispatch.js';
import { createHandlers } from '../../services/handlers.js';
import type { RectoSession } from '../../services/rectoSession.js';
import { startBrowserServer, type BrowserServer } from './browserServer.js';
import { echoSession } from '../../../testing/echoSession.js';

const seed = Number(process.env.RECTO_FUZZ_SEED ?? 20261201);
const runs = Number(process.env.RECTO_FUZZ_RUNS ?? 3000);
const socketRuns = Math.ceil(runs / 3);
/** Statuses the server answers on purpose; anything else (500 above all) is a failure. */
const expectedStatuses = new Set([200, 400, 401, 404, 405, 413, 415, 421]);

let dir: string;
let session: RectoSession;
let server: BrowserServer;
let pageIds: string[] = [];
const sent = { requests: 0, byMethod: new Map<string, number>() };

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-fuzz-'));
  for (const folder of ['docs', 'out', 'samples', 'renderer']) fs.mkdirSync(path.join(dir, folder));
  fs.writeFileSync(path.join(dir, 'docs', 'two.pdf'), 'PAGES 2');
  fs.writeFileSync(path.join(dir, 'docs', 'junk.txt'), 'not a document');
  fs.writeFileSync(path.join(dir, 'renderer', 'index.html'), '<!doctype html><title>Recto</title>');
  session = echoSession(dir, { author: 'Fuzz' });
  await session.createProject(path.join(dir, 'fuzz.recto'));
  const imported = await session.importFiles([{ filePath: path.join(dir, 'docs', 'two.pdf') }]);
  pageIds = imported.imported.flatMap((document) => document.pages.map((page) => page.id));
  await session.queue.idle();
  let bound: BrowserServer | null = null;
  const handlers = createHandlers(session, {
    shell: 'browser',
    pageImageUrl: (pageId) => `/api/page-image/${encodeURIComponent(pageId)}?token=${bound?.token ?? ''}`,
  });
  server = bound = await startBrowserServer({
    dispatch: createDispatch(handlers, { log: () => undefined }),
    bus: session.bus,
    pageImagePath: (pageId) => session.pageImagePath(pageId),
    rendererDir: path.join(dir, 'renderer'),
  });
});

afterAll(async () => {
  await server?.close();
  await session?.dispose();
  fs.rmSync(dir, { recursive: true, force: true });
});

// ---- values -------------------------------------------------------------------------------------------------------

/** Strings an attacker would try, beside random ones. */
const hostileStrings = fc.constantFrom(
  '',
  '..',
  '../../etc/passwd',
  '/etc/passwd',
  '/proc/self/status',
  'C:\\Windows\\win.ini',
  '\\\\server\\share',
  'a\0b',
  '%00',
  '\u202e\ufeff',
  'x'.repeat(5000),
  '__proto__',
  'constructor',
  '<script>alert(1)</script>',
);
const anyString = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 40 }), hostileStrings);

/** Paths inside the test folder (which may be created), relative ones (refused) and existing files only read. */
function pathArb(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.string({ maxLength: 12 }).map((name) => path.join(dir, 'out', name.replace(/[/\\\0]/g, '_') || 'x')),
    fc.constantFrom(
      path.join(dir, 'fuzz.recto'),
      path.join(dir, 'docs', 'two.pdf'),
      path.join(dir, 'docs', 'junk.txt'),
      path.join(dir, 'docs'),
      path.join(dir, 'out'),
      path.join(dir, 'missing', 'deep', 'p.recto'),
      '/etc/passwd',
      '/proc/self/status',
      '/dev/null',
    ),
    anyString.filter((value) => !value.startsWith('/') && !/^[A-Za-z]:[\\/]|^\\\\/.test(value)),
  );
}
const pageIdArb = () => fc.oneof(fc.constantFrom(...pageIds), anyString);
const engineArb = fc.option(fc.oneof(fc.constantFrom('echo', 'bundled'), anyString), { nil: undefined });
const statusArb = fc.constantFrom('unreviewed', 'in-review', 'approved', 'rejected');
const filterArb = fc.record(
  {
    status: statusArb,
    engine: engineArb,
    kind: fc.constantFrom('table', 'text', 'formula', 'title'),
    documentId: anyString,
    changedOnly: fc.boolean(),
  },
  { requiredKeys: [] },
);

/** Requests close to valid for each method (mutations below make them invalid in many ways). */
const validish: Partial<Record<MethodName, () => fc.Arbitrary<unknown>>> = {
  'project.create': () => fc.record({ path: pathArb() }),
  'project.open': () => fc.record({ path: pathArb() }),
  'project.merge': () => fc.record({ path: pathArb() }),
  'dialog.chooseExportFolder': () => fc.record({ defaultPath: fc.option(pathArb(), { nil: undefined }) }),
  'settings.set': () =>
    fc.record(
      { authorName: anyString, engine: fc.constantFrom('echo', 'echo', 'nope'), recentProjects: fc.array(pathArb(), { maxLength: 3 }) },
      { requiredKeys: [] },
    ),
  'documents.importPaths': () => fc.record({ paths: fc.array(pathArb(), { minLength: 1, maxLength: 3 }), engine: engineArb }),
  'documents.importData': () =>
    fc.record({
      name: anyString,
      dataBase64: fc.oneof(
        fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes).toString('base64')),
        fc.constantFrom(Buffer.from('PAGES 1').toString('base64'), '!!!not base64!!!'),
      ),
      engine: engineArb,
    }),
  'pages.getReview': () => fc.record({ pageId: pageIdArb() }),
  'pages.getReviewAndFields': () => fc.record({ pageId: pageIdArb() }),
  'pages.reread': () => fc.record({ pageId: pageIdArb(), engine: engineArb }),
  'pages.setReviewStatus': () => fc.record({ pageId: pageIdArb(), status: statusArb }),
  'revisions.save': () =>
    fc.record({
      pageId: pageIdArb(),
      text: fc.oneof(fc.string({ maxLength: 300 }), fc.constantFrom('| a | b |\n|---|---|\n| 1 | 2 |', '<table><tr><td rowspan="99999">x</td></tr></table>', '$$\\frac{1}{0}$$')),
      parentId: fc.option(anyString, { nil: null }),
    }),
  'revisions.list': () => fc.record({ pageId: pageIdArb() }),
  'jobs.cancel': () => fc.record({ jobId: anyString }),
  'curation.list': () =>
    fc.record(
      {
        filter: filterArb,
        sort: fc.constantFrom('score', 'text', 'tables', 'changed', 'revisionAt', 'nope'),
        offset: fc.integer({ min: -5, max: 1_000_000 }),
        limit: fc.integer({ min: -5, max: 1000 }),
        minScore: fc.double(),
        maxScore: fc.double(),
      },
      { requiredKeys: [] },
    ),
  'curation.summary': () => filterArb,
  'curation.page': () => fc.record({ pageId: pageIdArb() }),
  'corpus.export': () =>
    fc.record(
      { outDir: pathArb(), status: statusArb, since: fc.constantFrom('2020-01-01T00:00:00Z', 'yesterday'), images: fc.constantFrom('png', 'none', 'gif') },
      { requiredKeys: ['outDir'] },
    ),
  'corpus.import': () => fc.record({ dir: pathArb() }),
};

/** A value replaced, dropped or wrapped: the shapes a careless or hostile client sends. */
function mutate(value: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  const junk = fc.oneof(fc.jsonValue({ maxDepth: 3 }), anyString, fc.constantFrom(null, -1, 1e308, Number.NaN, [], {}));
  return fc.oneof(
    { weight: 6, arbitrary: value },
    {
      weight: 3,
      arbitrary: fc.tuple(value, fc.nat(), junk).map(([request, index, replacement]) => {
        if (!request || typeof request !== 'object') return replacement;
        const keys = Object.keys(request);
        if (keys.length === 0) return { [String(index)]: replacement };
        return { ...request, [keys[index % keys.length]!]: replacement };
      }),
    },
    { weight: 1, arbitrary: value.map((request) => (request && typeof request === 'object' ? { ...request, extra: true } : request)) },
    { weight: 1, arbitrary: junk },
  );
}

const methodNames = Object.keys(contractMethods) as MethodName[];

interface FuzzRequest {
  kind: 'rpc' | 'image' | 'get';
  target: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
}

function rpcRequest(): fc.Arbitrary<FuzzRequest> {
  const method = fc.oneof(
    { weight: 20, arbitrary: fc.constantFrom(...methodNames) },
    { weight: 1, arbitrary: anyString },
    { weight: 1, arbitrary: fc.constantFrom('constructor', 'toString', '__proto__', 'hasOwnProperty') },
  );
  return method.chain((name) => {
    const params = isMethodName(name) && validish[name] ? mutate(validish[name]!()) : mutate(fc.jsonValue({ maxDepth: 2 }));
    const body = fc.oneof(
      { weight: 12, arbitrary: params.map((value) => JSON.stringify(value) ?? '') },
      { weight: 1, arbitrary: params.map((value) => (JSON.stringify(value) ?? '').slice(0, -1)) },
      { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }) },
    );
    const headers = fc.oneof(
      { weight: 12, arbitrary: fc.constant({ 'x-recto-token': server.token, 'content-type': 'application/json' }) },
      { weight: 1, arbitrary: fc.constant({ 'content-type': 'application/json' }) },
      { weight: 1, arbitrary: fc.constant({ 'x-recto-token': server.token, 'content-type': 'text/plain' }) },
    );
    const encoded = fc.oneof(
      { weight: 12, arbitrary: fc.constant(encodeURIComponent(name)) },
      { weight: 1, arbitrary: fc.constantFrom('%zz', '%', '..%2f..%2f', '%00', `${encodeURIComponent(name)}/extra`) },
    );
    return fc.record({ body, headers, encoded, httpMethod: fc.constantFrom('POST', 'POST', 'POST', 'POST', 'GET', 'PUT') }).map(
      ({ body: text, headers: sentHeaders, encoded: pathPart, httpMethod }): FuzzRequest => ({
        kind: 'rpc',
        target: `/api/rpc/${pathPart}`,
        method: httpMethod,
        headers: sentHeaders,
        body: text,
      }),
    );
  });
}

function otherRequest(): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(
    fc.tuple(pageIdArb(), fc.boolean()).map(([pageId, withToken]) => ({
      kind: 'image' as const,
      target: `/api/page-image/${encodeURIComponent(pageId)}${withToken ? `?token=${server.token}` : ''}`,
      method: 'GET',
      headers: {},
    })),
    fc.constantFrom('/', '//', '/..%2f..%2fetc/passwd', '/%zz', '/api/events', '/index.html?x=%', '/api/page-image/%E0%A4%A').map((target) => ({
      kind: 'get' as const,
      target,
      method: 'GET',
      headers: {},
    })),
  );
}

// ---- the wire -----------------------------------------------------------------------------------------------------

function send(request: FuzzRequest): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = http.request(
      { host: '127.0.0.1', port: server.port, path: request.target, method: request.method, headers: request.headers, agent: false },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(request.body);
  });
}

function checkReply(request: FuzzRequest, reply: { status: number; body: string }): void {
  expect(expectedStatuses, `${request.method} ${request.target} → ${reply.status}: ${reply.body.slice(0, 300)}`).toContain(reply.status);
  if (request.kind !== 'rpc' || reply.status !== 200) return;
  const envelope = replyEnvelopeSchema.parse(JSON.parse(reply.body));
  const method = decodeURIComponent(request.target.slice('/api/rpc/'.length));
  if (envelope.ok) {
    expect(isMethodName(method)).toBe(true);
    const valid = contractMethods[method as MethodName].reply.safeParse(envelope.result);
    expect(valid.success, `${method} replied outside its contract: ${reply.body.slice(0, 300)}`).toBe(true);
  } else {
    expect(envelope.error.code, `${method} (${request.body?.slice(0, 200)}): ${envelope.error.message}`).not.toBe('internal');
    expect(envelope.error.message.length).toBeGreaterThan(0);
  }
}

describe('RPC fuzzing of the browser shell', () => {
  it(`survives ${runs} random and mutated requests (seed ${seed}) with contract-valid replies`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof({ weight: 9, arbitrary: rpcRequest() }, { weight: 1, arbitrary: otherRequest() }), async (request) => {
        sent.requests += 1;
        const label = request.kind === 'rpc' ? request.target.slice('/api/rpc/'.length) : request.kind;
        sent.byMethod.set(label, (sent.byMethod.get(label) ?? 0) + 1);
        checkReply(request, await send(request));
      }),
      { seed, numRuns: runs, endOnFailure: true },
    );
    // Still alive, and still serving the project it had open (or another the fuzz opened).
    const alive = await send({ kind: 'rpc', target: '/api/rpc/app.info', method: 'POST', headers: { 'x-recto-token': server.token, 'content-type': 'application/json' }, body: '{}' });
    expect(alive.status).toBe(200);
    const covered = methodNames.filter((name) => sent.byMethod.has(encodeURIComponent(name)));
    console.log(`rpc fuzz: ${sent.requests} requests (seed ${seed}), ${covered.length}/${methodNames.length} contract methods`);
    expect(covered).toEqual(methodNames);
  }, 120_000);

  it(`survives ${socketRuns} random and mutated requests on the event socket (seed ${seed})`, async () => {
    const socket = new WebSocket(`ws://127.0.0.1:${server.port}/api/events?token=${server.token}`);
    await new Promise((resolve, reject) => (socket.on('open', resolve), socket.on('error', reject)));
    const waiting = new Map<number, (reply: SocketReply) => void>();
    socket.on('message', (data) => {
      const value = JSON.parse(String(data)) as { reply?: number };
      if (typeof value.reply === 'number') waiting.get(value.reply)?.(socketReplySchema.parse(value));
    });
    let nextId = 1;
    const methods = new Set<string>();
    await fc.assert(
      fc.asyncProperty(socketMessage(), async ({ method, params, shape }) => {
        const id = nextId++;
        const request = { id, method, params };
        if (shape !== 'request') {
          // Not a request (truncated, an id that is not one, no method): ignored, and the next request is answered.
          const text = shape === 'truncated' ? JSON.stringify(request).slice(0, -1) : JSON.stringify({ ...request, id: shape === 'bad-id' ? String(id) : id, method: shape === 'no-method' ? undefined : method });
          socket.send(text);
          return;
        }
        methods.add(method);
        const replied = new Promise<SocketReply>((resolve) => waiting.set(id, resolve));
        socket.send(JSON.stringify(request));
        const reply = await replied;
        waiting.delete(id);
        expect(reply.reply).toBe(id);
        expect(reply.method).toBe(method);
        const envelope = replyEnvelopeSchema.parse(reply.body);
        if (envelope.ok) {
          const valid = contractMethods[method as MethodName].reply.safeParse(envelope.result);
          expect(valid.success, `${method} replied outside its contract on the socket`).toBe(true);
        } else {
          expect(envelope.error.code, `${method} on the socket: ${envelope.error.message}`).not.toBe('internal');
        }
      }),
      { seed, numRuns: socketRuns, endOnFailure: true },
    );
    const alive = new Promise<SocketReply>((resolve) => waiting.set(0, resolve));
    socket.send(JSON.stringify({ id: 0, method: 'app.info', params: {} }));
    expect(replyEnvelopeSchema.parse((await alive).body).ok).toBe(true);
    socket.close();
    console.log(`socket fuzz: ${socketRuns} messages (seed ${seed}), ${[...methods].filter(isMethodName).length}/${methodNames.length} contract methods`);
  }, 120_000);
});

/** A socket message: a method (mostly from the contract) with close-to-valid params, or a message that is no request. */
function socketMessage(): fc.Arbitrary<{ method: string; params: unknown; shape: 'request' | 'truncated' | 'bad-id' | 'no-method' }> {
  const method = fc.oneof({ weight: 20, arbitrary: fc.constantFrom(...methodNames) }, { weight: 1, arbitrary: anyString });
  return method.chain((name) =>
    fc.record({
      method: fc.constant(name),
      params: isMethodName(name) && validish[name] ? mutate(validish[name]!()) : mutate(fc.jsonValue({ maxDepth: 2 })),
      shape: fc.constantFrom('request', 'request', 'request', 'request', 'request', 'request', 'truncated', 'bad-id', 'no-method'),
    }),
  );
}

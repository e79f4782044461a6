/**
 * The /v1 routes under hostile requests (issue 23, holes 6, 7, 8, 11), with a fake engine that records what reached
 * it: the key opens /v1 only and the RPC token never opens /v1; sizes, load, image shape and prompt length are
 * refused with a 4xx before the engine is asked; engine errors name no path; a half-sent body logs one line. Then a
 * seeded fuzz: random and mutated requests never get a 500 and never reach the engine unchecked.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { EventBus } from '../../events/eventBus.js';
import { startBrowserServer, type BrowserServer } from './browserServer.js';
import { openAiRoutes, type ChatModel } from './openAiRoutes.js';
import { MAX_BODY_BYTES, MAX_HELD_BYTES, MAX_PROMPT_CHARS_PER_POSITION } from './v1Limits.js';

const token = 'rpc-token-0123456789abcdefghijkl';
const apiKey = 'recto-v1-key-0123456789abcdefghij';
const MODEL = 'fake-ocr';
const MAX_POSITIONS = 1000;
let dir: string;
let server: BrowserServer;
let png: string;
const reads: string[] = [];
let engineError: string | null = null;

const fakeModel: ChatModel = {
  packInfo: async () => ({ maxPositions: MAX_POSITIONS }),
  readText: async (_imagePath, _label, request) => {
    reads.push(request.prompt ?? '');
    if (engineError) throw new Error(engineError);
    return { text: 'ok', tokens: 1, promptTokens: 1, hitMaxTokens: false };
  },
};

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-v1-'));
  fs.mkdirSync(path.join(dir, 'renderer'));
  fs.writeFileSync(path.join(dir, 'renderer', 'index.html'), '<!doctype html>');
  server = await startBrowserServer({
    dispatch: async (method) => ({ ok: true, result: { echo: method } }),
    bus: new EventBus(),
    pageImagePath: async () => path.join(dir, 'none.png'),
    rendererDir: path.join(dir, 'renderer'),
    token,
    extraRoutes: openAiRoutes({ modelId: MODEL, apiKey, licence: null, scratchDir: path.join(dir, 'scratch'), model: async () => fakeModel }),
  });
  png = (await sharp({ create: { width: 40, height: 60, channels: 3, background: '#fff' } }).png().toBuffer()).toString('base64');
});
afterAll(async () => {
  await server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const chat = (image = png, prompt = 'Read the page.') => ({
  model: MODEL,
  messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: `data:image/png;base64,${image}` } }, { type: 'text', text: prompt }] }],
});

function send(pathname: string, options: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: server.port, path: pathname, method: options.method ?? 'POST', headers: { host: `127.0.0.1:${server.port}`, ...options.headers } },
      (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}
const v1 = (body: unknown, key = apiKey, headers: Record<string, string> = {}) =>
  send('/v1/chat/completions', { headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });

describe('the /v1 key', () => {
  it('opens /v1; the RPC token does not', async () => {
    expect((await v1(chat())).status).toBe(200);
    expect((await v1(chat(), token)).status).toBe(401);
    expect((await send('/v1/models', { method: 'GET', headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
  });

  it('does not open the RPC', async () => {
    const rpc = (key: string) => send('/api/rpc/app.info', { headers: { 'x-recto-token': key, 'content-type': 'application/json' }, body: '{}' });
    expect((await rpc(apiKey)).status).toBe(401);
    expect((await rpc(token)).status).toBe(200);
  });
});

async function pngOf(width: number, height: number): Promise<string> {
  // A PNG header claiming the size, then a tiny valid body is not needed: the header alone is judged.
  const real = await sharp({ create: { width: 1, height: 1, channels: 3, background: '#fff' } }).png().toBuffer();
  const forged = Buffer.from(real);
  forged.writeUInt32BE(width, 16);
  forged.writeUInt32BE(height, 20);
  return forged.toString('base64');
}

describe('limits before work', () => {
  it.each([
    [1, 100_000_000, /longer than 100 times its width/],
    [100_000_000, 1, /longer than 100 times its width/],
    [30_000, 20_000, /sides over 20,000 px/],
    [19_000, 19_000, /over 36,000,000 pixels/],
  ])('a %i × %i image is a 400 before the engine', async (width, height, message) => {
    const before = reads.length;
    const answer = await v1(chat(await pngOf(width, height)));
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body).error.message).toMatch(message);
    expect(reads.length).toBe(before);
  });

  it('a prompt longer than the positions can hold is a 400 before the engine', async () => {
    const before = reads.length;
    const answer = await v1(chat(png, 'x'.repeat(MAX_POSITIONS * MAX_PROMPT_CHARS_PER_POSITION + 1)));
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body).error.code).toBe('context_length_exceeded');
    expect(reads.length).toBe(before);
  });

  it('a body declared over the limit is a 413 before it is read; a load over the budget a 429', async () => {
    const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
    const tooLarge = await rawStatus({ ...headers, 'content-length': String(MAX_BODY_BYTES + 1) });
    expect(tooLarge).toBe(413);
    // Hold the budget with uploads that never finish, then one more is told to come back.
    const holders = Array.from({ length: Math.floor(MAX_HELD_BYTES / MAX_BODY_BYTES) }, () => holdOpen({ ...headers, 'content-length': String(MAX_BODY_BYTES) }));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await rawStatus({ ...headers, 'content-length': String(MAX_BODY_BYTES) })).toBe(429);
    for (const h of holders) h.destroy();
  });

  it('an engine error names no file; a half-sent body logs one line, not a stack', async () => {
    engineError = 'failed at /home/build/onnxruntime/core/session/inference_session.cc:123 with /opt/x/y';
    const answer = await v1(chat());
    engineError = null;
    expect(answer.status).toBe(500);
    expect(answer.body).not.toMatch(/onnxruntime\/core|\/home\//);
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const half = holdOpen({ authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', 'content-length': '1000' }, '{"mod');
    await new Promise((resolve) => setTimeout(resolve, 100));
    half.destroy();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(log.mock.calls.length).toBe(1);
    expect(String(log.mock.calls[0]![0])).not.toMatch(/\n\s+at /);
    log.mockRestore();
  });
});

function holdOpen(headers: Record<string, string>, first = 'x'): http.ClientRequest {
  const req = http.request({ host: '127.0.0.1', port: server.port, path: '/v1/chat/completions', method: 'POST', headers: { host: `127.0.0.1:${server.port}`, ...headers } });
  req.on('error', () => {});
  req.write(first);
  return req;
}

function rawStatus(headers: Record<string, string>): Promise<number> {
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port: server.port, path: '/v1/chat/completions', method: 'POST', headers: { host: `127.0.0.1:${server.port}`, ...headers } }, (res) => {
      resolve(res.statusCode ?? 0);
      res.resume();
      req.destroy();
    });
    req.on('error', () => resolve(0));
    req.write('{');
  });
}

describe('/v1 fuzz', () => {
  it('random and mutated requests get a 2xx or 4xx, never a 500, and the server answers afterwards', async () => {
    const valid = JSON.stringify(chat());
    const mutated = fc.tuple(fc.nat({ max: valid.length }), fc.string({ maxLength: 12 }), fc.nat({ max: 40 })).map(([at, insert, cut]) => valid.slice(0, at) + insert + valid.slice(at + cut));
    const anyJson = fc.jsonValue().map((v) => JSON.stringify(v));
    await fc.assert(
      fc.asyncProperty(fc.oneof(mutated, anyJson, fc.string({ maxLength: 200 })), fc.constantFrom(apiKey, token, ''), async (body, key) => {
        const answer = await v1(body, key);
        expect(answer.status).toBeLessThan(500);
        if (key !== apiKey) expect(answer.status).toBe(401);
      }),
      { numRuns: Number(process.env.RECTO_FUZZ_RUNS ?? 300), seed: Number(process.env.RECTO_FUZZ_SEED ?? 23) },
    );
    expect((await v1(chat())).status).toBe(200);
  });
});

/**
 * The remote engine against a scripted local server: the request vLLM would accept, grounding boxes parsed, and the
 * failures the issue names — 500, 429 with Retry-After, a connection dropped mid-stream, a stall, an endpoint that
 * stays down, a request refused — each retried (or not) as specified, with a per-page error that names the endpoint.
 * Only 127.0.0.1; backoffs of a few milliseconds; no assertion on time.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EngineEvent, PageInput } from '../../app/model/engine.js';
import { extractionSchema } from '../../app/model/extraction.js';
import { GROUNDING_PROMPT } from './chatRequest.js';
import { chatCompletionRequestSchema } from './openAiSchema.js';
import { RemoteEngine, type RemoteEngineOptions } from './remoteEngine.js';
import { parseRetryAfter, RemoteRequestError, retryDelayMs, defaultRetryPolicy } from './retryPolicy.js';
import { startFakeChatServer, type FakeChatServer } from '../../testing/fakeChatServer.js';

let dir: string;
let page: PageInput;
let fake: FakeChatServer;
const engines: RemoteEngine[] = [];
const fastRetry = { retries: 3, baseDelayMs: 5, maxDelayMs: 20 };

function engine(options: Partial<RemoteEngineOptions> = {}): RemoteEngine {
  const created = new RemoteEngine({ endpoints: [fake.url], retry: fastRetry, timeoutMs: 5_000, idleTimeoutMs: 2_000, ...options });
  engines.push(created);
  return created;
}

/** A port with nothing listening (bound, then closed). */
async function deadEndpoint(): Promise<string> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-remote-'));
  const imagePath = path.join(dir, 'page.png');
  // Any bytes do: the fake server never decodes them. A real PNG signature keeps the data URL honest.
  fs.writeFileSync(imagePath, Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('page one')]));
  page = { imagePath, width: 1000, height: 2000, dpi: 144, textLayer: null, label: 'inv.pdf p. 1' };
});

afterEach(async () => {
  await Promise.all(engines.splice(0).map((e) => e.dispose()));
  await fake?.close();
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('RemoteEngine', () => {
  it('sends the page as a base64 image_url with the grounding prompt, in the OpenAI schema, and parses the boxes', async () => {
    fake = await startFakeChatServer({ model: 'jina-ocr-v1' });
    const tokens: string[] = [];
    const result = await engine({ apiKey: 'sk-secret' }).read(page, { onEvent: (e: EngineEvent) => e.type === 'token' && tokens.push(e.text) });
    const body = chatCompletionRequestSchema.parse(fake.requests[0]);
    expect(body.model).toBe('jina-ocr-v1'); // asked from /v1/models
    expect(body.stream).toBe(true);
    expect(body.temperature).toBe(0);
    expect((body as Record<string, unknown>).skip_special_tokens).toBe(false);
    expect((body as Record<string, unknown>).vllm_xargs).toEqual({ ngram_size: 30, window_size: 90, whitelist_token_ids: [128821, 128822] });
    const content = body.messages[0]!.content as { type: string; text?: string; image_url?: { url: string } }[];
    expect(content[0]!.image_url!.url).toBe(`data:image/png;base64,${fs.readFileSync(page.imagePath).toString('base64')}`);
    expect(content[1]!.text).toBe(GROUNDING_PROMPT);
    expect(() => extractionSchema.parse(result)).not.toThrow();
    expect(result.markdown).toMatch(/^# Page [0-9a-f]{12}\n\nTotal due: 42\.00 EUR/);
    // 0–999 grounding coordinates → page pixels (1000 × 2000), as the local engine's parser does.
    const pixels = (box: number[]) => box.map((v, i) => expect.closeTo((v / 999) * (i % 2 === 0 ? 1000 : 2000), 6));
    expect(result.elements.map((e) => [e.kind, e.box])).toEqual([
      ['title', pixels([100, 50, 900, 120])],
      ['text', pixels([100, 200, 900, 300])],
    ]);
    expect(tokens.join('')).toContain('# Page');
    expect(result.engine).toMatchObject({ id: 'remote', provider: 'remote', settings: { endpoint: fake.url, model: 'jina-ocr-v1', attempts: 1, stream: true } });
    expect(result.stats.tokens).toBe(30);
    expect(JSON.stringify(result)).not.toContain('sk-secret');
  });

  it('reads non-streamed answers the same way', async () => {
    fake = await startFakeChatServer();
    const streamed = await engine({ model: 'fake-ocr' }).read(page);
    const whole = await engine({ model: 'fake-ocr', stream: false }).read(page);
    expect(chatCompletionRequestSchema.parse(fake.requests[1]).stream).toBe(false);
    expect(whole.markdown).toBe(streamed.markdown);
    expect(whole.elements).toEqual(streamed.elements);
  });

  it('retries 500s and a 429, honouring its Retry-After, then reads the page', async () => {
    fake = await startFakeChatServer();
    fake.faults.push({ kind: 'status', status: 500 }, { kind: 'status', status: 503 }, { kind: 'status', status: 429, retryAfter: '1' });
    const messages: string[] = [];
    const result = await engine({ model: 'fake-ocr' }).read(page, { onEvent: (e) => e.type === 'progress' && e.message && messages.push(e.message) });
    expect(fake.requests).toHaveLength(4);
    expect(result.engine.settings.attempts).toBe(4);
    expect(messages.filter((m) => /trying again/.test(m))).toHaveLength(3);
    expect(messages.find((m) => /HTTP 429/.test(m))).toMatch(/trying again in 1\.0 s/);
  });

  it('retries a connection dropped mid-stream and a stalled stream', async () => {
    fake = await startFakeChatServer();
    fake.faults.push({ kind: 'drop' }, { kind: 'stall' });
    const messages: string[] = [];
    const result = await engine({ model: 'fake-ocr', idleTimeoutMs: 300 }).read(page, { onEvent: (e) => e.type === 'progress' && e.message && messages.push(e.message) });
    expect(result.markdown).toMatch(/^# Page/); // the whole answer, not the fragment before the drop
    expect(result.engine.settings.attempts).toBe(3);
    expect(messages.some((m) => /connection dropped during the answer/.test(m))).toBe(true);
    expect(messages.some((m) => /stalled/.test(m))).toBe(true);
  });

  it('gives up after the per-request timeout and the retries, with a per-page error naming the endpoint', async () => {
    fake = await startFakeChatServer();
    fake.faults.push({ kind: 'delay', ms: 2_000 }, { kind: 'delay', ms: 2_000 });
    const slow = engine({ model: 'fake-ocr', timeoutMs: 200, retry: { ...fastRetry, retries: 1 } });
    await expect(slow.read(page)).rejects.toThrow(new RegExp(`^inv\\.pdf p\\. 1: no answer from ${fake.url} after 2 attempts \\(.*no complete answer within 200 ms`));
  });

  it('an endpoint that stays down fails the page clearly; with a second endpoint the pages go there', async () => {
    fake = await startFakeChatServer();
    const down = await deadEndpoint();
    const alone = engine({ endpoints: [down], model: 'fake-ocr' });
    await expect(alone.read(page)).rejects.toThrow(new RegExp(`^inv\\.pdf p\\. 1: no answer from ${down} after 4 attempts \\(${down}: cannot connect \\(ECONNREFUSED\\)\\)`));
    expect(alone.endpointStatus()[0]).toMatchObject({ url: down, errors: 4, answered: 0, inFlight: 0 });

    const pair = engine({ endpoints: [down, fake.url], model: 'fake-ocr', concurrency: 2 });
    expect(pair.parallelism).toBe(4);
    const results = await Promise.all([1, 2, 3, 4, 5, 6].map((n) => pair.read({ ...page, label: `p${n}` })));
    expect(results.every((r) => r.engine.settings.endpoint === fake.url)).toBe(true);
    const [downStatus, upStatus] = pair.endpointStatus();
    expect(upStatus).toMatchObject({ answered: 6, errors: 0 });
    expect(downStatus!.answered).toBe(0);
    expect(downStatus!.errors).toBeGreaterThan(0);
    expect(downStatus!.lastError).toMatch(/ECONNREFUSED/);
  });

  it('does not retry a request the server refuses (400), and says so', async () => {
    fake = await startFakeChatServer();
    fake.faults.push({ kind: 'status', status: 400 });
    await expect(engine({ model: 'fake-ocr' }).read(page)).rejects.toThrow(/^inv\.pdf p\. 1: the server refused the page \(.*HTTP 400 scripted 400\)/);
    expect(fake.requests).toHaveLength(1);
  });

  it("handles both of vLLM's error shapes: a server error mid-stream is retried, a refusal is final, each said once", async () => {
    fake = await startFakeChatServer();
    fake.faults.push({ kind: 'streamError', shape: 'flat', code: 503 }, { kind: 'streamError', shape: 'nested', code: 500 });
    const result = await engine({ model: 'fake-ocr' }).read(page);
    expect(result.engine.settings.attempts).toBe(3);
    fake.faults.push({ kind: 'streamError', shape: 'flat', code: 400 });
    const refused = engine({ model: 'fake-ocr' }).read(page);
    await expect(refused).rejects.toThrow(/^inv\.pdf p\. 1: the server refused the page \(.*the server failed during the answer: scripted 400 mid-stream\)$/);
    await expect(refused).rejects.not.toThrow(/inv\.pdf p\. 1: .*inv\.pdf p\. 1/);
    fake.faults.push({ kind: 'flatStatus', status: 400 });
    await expect(engine({ model: 'fake-ocr' }).read(page)).rejects.toThrow(/HTTP 400 scripted flat 400\)$/);
  });

  it('keeps at most `concurrency` requests in flight per endpoint', async () => {
    fake = await startFakeChatServer();
    for (let i = 0; i < 6; i++) fake.faults.push({ kind: 'delay', ms: 50 });
    const limited = engine({ model: 'fake-ocr', concurrency: 2 });
    let peak = 0;
    const reads = [1, 2, 3, 4, 5, 6].map((n) => limited.read({ ...page, label: `p${n}` }));
    const watch = setInterval(() => (peak = Math.max(peak, limited.endpointStatus()[0]!.inFlight)), 5);
    await Promise.all(reads);
    clearInterval(watch);
    expect(peak).toBeLessThanOrEqual(2);
    expect(limited.endpointStatus()[0]).toMatchObject({ answered: 6, inFlight: 0 });
  });

  it('stops a read when it is cancelled, even while backing off', async () => {
    fake = await startFakeChatServer();
    fake.faults.push({ kind: 'status', status: 503, retryAfter: '60' });
    const controller = new AbortController();
    const reading = engine({ model: 'fake-ocr' }).read(page, { signal: controller.signal, onEvent: (e) => e.type === 'progress' && /trying again/.test(e.message ?? '') && controller.abort() });
    await expect(reading).rejects.toThrow(/reading was cancelled/);
  });

  it('is unavailable, saying why, without a usable endpoint', () => {
    expect(new RemoteEngine({ endpoints: [] }).descriptor).toMatchObject({ available: false, unavailableReason: 'no endpoint configured' });
    expect(new RemoteEngine({ endpoints: ['ftp://x'] }).descriptor.unavailableReason).toMatch(/ftp:\/\/x: not an endpoint URL/);
  });
});

describe('retry policy', () => {
  it('backs off exponentially with jitter, honours Retry-After (seconds or a date), and caps it', () => {
    const policy = { ...defaultRetryPolicy, baseDelayMs: 100, maxDelayMs: 1_000, maxRetryAfterMs: 5_000 };
    const http500 = new RemoteRequestError('http', 'HTTP 500', 500);
    expect([0, 1, 2, 3, 4].map((n) => retryDelayMs(n, http500, policy, () => 0))).toEqual([50, 100, 200, 400, 500]);
    expect([0, 1, 2, 3, 4].map((n) => retryDelayMs(n, http500, policy, () => 1))).toEqual([100, 200, 400, 800, 1000]);
    expect(retryDelayMs(0, new RemoteRequestError('http', 'HTTP 429', 429, 3_000), policy)).toBe(3_000);
    expect(retryDelayMs(0, new RemoteRequestError('http', 'HTTP 429', 429, 3_600_000), policy)).toBe(5_000);
    expect(parseRetryAfter('7')).toBe(7_000);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6_000);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(null)).toBeUndefined();
  });
});

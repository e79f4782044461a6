/**
 * `/v1` semantics as OpenAI clients rely on them, against the routes with a scripted model (no pack needed):
 * `stop` honoured, streamed and not; `GET /v1/models/{id}` (the SDK's models.retrieve()); parameters the server
 * cannot honour answered 400 naming what it supports; what Recto's remote engine sends accepted.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageChatRequest } from '../../../native-models/remote/index.js';
import { openAiRoutes, type ChatModel } from './openAiRoutes.js';
import { StopSequences, unsupportedParameter } from './v1Parameters.js';

const token = 'v1-test-token';
const reading = '# Invoice 17\n\nTotal due: 42.00 EUR\n\nThank you.';
let server: http.Server;
let origin: string;
let png: Buffer;
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-v1-'));

const model: ChatModel = {
  async packInfo() {
    return { maxPositions: 8192 };
  },
  async readText(_file, _label, _request, options) {
    for (let i = 0; i < reading.length; i += 3) options?.onEvent?.({ type: 'token', text: reading.slice(i, i + 3) });
    return { text: reading, tokens: 20, promptTokens: 300, hitMaxTokens: false };
  },
};

beforeAll(async () => {
  png = await sharp({ create: { width: 40, height: 60, channels: 3, background: 'white' } }).png().toBuffer();
  const routes = openAiRoutes({ modelId: 'jina-ocr-v1', apiKey: token, licence: 'CC-BY-NC-4.0', model: async () => model, scratchDir: scratch });
  server = http.createServer((request, response) => {
    void routes(request, response, new URL(request.url!, 'http://127.0.0.1'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  fs.rmSync(scratch, { recursive: true, force: true });
});

const body = (extra: Record<string, unknown> = {}) => ({ ...pageChatRequest({ model: 'jina-ocr-v1', png, stream: false }), ...extra });
const post = (json: unknown) =>
  fetch(`${origin}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(json) });

describe('/v1 semantics', () => {
  it('honours stop: the answer ends before the first stop string, finish_reason "stop", streamed or not', async () => {
    const plain = (await (await post(body({ stop: ['Total'] }))).json()) as { choices: { message: { content: string }; finish_reason: string }[] };
    expect(plain.choices[0]!.message.content).toBe('# Invoice 17\n\n');
    expect(plain.choices[0]!.finish_reason).toBe('stop');
    const streamed = await (await post(body({ stream: true, stop: '42.00' }))).text();
    const events = streamed.split('\n\n').filter((e) => e.startsWith('data: {')).map((e) => JSON.parse(e.slice(6)) as { choices: { delta: { content?: string }; finish_reason: string | null }[] });
    expect(events.map((e) => e.choices[0]?.delta.content ?? '').join('')).toBe('# Invoice 17\n\nTotal due: ');
    expect(events.at(-1)!.choices[0]!.finish_reason).toBe('stop');
  });

  it('answers GET /v1/models/{id} for the served model, 404 for another', async () => {
    const get = (id: string) => fetch(`${origin}/v1/models/${encodeURIComponent(id)}`, { headers: { authorization: `Bearer ${token}` } });
    const found = await get('jina-ocr-v1');
    expect(found.status).toBe(200);
    expect(await found.json()).toMatchObject({ id: 'jina-ocr-v1', object: 'model', owned_by: 'recto' });
    const missing = await get('gpt-4o');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: { code: 'model_not_found' } });
  });

  it('answers 400 naming what is supported for parameters it cannot honour; takes what the remote engine sends', async () => {
    for (const [name, value] of [['temperature', 0.7], ['top_p', 0.9], ['logprobs', true], ['response_format', { type: 'json_object' }], ['tools', [{ type: 'function', function: { name: 'f' } }]], ['best_of', 2], ['n', 2]] as const) {
      const answer = await post(body({ [name]: value }));
      expect(answer.status, name).toBe(400);
      const error = ((await answer.json()) as { error: { message: string; code: string; type: string } }).error;
      expect(error).toMatchObject({ code: 'unsupported_parameter', type: 'invalid_request_error' });
      expect(error.message.startsWith(`${name}:`)).toBe(true);
      expect(error.message).toMatch(/supported|takes/);
    }
    expect((await post(body({ seed: 7, temperature: 0 }))).status).toBe(200);
    // Outside the API's own range is a malformed request, not an unsupported one.
    expect(((await (await post(body({ n: 0 }))).json()) as { error: { code: string } }).error.code).toBe('invalid_request');
    expect(unsupportedParameter(pageChatRequest({ model: 'm', png, stream: true, maxTokens: 100 }) as unknown as Record<string, unknown>)).toBeNull();
  });
});

describe('stop strings over streamed pieces', () => {
  it('never sends a part of a stop string, nor anything after it', () => {
    const stops = new StopSequences(['END', 'STOP']);
    const sent = ['ab', 'cS', 'TO', 'xE', 'N', 'D'].map((piece) => stops.push(piece)).join('');
    expect(sent).toBe('abcSTOxEND'.slice(0, 'abcSTOxEND'.indexOf('END')));
    expect(stops.finish('abcSTOxENDmore')).toEqual({ text: 'abcSTOx', stopped: true });
  });
});

/**
 * `recto serve --pack` as an OpenAI-compatible server, with a reference pack: the remote engine reading through it
 * gives the same Extraction as the local engine on the same pages (streamed and not), and every bad request gets a
 * 4xx JSON error while the server keeps answering.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageInput } from '../../../app/model/engine.js';
import { extractionSchema } from '../../../app/model/extraction.js';
import { RemoteEngine } from '../../../native-models/remote/index.js';
import { VlmEngine } from '../../../native-models/vlm/index.js';
import { referencePackDir } from '../../../testing/referencePack/referencePackCache.js';
import { serve } from '../../cli/serveCommand.js';
import { packageRoot } from '../../util/packageRoot.js';
import type { BrowserServer } from './browserServer.js';

const token = 'test-token-0123456789abcdefghij';
/** The /v1 key: the only Bearer token /v1 accepts (the RPC token above never is). */
const apiKey = 'recto-v1-test-key-0123456789abcdef';
let home: string;
let packDir: string;
let server: BrowserServer;
let pages: PageInput[];
const engines: { dispose(): Promise<void> }[] = [];
const savedEnv = { home: process.env.RECTO_HOME, provider: process.env.RECTO_PROVIDER };

async function pageFrom(file: string, label: string): Promise<PageInput> {
  const meta = await sharp(file).metadata();
  return { imagePath: file, width: meta.width!, height: meta.height!, dpi: 144, textLayer: null, label };
}

beforeAll(async () => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-serve-v1-'));
  process.env.RECTO_HOME = home;
  process.env.RECTO_PROVIDER = 'cpu';
  packDir = await referencePackDir('high');
  server = await serve({ port: 0, packDir, token, apiKey, exitOnSignal: false, out: fs.createWriteStream(os.devNull) });
  const svgPage = path.join(home, 'svg-page.png');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="850" height="1100"><rect width="100%" height="100%" fill="white"/><text x="80" y="120" font-size="48">INVOICE 2024-17</text></svg>`;
  fs.writeFileSync(svgPage, await sharp(Buffer.from(svg)).png().toBuffer());
  const samples = path.join(packageRoot(), 'resources', 'samples');
  pages = [await pageFrom(svgPage, 'svg page p1'), await pageFrom(path.join(samples, 'northwind-invoice-scan.png'), 'northwind scan p1'), await pageFrom(path.join(samples, 'brightline-invoice-scan.png'), 'brightline scan p1')];
}, 180_000);

afterAll(async () => {
  await Promise.all(engines.map((engine) => engine.dispose()));
  await server?.close();
  process.env.RECTO_HOME = savedEnv.home;
  process.env.RECTO_PROVIDER = savedEnv.provider;
  if (savedEnv.home === undefined) delete process.env.RECTO_HOME;
  if (savedEnv.provider === undefined) delete process.env.RECTO_PROVIDER;
  fs.rmSync(home, { recursive: true, force: true });
});

function post(pathname: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${server.origin}${pathname}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

describe('recto serve --pack: /v1/chat/completions', () => {
  it('the remote engine through it reads the same Extraction as the local engine, streamed and not', async () => {
    const local = new VlmEngine({ packDir, provider: 'cpu' });
    const streamed = new RemoteEngine({ endpoints: [server.origin], apiKey, concurrency: 2 });
    const whole = new RemoteEngine({ endpoints: [`${server.origin}/v1`], apiKey, stream: false });
    engines.push(local, streamed, whole);
    for (const page of pages) {
      const expected = await local.read(page);
      const tokens: string[] = [];
      const [viaStream, viaJson] = await Promise.all([
        streamed.read(page, { onEvent: (event) => event.type === 'token' && tokens.push(event.text) }),
        whole.read(page),
      ]);
      for (const remote of [viaStream, viaJson]) {
        expect(() => extractionSchema.parse(remote)).not.toThrow();
        expect(remote.markdown).toBe(expected.markdown);
        expect(remote.elements).toEqual(expected.elements);
        expect(remote.stats.tokens).toBe(expected.stats.tokens);
        expect(remote.stats.hitMaxTokens).toBe(expected.stats.hitMaxTokens);
        expect(remote.engine.id).toBe('remote');
        expect(remote.engine.settings.model).toBe('recto-reference-high');
        expect(remote.engine.settings.attempts).toBe(1);
        expect(remote.engine.settings.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+/);
        expect(JSON.stringify(remote)).not.toContain(apiKey);
      }
      expect(tokens.length).toBeGreaterThan(0);
    }
    expect(streamed.endpointStatus()[0]).toMatchObject({ answered: pages.length, errors: 0, inFlight: 0 });
  }, 300_000);

  it('lists the pack as its model, with its licence, behind the token', async () => {
    const listed = await fetch(`${server.origin}/v1/models`, { headers: { authorization: `Bearer ${apiKey}` } });
    expect(listed.status).toBe(200);
    const body = (await listed.json()) as { data: { id: string; licence: string }[] };
    expect(body.data.map((model) => model.id)).toEqual(['recto-reference-high']);
    expect(body.data[0]!.licence).toMatch(/MIT/);
    expect((await fetch(`${server.origin}/v1/models`)).status).toBe(401);
    expect((await fetch(`${server.origin}/v1/models`, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
  });

  it('answers every bad request with a 4xx JSON error, and still reads the next good one', async () => {
    const png = fs.readFileSync(pages[0]!.imagePath).toString('base64');
    const message = (content: unknown) => ({ model: 'recto-reference-high', messages: [{ role: 'user', content }], max_tokens: 4 });
    const image = { type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } };
    const prompt = { type: 'text', text: '<|grounding|>Convert the document to markdown.' };
    const cases: [string, Promise<Response>, number][] = [
      ['no token', fetch(`${server.origin}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }), 401],
      ['not JSON', post('/v1/chat/completions', '{"model": '), 400],
      ['not JSON content type', post('/v1/chat/completions', '{}', { 'content-type': 'text/plain' }), 415],
      ['GET', fetch(`${server.origin}/v1/chat/completions`, { headers: { authorization: `Bearer ${apiKey}` } }), 405],
      ['no messages', post('/v1/chat/completions', { model: 'recto-reference-high', messages: [] }), 400],
      ['wrong part type', post('/v1/chat/completions', message([{ type: 'audio', data: 'x' }])), 400],
      ['unknown model', post('/v1/chat/completions', { ...message([image, prompt]), model: 'gpt-4o' }), 404],
      ['no image', post('/v1/chat/completions', message('Convert the document to markdown.')), 400],
      ['two images', post('/v1/chat/completions', message([image, image, prompt])), 400],
      ['remote image URL', post('/v1/chat/completions', message([{ type: 'image_url', image_url: { url: 'http://example.com/a.png' } }, prompt])), 400],
      ['not an image', post('/v1/chat/completions', message([{ type: 'image_url', image_url: { url: 'data:image/png;base64,bm90IGFuIGltYWdl' } }, prompt])), 400],
      ['negative max_tokens', post('/v1/chat/completions', { ...message([image, prompt]), max_tokens: -1 }), 400],
      ['unknown route', post('/v1/completions', {}), 404],
    ];
    for (const [name, reply, status] of cases) {
      const response = await reply;
      expect(response.status, name).toBe(status);
      const body = (await response.json()) as { error?: { message?: string } };
      expect(body.error?.message, name).toBeTruthy();
    }
    const good = await post('/v1/chat/completions', message([image, prompt]));
    expect(good.status).toBe(200);
    const answer = (await good.json()) as { choices: { message: { content: string }; finish_reason: string }[]; usage: { completion_tokens: number } };
    expect(answer.usage.completion_tokens).toBeLessThanOrEqual(4);
    expect(answer.choices[0]!.finish_reason).toMatch(/^(stop|length)$/);
  }, 120_000);

  it('a client that hangs up mid-stream does not stop the server: the next request is answered', async () => {
    const png = fs.readFileSync(pages[1]!.imagePath).toString('base64');
    const body = { model: 'recto-reference-high', stream: true, messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } }, { type: 'text', text: 'x' }] }] };
    const response = await post('/v1/chat/completions', body, {});
    const reader = response.body!.getReader();
    expect(response.headers.get('content-type')).toMatch(/text\/event-stream/);
    await reader.read();
    await reader.cancel();
    const again = await post('/v1/chat/completions', { ...body, stream: false, max_tokens: 2 });
    expect(again.status).toBe(200);
  }, 120_000);
});

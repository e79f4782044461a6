/**
 * Keys never reach what Recto stores or exports (issue 23, hole 9): an endpoint URL with `?api-key=` and an upstream
 * error body that echoes the Authorization header go through the remote engine and the reading path into the project,
 * then out through a corpus export — and the key is nowhere in the project file, records.jsonl or manifest.json.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpointForStorage, scrubSecrets } from '../../app/model/secrets.js';
import { RemoteEngine } from '../../native-models/remote/index.js';
import { fillProject } from '../../testing/corpusFixtures.js';
import { fakeInspect } from '../../testing/fakes.js';
import { PageImageCache } from '../services/pageImageCache.js';
import { ProjectStore } from '../store/projectStore.js';
import { exportCorpus } from './exportCorpus.js';
import { projectPageImages } from './pageImages.js';

const QUERY_KEY = 'QUERYSECRET-4f1c9a7e2b';
const HEADER_KEY = 'HEADERSECRET-8d3e5b6a1c';
let dir: string;
let upstream: http.Server;
let origin: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-secrets-'));
  // An upstream that refuses every page and echoes the request's headers in its error body, as some proxies do.
  upstream = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(400, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: `bad request; got headers ${JSON.stringify(request.headers)} for ${request.url}` } }));
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => upstream.close(resolve));
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('scrubbing', () => {
  it('keeps an endpoint as scheme, host, port and path', () => {
    expect(endpointForStorage('https://user:pass@api.example.com:8443/v1?api-key=k#f')).toBe('https://api.example.com:8443/v1');
    expect(endpointForStorage('http://127.0.0.1:8000')).toBe('http://127.0.0.1:8000');
  });
  it('replaces header-, parameter- and token-shaped secrets and the known key', () => {
    const text = `HTTP 401 {"authorization":"Bearer abcdefgh12345678"} x-api-key: k1 https://u:p@h/v1?api_key=k2 sk-${'a'.repeat(24)} ${HEADER_KEY}`;
    const scrubbed = scrubSecrets(text, [HEADER_KEY]);
    for (const secret of ['abcdefgh12345678', 'k1', 'u:p', 'k2', 'a'.repeat(24), HEADER_KEY]) expect(scrubbed).not.toContain(secret);
    expect(scrubSecrets('the server refused the page (HTTP 400 bad request; 12 tokens)')).toBe('the server refused the page (HTTP 400 bad request; 12 tokens)');
  });
});

describe('a remote engine with a key in its URL and an upstream that echoes headers', () => {
  it('leaves neither key in the project, records.jsonl or manifest.json', async () => {
    const store = ProjectStore.create(path.join(dir, 'p.recto'));
    const [pageId] = fillProject(store, [{ name: 'a.pdf', pages: 1 }]);
    const engine = new RemoteEngine({ endpoints: [`${origin}/v1?api-key=${QUERY_KEY}`], apiKey: HEADER_KEY, model: 'm', retry: { retries: 0 } });
    const image = path.join(dir, 'page.png');
    fs.writeFileSync(image, await sharp({ create: { width: 20, height: 20, channels: 3, background: '#fff' } }).png().toBuffer());
    const error = await engine.read({ imagePath: image, width: 20, height: 20, dpi: 72, textLayer: null, label: 'a.pdf p. 1' }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).not.toContain(QUERY_KEY);
    expect((error as Error).message).not.toContain(HEADER_KEY);
    // What the reading queue stores for a failed page, and an engine that reports its URL in settings and warnings.
    store.documents.setPageStatus(pageId!, 'error', `${(error as Error).message} (raw: Authorization: Bearer ${HEADER_KEY})`);
    const reading = store.readings.latestExtraction(pageId!)!;
    store.readings.saveExtraction(pageId!, { ...reading, engine: { ...reading.engine, settings: { endpoint: `${origin}/v1?api-key=${QUERY_KEY}` } }, warnings: [`retried ${origin}/v1?api-key=${QUERY_KEY}`] }, new Date());
    const out = path.join(dir, 'corpus');
    await exportCorpus(store, { outDir: out, images: 'none', pageImage: projectPageImages(store, new PageImageCache(path.join(dir, 'cache'), fakeInspect)) });
    store.close();
    for (const file of [path.join(dir, 'p.recto'), path.join(out, 'records.jsonl'), path.join(out, 'manifest.json')]) {
      const bytes = fs.readFileSync(file).toString('latin1');
      expect(bytes, file).not.toContain(QUERY_KEY);
      expect(bytes, file).not.toContain(HEADER_KEY);
    }
  });
});

import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { maxSocketRequestBytes } from '../../../app/contract/wire.js';
import { EventBus } from '../../events/eventBus.js';
import { startBrowserServer, type BrowserServer } from './browserServer.js';

let dir: string;
let server: BrowserServer;
const bus = new EventBus();
const calls: { method: unknown; params: unknown }[] = [];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-server-'));
  fs.mkdirSync(path.join(dir, 'renderer'));
  fs.writeFileSync(path.join(dir, 'renderer', 'index.html'), '<!doctype html><title>Recto</title>');
  fs.writeFileSync(path.join(dir, 'secret.txt'), 'outside the renderer');
  fs.writeFileSync(path.join(dir, 'page.png'), 'PNG');
  fs.writeFileSync(path.join(dir, 'page.w768.png'), 'PNG at 768');
  fs.writeFileSync(path.join(dir, 'report.html'), '<!doctype html><h1>Engine evaluation</h1>');
  server = await startBrowserServer({
    dispatch: async (method, params) => {
      calls.push({ method, params });
      return { ok: true, result: { echo: method } };
    },
    bus,
    pageImagePath: async (pageId, screenWidth) => {
      // A cached page image that something replaced by a folder, and one that vanished after it was found.
      if (pageId === 'folder') return dir;
      if (pageId === 'gone') return path.join(dir, 'no-such.png');
      if (pageId !== 'p1') throw new Error('No page');
      return path.join(dir, screenWidth === 768 ? 'page.w768.png' : 'page.png');
    },
    rendererDir: path.join(dir, 'renderer'),
    evaluationReportPath: () => (reportThere ? path.join(dir, 'report.html') : null),
  });
});
let reportThere = true;
afterAll(async () => {
  await server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A raw request, so that the Host header can be forged. */
function request(
  pathname: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: server.port, path: pathname, method: options.method ?? 'GET', headers: options.headers },
      (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

const rpc = (headers: Record<string, string>, body = '{}') =>
  request('/api/rpc/app.info', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

describe('browser shell', () => {
  it('listens on 127.0.0.1 only and prints a URL with the token in the fragment', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]{20,}$/);
  });

  it('answers requests that carry the token, and only those', async () => {
    expect((await rpc({ 'x-recto-token': server.token })).body).toBe('{"ok":true,"result":{"echo":"app.info"}}');
    expect((await rpc({})).status).toBe(401);
    expect((await rpc({ 'x-recto-token': `${server.token}x` })).status).toBe(401);
    expect((await rpc({ 'x-recto-token': server.token, 'content-type': 'text/plain' })).status).toBe(415);
    expect((await request('/api/rpc/app.info', { headers: { 'x-recto-token': server.token } })).status).toBe(405);
  });

  it('refuses a forged Host header (DNS rebinding)', async () => {
    const forged = await rpc({ 'x-recto-token': server.token, host: `evil.example:${server.port}` });
    expect(forged.status).toBe(421);
  });

  it('reports a body that is not JSON as a bad request', async () => {
    const reply = await rpc({ 'x-recto-token': server.token }, '{nope');
    expect(JSON.parse(reply.body)).toMatchObject({ ok: false, error: { code: 'bad-request' } });
  });

  it('serves the renderer with a strict CSP and nothing outside it', async () => {
    const index = await request('/');
    expect(index.status).toBe(200);
    expect(index.headers['content-security-policy']).toContain("script-src 'self'");
    expect(index.headers['content-security-policy']).not.toContain('unsafe-eval');
    const escape = await request('/..%2fsecret.txt');
    expect(escape.body).not.toContain('outside the renderer');
  });

  it('serves page images to token holders', async () => {
    expect((await request(`/api/page-image/p1?token=${server.token}`)).body).toBe('PNG');
    expect((await request('/api/page-image/p1')).status).toBe(401);
    expect((await request(`/api/page-image/p2?token=${server.token}`)).status).toBe(404);
    // A screen copy by its width step; any other width is the page image itself.
    expect((await request(`/api/page-image/p1?token=${server.token}&w=768`)).body).toBe('PNG at 768');
    for (const w of ['100', '768.0', '', '..%2Fsecret.txt']) expect((await request(`/api/page-image/p1?token=${server.token}&w=${w}`)).body).toBe('PNG');
  });

  it("serves the latest evaluation report to token holders, sandboxed (no scripts, an origin of its own)", async () => {
    const served = await request(`/api/evaluation-report?token=${server.token}`);
    expect(served.status).toBe(200);
    expect(served.body).toContain('Engine evaluation');
    expect(served.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(served.headers['content-security-policy']).toMatch(/default-src 'none'.*sandbox/);
    expect((await request('/api/evaluation-report')).status).toBe(401);
    reportThere = false;
    expect((await request(`/api/evaluation-report?token=${server.token}`)).status).toBe(404);
    reportThere = true;
  });

  it('pushes events over a WebSocket that needs the token', async () => {
    const base = `ws://127.0.0.1:${server.port}/api/events`;
    const refused = new WebSocket(`${base}?token=wrong`);
    await expect(new Promise((resolve, reject) => (refused.on('open', resolve), refused.on('error', reject)))).rejects.toThrow();

    const socket = new WebSocket(`${base}?token=${server.token}`);
    await new Promise((resolve) => socket.on('open', resolve));
    const received = new Promise<string>((resolve) => socket.on('message', (data) => resolve(String(data))));
    bus.emit('documents.changed', {});
    expect(JSON.parse(await received)).toEqual({ event: 'documents.changed', payload: {} });
    socket.close();
  });

  it('answers requests on the socket by their id, ignores messages that are not requests, and refuses other origins', async () => {
    const base = `ws://127.0.0.1:${server.port}/api/events?token=${server.token}`;
    const foreign = new WebSocket(base, { origin: 'http://evil.example' });
    await expect(new Promise((resolve, reject) => (foreign.on('open', resolve), foreign.on('error', reject)))).rejects.toThrow();

    const socket = new WebSocket(base, { origin: `http://127.0.0.1:${server.port}` });
    await new Promise((resolve) => socket.on('open', resolve));
    const replies: unknown[] = [];
    socket.on('message', (data) => replies.push(JSON.parse(String(data))));
    for (const junk of ['not json', '[]', '{"id":-1,"method":"x"}', '{"id":1.5,"method":"x"}', '{"id":1,"method":7}', '{"method":"app.info"}']) socket.send(junk);
    socket.send(Buffer.from([1, 2, 3]), { binary: true });
    socket.send(JSON.stringify({ id: 7, method: 'pages.getReview', params: { pageId: 'p1' } }));
    socket.send(JSON.stringify({ id: 8, method: 'documents.list' }));
    await expect.poll(() => replies.length).toBe(2);
    expect(replies).toEqual([
      { reply: 7, method: 'pages.getReview', body: { ok: true, result: { echo: 'pages.getReview' } } },
      { reply: 8, method: 'documents.list', body: { ok: true, result: { echo: 'documents.list' } } },
    ]);
    expect(calls.slice(-2)).toEqual([
      { method: 'pages.getReview', params: { pageId: 'p1' } },
      { method: 'documents.list', params: undefined },
    ]);
    socket.close();
  });

  it('closes a socket sent a message over its limit and goes on serving', async () => {
    const socket = new WebSocket(`ws://127.0.0.1:${server.port}/api/events?token=${server.token}`);
    await new Promise((resolve) => socket.on('open', resolve));
    const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
    socket.on('error', () => undefined);
    socket.send(JSON.stringify({ id: 1, method: 'app.info', params: { pad: 'x'.repeat(maxSocketRequestBytes) } }));
    expect(await closed).toBe(1009);
    expect((await request('/')).status).toBe(200);
  });

  it('survives upgrade requests whose Host or path is not a URL, without the token', async () => {
    for (const [target, host] of [
      ['/api/events', 'a b'],
      ['//', `127.0.0.1:${server.port}`],
      ['//evil.example/api/events', `127.0.0.1:${server.port}`],
      ['*', `127.0.0.1:${server.port}`],
      ['/api/events?token=%zz', `127.0.0.1:${server.port}`],
    ]) {
      const reply = await rawUpgrade(target!, host!);
      expect(reply).toMatch(/^HTTP\/1\.1 (400|401)/);
    }
    expect((await request('/')).status).toBe(200);
  });

  it('answers malformed request paths with 400 instead of failing', async () => {
    expect((await request('/api/rpc/%zz', { method: 'POST', headers: { 'x-recto-token': server.token, 'content-type': 'application/json' } })).status).toBe(400);
    expect((await request(`/api/page-image/%E0%A4%A?token=${server.token}`)).status).toBe(400);
    expect((await request('//')).status).toBe(200);
  });

  it('survives a page image that cannot be read (a folder in its place, a vanished file)', async () => {
    expect((await request(`/api/page-image/folder?token=${server.token}`)).status).toBe(404);
    expect((await request(`/api/page-image/gone?token=${server.token}`)).status).toBe(404);
    expect((await request(`/api/page-image/p1?token=${server.token}`)).body).toBe('PNG');
  });
});

/** An upgrade request written byte for byte, so that Host and path can be anything; resolves with the reply. */
function rawUpgrade(target: string, host: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(server.port, '127.0.0.1', () => {
      socket.write(
        `GET ${target} HTTP/1.1\r\nHost: ${host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
      );
    });
    let reply = '';
    socket.on('data', (chunk) => (reply += String(chunk)));
    socket.on('close', () => resolve(reply));
    socket.on('error', reject);
  });
}

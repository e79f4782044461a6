/**
 * The browser shell's team access (issue 40) without a project: behind a TLS reverse proxy (`--origin`) the public
 * Host and Origin are taken and any other Host is not (421); the CSP lets the page open its socket there; bound to
 * every interface (`--listen 0.0.0.0`) any Host is taken but nothing opens without a personal token; URL keys are
 * per account and stop opening once the account is gone.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { EventBus } from '../../events/eventBus.js';
import type { Account } from '../../store/accounts.js';
import { startBrowserServer, type BrowserServer } from './browserServer.js';
import { teamAccess, type TeamAccounts } from './requestAccess.js';

const ada: Account = { id: '6f1c2a4e-1111-4222-8333-944455556666', name: 'Ada', role: 'admin', createdAt: '2026-12-06T00:00:00.000Z', removedAt: null };
let present = true;
const accounts: TeamAccounts = {
  byToken: (token) => (present && token === 'recto-u-ada' ? ada : null),
  byId: (id) => (present && id === ada.id ? ada : null),
};
const dispatch = async (method: unknown, _params: unknown, context?: { account: Account | null }) => ({ ok: true as const, result: { method, who: context?.account?.name ?? null } });
const servers: BrowserServer[] = [];
let proxied: BrowserServer;
let everywhere: BrowserServer;

const rendererDir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-team-renderer-'));

beforeAll(async () => {
  fs.writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>Recto</title>');
  const common = { dispatch, bus: new EventBus(), pageImagePath: async () => '/nonexistent.png', rendererDir };
  proxied = await startBrowserServer({ ...common, access: teamAccess(() => accounts), publicOrigin: 'https://recto.example.com' });
  everywhere = await startBrowserServer({ ...common, access: teamAccess(() => accounts), host: '0.0.0.0' });
  servers.push(proxied, everywhere);
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  fs.rmSync(rendererDir, { recursive: true, force: true });
});

function post(server: BrowserServer, host: string, token?: string): Promise<{ status: number; body: string; csp?: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: server.port, path: '/api/rpc/app.info', method: 'POST', headers: { host, 'content-type': 'application/json', ...(token ? { 'x-recto-token': token } : {}) } },
      (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end('{}');
  });
}

describe('team access in the browser shell', () => {
  it('behind a reverse proxy takes the public Host, refuses others, and dispatches as the account', async () => {
    const ok = await post(proxied, 'recto.example.com', 'recto-u-ada');
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body).result.who).toBe('Ada');
    expect((await post(proxied, 'evil.example', 'recto-u-ada')).status).toBe(421);
    expect((await post(proxied, 'recto.example.com', 'recto-u-bob')).status).toBe(401);
  });

  it('lets the page open its socket under the public origin, and the CSP allows it', async () => {
    const page = await new Promise<http.IncomingMessage>((resolve, reject) => http.get({ host: '127.0.0.1', port: proxied.port, path: '/', headers: { host: 'recto.example.com' } }, resolve).on('error', reject));
    page.resume();
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toMatch(/connect-src 'self' [^;]*wss:\/\/recto\.example\.com/);
    const socket = new WebSocket(`ws://127.0.0.1:${proxied.port}/api/events?token=recto-u-ada`, { headers: { host: 'recto.example.com', origin: 'https://recto.example.com' } });
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    socket.close();
    const refused = new WebSocket(`ws://127.0.0.1:${proxied.port}/api/events?token=recto-u-ada`, { headers: { host: 'recto.example.com', origin: 'https://evil.example' } });
    await expect(new Promise((resolve, reject) => refused.once('open', resolve).once('error', reject))).rejects.toThrow(/401/);
  });

  it('bound to every interface takes any Host, but nothing opens without a personal token', async () => {
    expect((await post(everywhere, '192.168.1.20:5177', 'recto-u-ada')).status).toBe(200);
    expect((await post(everywhere, '192.168.1.20:5177')).status).toBe(401);
    expect((await post(everywhere, '192.168.1.20:5177', everywhere.token)).status).toBe(401);
  });

  it('gives URL keys per account that open nothing once the account is gone', async () => {
    const key = proxied.urlCredentialFor({ account: ada });
    expect(key).not.toContain('recto-u-ada');
    const status = (credential: string) =>
      new Promise<number>((resolve, reject) => http.get({ host: '127.0.0.1', port: proxied.port, path: `/api/page-image/p1?token=${encodeURIComponent(credential)}`, headers: { host: 'recto.example.com' } }, (res) => (res.resume(), resolve(res.statusCode ?? 0))).on('error', reject));
    expect(await status(key)).toBe(404);
    expect(await status(everywhere.urlCredentialFor({ account: ada }))).toBe(401);
    present = false;
    expect(await status(key)).toBe(401);
    present = true;
  });
});

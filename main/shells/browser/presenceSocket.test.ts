/** Presence ends with the window's socket: a viewer named in `presence.set` on a socket is dropped when it closes. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { EventBus } from '../../events/eventBus.js';
import { startBrowserServer, type BrowserServer } from './browserServer.js';

let dir: string;
let server: BrowserServer;
const gone: string[] = [];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-presence-'));
  server = await startBrowserServer({
    dispatch: async () => ({ ok: true, result: { ok: true } }),
    bus: new EventBus(),
    pageImagePath: async () => dir,
    rendererDir: dir,
    onViewerGone: (viewer) => gone.push(viewer),
  });
});
afterAll(async () => {
  await server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('presence and the event socket', () => {
  it('drops the viewers a socket named once that socket closes, and no other', async () => {
    const socket = new WebSocket(`ws://127.0.0.1:${server.port}/api/events?token=${server.token}`);
    await new Promise((resolve) => socket.on('open', resolve));
    const replies: unknown[] = [];
    socket.on('message', (data) => replies.push(JSON.parse(String(data))));
    socket.send(JSON.stringify({ id: 1, method: 'presence.set', params: { viewer: 'window-aaaa-1111', pageId: 'p1' } }));
    socket.send(JSON.stringify({ id: 2, method: 'app.info', params: { viewer: 'not-a-presence' } }));
    await expect.poll(() => replies.length).toBe(2);
    expect(gone).toEqual([]);
    const closed = new Promise((resolve) => socket.on('close', resolve));
    socket.close();
    await closed;
    await expect.poll(() => gone).toEqual(['window-aaaa-1111']);
  });
});

/**
 * What the app asks its server, as a test sees it. The renderer sends its requests on the event socket while it is
 * open and over HTTP otherwise (renderer/src/transport/browserTransport.ts), so a test that waits for a reply watches
 * both. `watchRpc` must run before the page opens the app: a socket opened earlier cannot be watched.
 */
import type { Page } from 'playwright-core';

interface RpcSeen {
  phase: 'request' | 'reply';
  method: string;
  /** For a reply: whether it carries a result (not an error). */
  ok: boolean;
}

const watched = new WeakMap<Page, Set<(seen: RpcSeen) => void>>();

export function watchRpc(page: Page): void {
  if (watched.has(page)) return;
  const listeners = new Set<(seen: RpcSeen) => void>();
  watched.set(page, listeners);
  const emit = (seen: RpcSeen) => {
    for (const listener of [...listeners]) listener(seen);
  };
  page.on('websocket', (socket) => {
    socket.on('framesent', ({ payload }) => {
      const message = parse(payload) as { id?: unknown; method?: unknown } | null;
      if (message && typeof message.id === 'number' && typeof message.method === 'string') emit({ phase: 'request', method: message.method, ok: true });
    });
    socket.on('framereceived', ({ payload }) => {
      const message = parse(payload) as { reply?: unknown; method?: unknown; body?: { ok?: unknown } } | null;
      if (message && typeof message.reply === 'number' && typeof message.method === 'string') emit({ phase: 'reply', method: message.method, ok: message.body?.ok === true });
    });
  });
  const methodOf = (url: string) => decodeURIComponent(new URL(url).pathname.slice('/api/rpc/'.length));
  page.on('request', (request) => {
    if (request.url().includes('/api/rpc/')) emit({ phase: 'request', method: methodOf(request.url()), ok: true });
  });
  page.on('response', (response) => {
    if (response.url().includes('/api/rpc/')) emit({ phase: 'reply', method: methodOf(response.url()), ok: response.ok() });
  });
}

/** Resolves at the next reply with a result to `method` (over either path). */
export function rpcReplied(page: Page, method: string): Promise<void> {
  const listeners = listenersOf(page);
  return new Promise((resolve) => {
    const listener = (seen: RpcSeen) => {
      if (seen.phase !== 'reply' || seen.method !== method || !seen.ok) return;
      listeners.delete(listener);
      resolve();
    };
    listeners.add(listener);
  });
}

/** Calls `onRequest` for every request to `method` from now on. */
export function onRpcRequest(page: Page, method: string, onRequest: () => void): void {
  listenersOf(page).add((seen) => {
    if (seen.phase === 'request' && seen.method === method) onRequest();
  });
}

function listenersOf(page: Page): Set<(seen: RpcSeen) => void> {
  const listeners = watched.get(page);
  if (!listeners) throw new Error('watchRpc(page) was not called before the page opened the app');
  return listeners;
}

function parse(payload: string | Buffer): unknown {
  try {
    return JSON.parse(String(payload));
  } catch {
    return null;
  }
}

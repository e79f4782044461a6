import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ContractError } from '../../../app/contract/client.js';
import { maxSocketRequestBytes } from '../../../app/contract/wire.js';
import { createBrowserTransport, parseSocketMessage } from './browserTransport.js';

/** A WebSocket stand-in: records the URL and what was sent, lets the test open, message and drop it. */
class FakeSocket {
  static instances: FakeSocket[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((message: { data: unknown }) => void) | null = null;
  onclose: (() => void) | null = null;
  sent: string[] = [];
  constructor(readonly url: URL) {
    FakeSocket.instances.push(this);
  }
  send(text: string): void {
    this.sent.push(text);
  }
  /** Answers the last request sent with `body` (a reply envelope). */
  answer(body: unknown): void {
    const request = JSON.parse(this.sent.at(-1)!) as { id: number; method: string };
    this.onmessage?.({ data: JSON.stringify({ reply: request.id, method: request.method, body }) });
  }
}

const origin = 'http://127.0.0.1:4000';

describe('transport of the browser shell', () => {
  beforeEach(() => {
    FakeSocket.instances = [];
    vi.stubGlobal('WebSocket', FakeSocket);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('posts params to /api/rpc/<method> with the token while the socket is not open, and unwraps the reply', async () => {
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ ok: true, result: [1, 2] })));
    vi.stubGlobal('fetch', fetchMock);
    const transport = createBrowserTransport({ origin, token: 'tok' });
    await expect(transport.invoke('documents.list', {})).resolves.toEqual([1, 2]);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [URL, RequestInit];
    expect(String(url)).toBe('http://127.0.0.1:4000/api/rpc/documents.list');
    expect(init.method).toBe('POST');
    expect((init.headers as Record<string, string>)['x-recto-token']).toBe('tok');
    expect(init.body).toBe('{}');
    expect(FakeSocket.instances[0]!.sent).toEqual([]);
  });

  it('sends requests on the open socket and settles each by its id, in any order', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    const transport = createBrowserTransport({ origin, token: 'tok' });
    const socket = FakeSocket.instances[0]!;
    socket.onopen?.();
    const first = transport.invoke('pages.getReview', { pageId: 'p1' });
    const second = transport.invoke('documents.list', {});
    expect(socket.sent.map((text) => JSON.parse(text) as unknown)).toEqual([
      { id: 1, method: 'pages.getReview', params: { pageId: 'p1' } },
      { id: 2, method: 'documents.list', params: {} },
    ]);
    socket.onmessage?.({ data: JSON.stringify({ reply: 2, method: 'documents.list', body: { ok: true, result: ['d'] } }) });
    socket.onmessage?.({ data: JSON.stringify({ reply: 1, method: 'pages.getReview', body: { ok: false, error: { code: 'not-found', message: 'No page p1' } } }) });
    await expect(second).resolves.toEqual(['d']);
    await expect(first).rejects.toMatchObject({ code: 'not-found', message: 'No page p1' });
    // A reply nobody waits for, or one that is not an envelope, changes nothing.
    socket.onmessage?.({ data: JSON.stringify({ reply: 99, method: 'x', body: { ok: true, result: 1 } }) });
    const third = transport.invoke('app.info', {});
    socket.answer('<html>');
    await expect(third).rejects.toMatchObject({ code: 'bad-reply' });
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends a request too large for the socket over HTTP', async () => {
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ ok: true, result: null })));
    vi.stubGlobal('fetch', fetchMock);
    const transport = createBrowserTransport({ origin, token: 'tok' });
    const socket = FakeSocket.instances[0]!;
    socket.onopen?.();
    await transport.invoke('import.files', { files: [{ name: 'a.pdf', dataBase64: 'A'.repeat(maxSocketRequestBytes / 3) }] });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(socket.sent).toEqual([]);
  });

  it('fails the requests waiting on a socket that closes, then uses HTTP until the next socket opens', async () => {
    vi.useFakeTimers();
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ ok: true, result: 'http' })));
    vi.stubGlobal('fetch', fetchMock);
    const transport = createBrowserTransport({ origin, token: 'tok' });
    const socket = FakeSocket.instances[0]!;
    socket.onopen?.();
    const waiting = transport.invoke('documents.list', {});
    socket.onclose?.();
    await expect(waiting).rejects.toMatchObject({ code: 'unreachable' });
    await expect(transport.invoke('documents.list', {})).resolves.toBe('http');
    await vi.advanceTimersByTimeAsync(600);
    const next = FakeSocket.instances[1]!;
    next.onopen?.();
    const again = transport.invoke('documents.list', {});
    next.answer({ ok: true, result: 'socket' });
    await expect(again).resolves.toBe('socket');
  });

  it('throws ContractError for error replies, HTML error pages and an unreachable server', async () => {
    const transport = createBrowserTransport({ origin, token: 'tok' });
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ ok: false, error: { code: 'not-found', message: 'No page p9' } })));
    await expect(transport.invoke('pages.getReview', { pageId: 'p9' })).rejects.toMatchObject({ code: 'not-found', message: 'No page p9' });
    vi.stubGlobal('fetch', async () => new Response('Bad token', { status: 401 }));
    await expect(transport.invoke('app.info', {})).rejects.toThrow(/HTTP 401/);
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(transport.invoke('app.info', {})).rejects.toBeInstanceOf(ContractError);
  });

  it('delivers events from the socket and reconnects after a drop', async () => {
    vi.useFakeTimers();
    const transport = createBrowserTransport({ origin, token: 't k' });
    const first = FakeSocket.instances[0]!;
    expect(first.url.href).toBe('ws://127.0.0.1:4000/api/events?token=t+k');
    const states: string[] = [];
    transport.connection.onChange((state) => states.push(state));
    const events: string[] = [];
    transport.subscribe((envelope) => events.push(envelope.event));
    first.onopen?.();
    first.onmessage?.({ data: JSON.stringify({ event: 'documents.changed', payload: {} }) });
    first.onmessage?.({ data: 'not json' });
    first.onclose?.();
    expect(states).toEqual(['open', 'reconnecting']);
    await vi.advanceTimersByTimeAsync(600);
    expect(FakeSocket.instances).toHaveLength(2);
    FakeSocket.instances[1]!.onopen?.();
    expect(states.at(-1)).toBe('open');
    expect(events).toEqual(['documents.changed']);
  });
});

describe('parseSocketMessage', () => {
  it('accepts contract events and replies, and ignores anything else', () => {
    expect(parseSocketMessage(JSON.stringify({ event: 'page.updated', payload: { pageId: 'p', documentId: 'd' } }))).toEqual({
      event: 'page.updated',
      payload: { pageId: 'p', documentId: 'd' },
    });
    expect(parseSocketMessage(JSON.stringify({ reply: 3, method: 'app.info', body: { ok: true, result: 1 } }))).toEqual({
      reply: 3,
      method: 'app.info',
      body: { ok: true, result: 1 },
    });
    expect(parseSocketMessage(JSON.stringify({ reply: 'x', method: 'app.info', body: null }))).toBeNull();
    expect(parseSocketMessage(JSON.stringify({ event: 'evil.event', payload: {} }))).toBeNull();
    expect(parseSocketMessage('{')).toBeNull();
    expect(parseSocketMessage(new ArrayBuffer(2))).toBeNull();
  });
});

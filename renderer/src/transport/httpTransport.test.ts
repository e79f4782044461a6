import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ContractError } from '../../../app/contract/client.js';
import { createHttpTransport, parseEvent } from './httpTransport.js';

/** A WebSocket stand-in: records the URL, lets the test open, message and drop it. */
class FakeSocket {
  static instances: FakeSocket[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((message: { data: unknown }) => void) | null = null;
  onclose: (() => void) | null = null;
  constructor(readonly url: URL) {
    FakeSocket.instances.push(this);
  }
}

describe('HTTP transport of the browser shell', () => {
  beforeEach(() => {
    FakeSocket.instances = [];
    vi.stubGlobal('WebSocket', FakeSocket);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('posts params to /api/rpc/<method> with the token and unwraps the reply', async () => {
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ ok: true, result: [1, 2] })));
    vi.stubGlobal('fetch', fetchMock);
    const transport = createHttpTransport({ origin: 'http://127.0.0.1:4000', token: 'tok' });
    await expect(transport.invoke('documents.list', {})).resolves.toEqual([1, 2]);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [URL, RequestInit];
    expect(String(url)).toBe('http://127.0.0.1:4000/api/rpc/documents.list');
    expect(init.method).toBe('POST');
    expect((init.headers as Record<string, string>)['x-recto-token']).toBe('tok');
    expect(init.body).toBe('{}');
  });

  it('throws ContractError for error replies, HTML error pages and an unreachable server', async () => {
    const transport = createHttpTransport({ origin: 'http://127.0.0.1:4000', token: 'tok' });
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
    const transport = createHttpTransport({ origin: 'http://127.0.0.1:4000', token: 't k' });
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

describe('parseEvent', () => {
  it('accepts contract events and ignores anything else', () => {
    expect(parseEvent(JSON.stringify({ event: 'page.updated', payload: { pageId: 'p', documentId: 'd' } }))).toEqual({
      event: 'page.updated',
      payload: { pageId: 'p', documentId: 'd' },
    });
    expect(parseEvent(JSON.stringify({ event: 'evil.event', payload: {} }))).toBeNull();
    expect(parseEvent('{')).toBeNull();
    expect(parseEvent(new ArrayBuffer(2))).toBeNull();
  });
});

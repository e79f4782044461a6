/**
 * Browser shell transport. One WebSocket at `/api/events?token=…` carries the events and, while it is open, the
 * requests too (a socket message costs the page a tenth of a `fetch`: `socketRequestSchema` in app/contract/wire.ts);
 * it is reconnected with backoff when it drops (the server restarted, the laptop slept). Requests made while it is
 * not open, and requests too large for it, go as `POST /api/rpc/<method>` with the launch token in a header.
 */
import type { ContractTransport } from '../../../app/contract/client.js';
import { ContractError } from '../../../app/contract/client.js';
import { isEventName, type EventEnvelope } from '../../../app/contract/events.js';
import { socketReplySchema, type SocketReply } from '../../../app/contract/wire.js';
import { reconnectDelayMs } from './backoff.js';
import type { ConnectionState, ConnectionStateSource } from './connectionState.js';
import { transportErrorCodes, unwrapReply } from './replyEnvelope.js';
import { fitsSocket, SocketRequests, unreachable } from './socketRequests.js';

export interface BrowserTransportOptions {
  /** Origin of the browser shell, e.g. `http://127.0.0.1:5177`. */
  origin: string;
  token: string;
}

export interface BrowserTransport extends ContractTransport {
  connection: ConnectionStateSource;
}

export function createBrowserTransport({ origin, token }: BrowserTransportOptions): BrowserTransport {
  const listeners = new Set<(envelope: EventEnvelope) => void>();
  const stateListeners = new Set<(state: ConnectionState) => void>();
  let state: ConnectionState = 'connecting';
  /** The socket being opened or open; `open` says which. */
  let socket: WebSocket | null = null;
  let open = false;
  let attempt = 0;
  const requests = new SocketRequests();

  function setState(next: ConnectionState): void {
    state = next;
    for (const listener of stateListeners) listener(next);
  }

  function connect(): void {
    const url = new URL('/api/events', origin);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    url.searchParams.set('token', token);
    const ws = new WebSocket(url);
    socket = ws;
    ws.onopen = () => {
      attempt = 0;
      open = true;
      setState('open');
    };
    ws.onmessage = (message) => {
      const parsed = parseSocketMessage(message.data);
      if (!parsed) return;
      if ('reply' in parsed) return requests.settle(parsed);
      for (const listener of listeners) listener(parsed);
    };
    ws.onclose = () => {
      if (socket !== ws) return;
      socket = null;
      open = false;
      requests.failAll();
      setState('reconnecting');
      setTimeout(connect, reconnectDelayMs(attempt++));
    };
  }
  connect();

  async function overHttp(method: string, body: string): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(new URL(`/api/rpc/${encodeURIComponent(method)}`, origin), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-recto-token': token },
        body,
      });
    } catch {
      throw unreachable();
    }
    let reply: unknown;
    try {
      reply = await response.json();
    } catch {
      throw new ContractError(
        transportErrorCodes.badReply,
        `The server answered ${method} with HTTP ${response.status} and no readable reply.`,
      );
    }
    return unwrapReply(method, reply);
  }

  return {
    connection: {
      get state() {
        return state;
      },
      onChange(listener) {
        stateListeners.add(listener);
        return () => stateListeners.delete(listener);
      },
    },
    invoke(method, params) {
      const body = JSON.stringify(params ?? {});
      if (socket && open && fitsSocket(body)) return requests.send(socket, method, body);
      return overHttp(method, body);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** A socket message as an event envelope or a request's reply; null for anything else (ignored, not fatal). */
export function parseSocketMessage(data: unknown): EventEnvelope | SocketReply | null {
  if (typeof data !== 'string') return null;
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  if ('reply' in value) {
    const reply = socketReplySchema.safeParse(value);
    return reply.success ? reply.data : null;
  }
  const { event, payload } = value as { event?: unknown; payload?: unknown };
  if (!isEventName(event)) return null;
  return { event, payload: (payload ?? {}) as never };
}

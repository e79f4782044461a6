/**
 * Browser shell transport: requests as `POST /api/rpc/<method>` with the launch token in a header; events over one
 * WebSocket at `/api/events?token=…`, reconnected with backoff when it drops (the server restarted, the laptop slept).
 */
import type { ContractTransport } from '../../../app/contract/client.js';
import { ContractError } from '../../../app/contract/client.js';
import { isEventName, type EventEnvelope } from '../../../app/contract/events.js';
import { reconnectDelayMs } from './backoff.js';
import type { ConnectionState, ConnectionStateSource } from './connectionState.js';
import { transportErrorCodes, unwrapReply } from './replyEnvelope.js';

export interface HttpTransportOptions {
  /** Origin of the browser shell, e.g. `http://127.0.0.1:5177`. */
  origin: string;
  token: string;
}

export interface HttpTransport extends ContractTransport {
  connection: ConnectionStateSource;
}

export function createHttpTransport({ origin, token }: HttpTransportOptions): HttpTransport {
  const listeners = new Set<(envelope: EventEnvelope) => void>();
  const stateListeners = new Set<(state: ConnectionState) => void>();
  let state: ConnectionState = 'connecting';
  let socket: WebSocket | null = null;
  let attempt = 0;

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
      setState('open');
    };
    ws.onmessage = (message) => {
      const envelope = parseEvent(message.data);
      if (!envelope) return;
      for (const listener of listeners) listener(envelope);
    };
    ws.onclose = () => {
      if (socket !== ws) return;
      socket = null;
      setState('reconnecting');
      setTimeout(connect, reconnectDelayMs(attempt++));
    };
  }
  connect();

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
    async invoke(method, params) {
      let response: Response;
      try {
        response = await fetch(new URL(`/api/rpc/${encodeURIComponent(method)}`, origin), {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-recto-token': token },
          body: JSON.stringify(params ?? {}),
        });
      } catch {
        throw new ContractError(
          transportErrorCodes.unreachable,
          'Recto’s server is not reachable. Is it still running? Restart it and reload this page.',
        );
      }
      let body: unknown;
      try {
        body = await response.json();
      } catch {
        throw new ContractError(
          transportErrorCodes.badReply,
          `The server answered ${method} with HTTP ${response.status} and no readable reply.`,
        );
      }
      return unwrapReply(method, body);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** A socket message as an event envelope, or null for anything else (ignored, not fatal). */
export function parseEvent(data: unknown): EventEnvelope | null {
  if (typeof data !== 'string') return null;
  try {
    const value: unknown = JSON.parse(data);
    if (typeof value !== 'object' || value === null) return null;
    const { event, payload } = value as { event?: unknown; payload?: unknown };
    if (!isEventName(event)) return null;
    return { event, payload: (payload ?? {}) as never };
  } catch {
    return null;
  }
}

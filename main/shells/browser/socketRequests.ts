/**
 * Requests that arrive on the browser shell's event socket (`socketRequestSchema` in app/contract/wire.ts): each goes
 * to the same dispatch an HTTP request does, and its reply goes back on the socket it came from, with its id. The
 * socket was opened with the launch token and an allowed Origin, so its requests need no header of their own. A
 * message that is not a request is ignored, as every message was before the socket carried requests.
 */
import type { RawData, WebSocket } from 'ws';
import { errorCodes, socketRequestSchema, type ReplyEnvelope, type SocketReply, type SocketRequest } from '../../../app/contract/wire.js';
import type { Dispatch } from '../../services/dispatch.js';

export function answerSocketRequests(socket: WebSocket, dispatch: Dispatch, seen: (request: SocketRequest) => void = () => undefined): void {
  socket.on('message', (data, isBinary) => {
    const request = isBinary ? null : parseSocketRequest(data);
    if (request) seen(request);
    if (request) void answer(socket, dispatch, request);
  });
}

/** A message as a request, or null for anything else (not JSON, no id, a method that is not a string, …). */
export function parseSocketRequest(data: RawData): SocketRequest | null {
  let value: unknown;
  try {
    value = JSON.parse(textOf(data));
  } catch {
    return null;
  }
  const parsed = socketRequestSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

async function answer(socket: WebSocket, dispatch: Dispatch, request: SocketRequest): Promise<void> {
  let body: ReplyEnvelope;
  try {
    body = await dispatch(request.method, request.params);
  } catch (error) {
    // Dispatch turns a handler's failure into a coded reply; this is for a fault in dispatch itself.
    console.error('recto: socket request failed:', error);
    body = internalError;
  }
  if (socket.readyState !== socket.OPEN) return;
  let text: string;
  try {
    text = JSON.stringify({ reply: request.id, method: request.method, body } satisfies SocketReply);
  } catch {
    text = JSON.stringify({ reply: request.id, method: request.method, body: internalError } satisfies SocketReply);
  }
  socket.send(text);
}

const internalError: ReplyEnvelope = { ok: false, error: { code: errorCodes.internal, message: 'Internal error' } };

function textOf(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}

/**
 * Requests in flight on the browser shell's socket: each gets an id, its reply (matched by that id) settles it, and
 * a socket that closes fails every request still waiting — as a fetch to a server that went away does.
 */
import { ContractError } from '../../../app/contract/client.js';
import { maxSocketRequestBytes, type SocketReply } from '../../../app/contract/wire.js';
import { transportErrorCodes, unwrapReply } from './replyEnvelope.js';

/**
 * Whether a request body (JSON text) may go on the socket. A UTF-16 unit is at most three bytes of UTF-8, so this
 * needs no encoding to know the message stays under the server's limit; larger requests (an imported file) go over
 * HTTP.
 */
export function fitsSocket(body: string): boolean {
  return body.length * 3 + 512 <= maxSocketRequestBytes;
}

interface Waiting {
  method: string;
  resolve(result: unknown): void;
  reject(error: unknown): void;
}

export class SocketRequests {
  private nextId = 1;
  private readonly waiting = new Map<number, Waiting>();

  /** Sends `method` with its params already written as JSON (`body`); the promise settles with its reply. */
  send(socket: Pick<WebSocket, 'send'>, method: string, body: string): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { method, resolve, reject });
      try {
        socket.send(`{"id":${id},"method":${JSON.stringify(method)},"params":${body}}`);
      } catch {
        this.waiting.delete(id);
        reject(unreachable());
      }
    });
  }

  /** A reply from the socket; one with an id that is not waiting (a request already failed) is dropped. */
  settle(reply: SocketReply): void {
    const waiting = this.waiting.get(reply.reply);
    if (!waiting) return;
    this.waiting.delete(reply.reply);
    try {
      waiting.resolve(unwrapReply(waiting.method, reply.body));
    } catch (error) {
      waiting.reject(error);
    }
  }

  /** The socket closed: nothing waiting will be answered. */
  failAll(): void {
    const all = [...this.waiting.values()];
    this.waiting.clear();
    for (const waiting of all) waiting.reject(unreachable());
  }

  get size(): number {
    return this.waiting.size;
  }
}

export function unreachable(): ContractError {
  return new ContractError(
    transportErrorCodes.unreachable,
    'Recto’s server is not reachable. Is it still running? Restart it and reload this page.',
  );
}

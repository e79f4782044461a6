/**
 * One typed client over any transport. The renderer builds it once (over HTTP or over the Electron preload);
 * the CLI and the tests can build it too.
 */
import type { EventEnvelope, EventName, EventPayload } from './events.js';
import type { MethodName, ReplyOf, RequestOf } from './methods.js';

/** What a shell must provide: send one request, get the raw reply; subscribe to raw events. */
export interface ContractTransport {
  invoke(method: string, params: unknown): Promise<unknown>;
  subscribe(listener: (envelope: EventEnvelope) => void): () => void;
}

/** An error the main side reported for a request: `code` is machine-readable, `message` is for people. */
export class ContractError extends Error {
  constructor(
    readonly code: string,
    message: string,
    /** The error's `detail` on the wire (a `conflict` carries the kept conflict: conflicts.ts). */
    readonly detail?: unknown,
  ) {
    super(message);
    this.name = 'ContractError';
  }
}

export interface ContractClient {
  call<M extends MethodName>(method: M, params: RequestOf<M>): Promise<ReplyOf<M>>;
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
}

export function createContractClient(transport: ContractTransport): ContractClient {
  return {
    call: async (method, params) => (await transport.invoke(method, params)) as never,
    on: (event, listener) =>
      transport.subscribe((envelope) => {
        if (envelope.event === event) listener(envelope.payload as never);
      }),
  };
}

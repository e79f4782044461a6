/**
 * The wire format shared by both transports: a reply is either a result or an error with a code.
 */
import { z } from 'zod';

export const replyEnvelopeSchema = z.union([
  z.object({ ok: z.literal(true), result: z.unknown() }),
  z.object({
    ok: z.literal(false),
    /** `detail`: what a program needs to act on the refusal, for the codes that carry one (`conflict`: conflicts.ts). */
    error: z.object({ code: z.string(), message: z.string(), detail: z.unknown().optional() }),
  }),
]);
export type ReplyEnvelope = z.infer<typeof replyEnvelopeSchema>;

/**
 * Requests over the browser shell's event socket. A WebSocket message costs the page about a tenth of what a `fetch`
 * does (measured in Chromium: 0.14 against 1.8 ms of main thread to send, 1.4 against 10 ms for the round trip), so
 * the renderer sends its requests there while the socket is open and over HTTP otherwise. A request names its `id`;
 * the reply carries it back with the method's name and the same envelope an HTTP reply has.
 */
export const socketRequestSchema = z.object({
  id: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
  method: z.string().max(200),
  params: z.unknown().optional(),
});
export type SocketRequest = z.infer<typeof socketRequestSchema>;

export const socketReplySchema = z.object({ reply: z.number(), method: z.string(), body: z.unknown() });
export type SocketReply = z.infer<typeof socketReplySchema>;

/**
 * The largest request message the socket takes, in bytes. Larger requests (an imported file's bytes) go over HTTP,
 * which streams them with its own limit.
 */
export const maxSocketRequestBytes = 256 * 1024;

/** Error codes a request can fail with. */
export const errorCodes = {
  badRequest: 'bad-request',
  unknownMethod: 'unknown-method',
  noProject: 'no-project',
  notFound: 'not-found',
  badInput: 'bad-input',
  unsupported: 'unsupported',
  /** Team mode: the request's token opens nothing (unknown, or its account removed or given a new token). */
  unauthorized: 'unauthorized',
  /** Team mode: the signed-in account's role or a team rule (four eyes) does not allow it; the message names which. */
  forbidden: 'forbidden',
  /** Team mode: the account sent more requests than a person at full speed does (docs/team-mode.md). */
  rateLimited: 'rate-limited',
  internal: 'internal',
  /** A save based on an older revision than the page's (or the field's) latest: kept as a conflict, not written over it. */
  conflict: 'conflict',
} as const;
export type ErrorCode = (typeof errorCodes)[keyof typeof errorCodes];

/**
 * An error that carries its reply code: the services' dispatch puts `code` and the message on the wire, so a module
 * that refuses a request says how by the class it throws (its own subclass of this) and dispatch knows no module's
 * errors. Anything else thrown is an internal error.
 */
export class CodedError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Sent with the code (the wire's `detail`), for a refusal the caller acts on rather than only shows. */
    readonly detail?: unknown,
  ) {
    super(message);
    this.name = 'CodedError';
  }
}


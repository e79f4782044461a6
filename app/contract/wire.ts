/**
 * The wire format shared by both transports: a reply is either a result or an error with a code.
 */
import { z } from 'zod';

export const replyEnvelopeSchema = z.union([
  z.object({ ok: z.literal(true), result: z.unknown() }),
  z.object({ ok: z.literal(false), error: z.object({ code: z.string(), message: z.string() }) }),
]);
export type ReplyEnvelope = z.infer<typeof replyEnvelopeSchema>;

/** Error codes a request can fail with. */
export const errorCodes = {
  badRequest: 'bad-request',
  unknownMethod: 'unknown-method',
  noProject: 'no-project',
  notFound: 'not-found',
  badInput: 'bad-input',
  unsupported: 'unsupported',
  internal: 'internal',
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
  ) {
    super(message);
    this.name = 'CodedError';
  }
}


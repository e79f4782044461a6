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

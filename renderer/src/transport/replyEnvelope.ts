/**
 * Unwraps the `ReplyEnvelope` both shells answer with: the result, or a thrown `ContractError` with the main side's
 * code and message. Anything else (a proxy's HTML error page, a truncated body) becomes a ContractError too, so a
 * component only ever has one kind of failure to show.
 */
import { ContractError } from '../../../app/contract/client.js';
import { replyEnvelopeSchema } from '../../../app/contract/wire.js';

/** Codes the renderer itself raises, next to the main side's `errorCodes`. */
export const transportErrorCodes = {
  badReply: 'bad-reply',
  unreachable: 'unreachable',
} as const;

export function unwrapReply(method: string, envelope: unknown): unknown {
  const parsed = replyEnvelopeSchema.safeParse(envelope);
  if (!parsed.success) {
    throw new ContractError(transportErrorCodes.badReply, `The main side sent an unreadable reply to ${method}.`);
  }
  const reply = parsed.data;
  if (reply.ok) return reply.result;
  throw new ContractError(reply.error.code, reply.error.message, reply.error.detail);
}

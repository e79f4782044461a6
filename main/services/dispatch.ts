/**
 * The one door into the services: every request from every shell passes here. The method must be in the contract
 * and the parameters must match its schema before any handler runs; in team mode the signed-in account's role must
 * allow the method (permissions.ts); errors leave as coded, readable replies. The request's context (who it acts for,
 * requestContext.ts) goes to the handler with the parameters.
 */
import { z } from 'zod';
import { contractMethods, isMethodName } from '../../app/contract/methods.js';
import { CodedError, errorCodes, type ReplyEnvelope } from '../../app/contract/wire.js';
import type { Handlers } from './handlers.js';
import { authorize } from './permissions.js';
import { singleUser, type RequestContext } from './requestContext.js';

export type Dispatch = (method: unknown, params: unknown, context?: RequestContext) => Promise<ReplyEnvelope>;

export interface DispatchOptions {
  /** Also check replies against the contract (tests and development). */
  validateReplies?: boolean;
  log?: (message: string) => void;
}

export function createDispatch(handlers: Handlers, options: DispatchOptions = {}): Dispatch {
  const log = options.log ?? ((message) => console.error(message));
  return async (method, params, context = singleUser) => {
    if (!isMethodName(method)) {
      return failure(errorCodes.unknownMethod, `Unknown request "${String(method).slice(0, 100)}"`);
    }
    const schemas = contractMethods[method];
    const parsed = schemas.request.safeParse(params ?? {});
    if (!parsed.success) {
      return failure(errorCodes.badRequest, `Invalid ${method} request: ${z.prettifyError(parsed.error)}`);
    }
    try {
      authorize(method, parsed.data, context);
      const handler = handlers[method] as (params: unknown, context: RequestContext) => unknown;
      const result = await handler(parsed.data, context);
      if (options.validateReplies) schemas.reply.parse(result);
      return { ok: true, result };
    } catch (error) {
      const coded = codeOf(error);
      if (coded.code === errorCodes.internal) log(`recto: ${method} failed: ${(error as Error)?.stack ?? String(error)}`);
      return failure(coded.code, coded.message, coded.detail);
    }
  };
}

/** A module's refusal carries its code (CodedError); anything else is an internal error, logged. */
function codeOf(error: unknown): { code: string; message: string; detail?: unknown } {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof CodedError) return { code: error.code, message, ...(error.detail === undefined ? {} : { detail: error.detail }) };
  return { code: errorCodes.internal, message: `Internal error: ${message}` };
}

function failure(code: string, message: string, detail?: unknown): ReplyEnvelope {
  return { ok: false, error: { code, message, ...(detail === undefined ? {} : { detail }) } };
}

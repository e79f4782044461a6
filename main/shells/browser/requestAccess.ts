/**
 * Who a browser-shell request acts for, from the credential it carries (docs/team-mode.md).
 *
 * - Single user (`recto serve`): one random token per launch, in the `x-recto-token` header or, for <img>, the event
 *   socket and the report link (which cannot send headers), in the URL; it opens the single-user context.
 * - Team (`recto serve --team`): only personal tokens (`recto users add`), looked up by hash in the project at every
 *   request, so a removed account or a reset token opens nothing from the next request on. Page image and report
 *   URLs carry no token but a key for the account (an HMAC of its id under a per-launch secret): a URL copied out of
 *   the page opens that image, never the RPC, and nothing once the account is removed.
 *
 * Tokens are compared in constant time or looked up by their hash; neither they nor the keys are ever logged.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Account } from '../../store/accounts.js';
import { singleUser, type RequestContext } from '../../services/requestContext.js';

export interface RequestAccess {
  /** Team mode (roles, personal tokens, rate limits) or the single-user launch token. */
  readonly team: boolean;
  /** The context a header token opens; null: refused (401). */
  byToken(candidate: string | null | undefined): RequestContext | null;
  /** The context a URL credential opens (page images, the event socket, the evaluation report); null: refused. */
  byUrlCredential(candidate: string | null | undefined): RequestContext | null;
  /** The URL credential for the request's person (what page image URLs carry). */
  urlCredentialFor(context: RequestContext | undefined): string;
}

function sameBytes(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The single-user app's access: one launch token. */
export function launchTokenAccess(token: string): RequestAccess {
  const opens = (candidate: string | null | undefined) => (candidate && sameBytes(candidate, token) ? singleUser : null);
  return { team: false, byToken: opens, byUrlCredential: opens, urlCredentialFor: () => token };
}

export interface TeamAccounts {
  /** The account in use whose personal token this is; null otherwise (unknown, removed, reset). */
  byToken(token: string): Account | null;
  /** The account as it is now; null or removed: refused. */
  byId(id: string): Account | null;
}

const KEY_PATTERN = /^([0-9a-f-]{36})\.([A-Za-z0-9_-]{43})$/;

/** Team mode's access: personal tokens; URL keys per account. `accounts` is read at every request. */
export function teamAccess(accounts: () => TeamAccounts, secret: Buffer = randomBytes(32)): RequestAccess {
  const keyOf = (accountId: string) => createHmac('sha256', secret).update(accountId).digest('base64url');
  const byToken = (candidate: string | null | undefined): RequestContext | null => {
    if (!candidate || candidate.length > 200) return null;
    const account = accounts().byToken(candidate);
    return account ? { account } : null;
  };
  return {
    team: true,
    byToken,
    byUrlCredential(candidate) {
      const key = candidate ? KEY_PATTERN.exec(candidate) : null;
      // The event socket is opened with the personal token (the renderer has nothing else); images use the key.
      if (!key) return byToken(candidate);
      if (!sameBytes(key[2]!, keyOf(key[1]!))) return null;
      const account = accounts().byId(key[1]!);
      return account && account.removedAt === null ? { account } : null;
    },
    urlCredentialFor(context) {
      if (!context?.account) throw new Error('team mode: a URL is made only for a signed-in account');
      return `${context.account.id}.${keyOf(context.account.id)}`;
    },
  };
}

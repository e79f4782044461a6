/**
 * When to try a page again and how long to wait first. A server that is busy (429), failing (5xx), unreachable or
 * silent gets the request again after an exponential backoff with jitter, so that many clients that failed together
 * do not come back together; a 429's or 503's `Retry-After` is honoured. A request the server rejects as such (other
 * 4xx) or a reply that is not the API's shape is not retried: it would fail the same way.
 */

export type RemoteFailureKind =
  /** The server answered with an HTTP error status. */
  | 'http'
  /** No connection, or the connection dropped before the answer was complete. */
  | 'connection'
  /** The request took longer than the per-request timeout, or the stream went silent. */
  | 'timeout'
  /** The server answered, but not in the chat-completions shape. */
  | 'protocol';

export class RemoteRequestError extends Error {
  override name = 'RemoteRequestError';
  constructor(
    readonly kind: RemoteFailureKind,
    message: string,
    readonly status?: number,
    /** From the Retry-After header, when the server sent one. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

export interface RetryPolicy {
  /** Attempts after the first. */
  retries: number;
  /** The first backoff; each further one doubles, up to maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A longer Retry-After than this is cut to it (a misconfigured server must not park a page for an hour). */
  maxRetryAfterMs: number;
}

export const defaultRetryPolicy: RetryPolicy = { retries: 4, baseDelayMs: 500, maxDelayMs: 30_000, maxRetryAfterMs: 120_000 };

/** HTTP statuses that say "later", not "never". */
const RETRYABLE_STATUSES = new Set([408, 429, 500, 502, 503, 504]);

export function isRetryable(error: unknown): boolean {
  if (!(error instanceof RemoteRequestError)) return false;
  if (error.kind === 'http') return error.status !== undefined && RETRYABLE_STATUSES.has(error.status);
  return error.kind === 'connection' || error.kind === 'timeout';
}

/**
 * The wait before retry number `retry` (0-based): the server's Retry-After when it gave one, else "equal jitter" —
 * half the exponential step fixed, half random — so waits grow but never collapse to zero.
 */
export function retryDelayMs(retry: number, error: unknown, policy: RetryPolicy, random: () => number = Math.random): number {
  if (error instanceof RemoteRequestError && error.retryAfterMs !== undefined) return Math.min(error.retryAfterMs, policy.maxRetryAfterMs);
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  return step / 2 + random() * (step / 2);
}

/** `Retry-After: 7` (seconds) or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

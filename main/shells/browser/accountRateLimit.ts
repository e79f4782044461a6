/**
 * Requests per account in team mode (docs/team-mode.md): a token bucket per account, so one person's runaway script
 * cannot take the server from the others. A person at full speed stepping through the queue sends a few requests a
 * keystroke (the page, its fields, its checks); the bucket refills at RATE_PER_SECOND — more than the 20 a second the
 * issue asks to leave room for — and holds BURST, for the requests a screen sends at once.
 */
export const RATE_PER_SECOND = 50;
export const BURST = 200;

export class AccountRateLimit {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly rate = RATE_PER_SECOND,
    private readonly burst = BURST,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Takes one request from the account's bucket; false when it is empty (the request is refused with 429). */
  take(accountId: string): boolean {
    const now = this.now();
    const bucket = this.buckets.get(accountId) ?? { tokens: this.burst, at: now };
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.rate);
    bucket.at = now;
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    this.buckets.set(accountId, bucket);
    return allowed;
  }
}

/** The per-account rate limit (issue 40): room for a person at full speed (≥ 20 requests a second, for ever), a burst, then refusals; accounts apart. */
import { describe, expect, it } from 'vitest';
import { AccountRateLimit, BURST, RATE_PER_SECOND } from './accountRateLimit.js';

describe('AccountRateLimit', () => {
  it('never refuses a person at 20 requests a second, whatever the length', () => {
    let now = 0;
    const limit = new AccountRateLimit(RATE_PER_SECOND, BURST, () => now);
    for (let i = 0; i < 20 * 600; i += 1) {
      expect(limit.take('ada')).toBe(true);
      now += 1000 / 20;
    }
  });

  it('takes a burst, then refuses until the bucket refills, one account at a time', () => {
    let now = 0;
    const limit = new AccountRateLimit(RATE_PER_SECOND, BURST, () => now);
    let taken = 0;
    while (limit.take('script')) taken += 1;
    expect(taken).toBe(BURST);
    expect(limit.take('ada')).toBe(true);
    now += 1000;
    for (let i = 0; i < RATE_PER_SECOND; i += 1) expect(limit.take('script')).toBe(true);
    expect(limit.take('script')).toBe(false);
  });
});

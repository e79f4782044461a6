import { describe, expect, it } from 'vitest';
import { reconnectDelayMs } from './backoff.js';

describe('reconnectDelayMs', () => {
  it('doubles from the base delay and stops at the maximum', () => {
    const noSpread = () => 1;
    expect(reconnectDelayMs(0, noSpread)).toBe(500);
    expect(reconnectDelayMs(1, noSpread)).toBe(1000);
    expect(reconnectDelayMs(3, noSpread)).toBe(4000);
    expect(reconnectDelayMs(10, noSpread)).toBe(10_000);
    expect(reconnectDelayMs(1000, noSpread)).toBe(10_000);
  });
  it('spreads attempts by up to 20 % below the nominal delay', () => {
    expect(reconnectDelayMs(1, () => 0)).toBe(800);
    expect(reconnectDelayMs(1, () => 0.5)).toBe(900);
  });
});

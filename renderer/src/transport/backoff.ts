/**
 * Delay before the next attempt to reconnect the event socket: doubles from `baseMs` up to `maxMs`, with up to 20 %
 * random spread so several windows do not reconnect in lockstep. `attempt` counts from 0.
 */
export function reconnectDelayMs(attempt: number, random: () => number = Math.random, baseMs = 500, maxMs = 10_000): number {
  const exponential = Math.min(maxMs, baseMs * 2 ** Math.max(0, Math.min(attempt, 30)));
  return Math.round(exponential * (0.8 + 0.2 * random()));
}

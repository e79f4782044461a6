/** The endpoint pool: pages go where slots are free, resting endpoints are passed over, waiters are served in order. */
import { describe, expect, it } from 'vitest';
import { EndpointPool } from './endpointPool.js';

describe('EndpointPool', () => {
  it('spreads requests by free capacity and queues the rest in arrival order', async () => {
    const pool = new EndpointPool([
      { url: 'a', concurrency: 1 },
      { url: 'b', concurrency: 3 },
    ]);
    expect(pool.capacity).toBe(4);
    const leases = await Promise.all([1, 2, 3, 4].map(() => pool.acquire()));
    expect(leases.map((l) => l.url).sort()).toEqual(['a', 'b', 'b', 'b']);
    const order: number[] = [];
    const waiting = [5, 6].map((n) => pool.acquire().then((lease) => (order.push(n), lease)));
    leases.find((l) => l.url === 'b')!.release('answered');
    leases.find((l) => l.url === 'a')!.release('answered');
    const [fifth, sixth] = await Promise.all(waiting);
    expect(order).toEqual([5, 6]);
    expect([fifth!.url, sixth!.url].sort()).toEqual(['a', 'b']);
    expect(pool.health().map((h) => [h.url, h.inFlight, h.answered])).toEqual([['a', 1, 1], ['b', 3, 1]]);
  });

  it('passes over an endpoint that rests after a failure, and one the page failed on, while others are free', async () => {
    let now = 0;
    const pool = new EndpointPool([{ url: 'a', concurrency: 4 }, { url: 'b', concurrency: 1 }], () => now);
    const first = await pool.acquire();
    expect(first.url).toBe('a'); // most free slots
    first.release({ error: 'HTTP 503', restMs: 1_000 });
    expect((await pool.acquire()).url).toBe('b'); // a rests
    now = 2_000;
    expect((await pool.acquire()).url).toBe('a'); // rested
    const avoid = await new EndpointPool([{ url: 'a', concurrency: 4 }, { url: 'b', concurrency: 1 }]).acquire(new Set(['a']));
    expect(avoid.url).toBe('b');
    expect(pool.health()[0]).toMatchObject({ errors: 1, lastError: 'HTTP 503' });
  });

  it('a cancelled wait leaves the queue', async () => {
    const pool = new EndpointPool([{ url: 'a', concurrency: 1 }]);
    const held = await pool.acquire();
    const controller = new AbortController();
    const waiting = pool.acquire(new Set(), controller.signal);
    controller.abort();
    await expect(waiting).rejects.toThrow(/cancelled/);
    held.release('cancelled');
    expect(pool.health()[0]).toMatchObject({ inFlight: 0, answered: 0, errors: 0 });
    expect((await pool.acquire()).url).toBe('a');
  });
});

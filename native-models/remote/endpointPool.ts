/**
 * The endpoints a remote engine reads through, each with its own number of requests in flight (its concurrency).
 * A page goes to the endpoint with the most free slots; an endpoint whose last attempt failed rests until its backoff
 * is over while the others take its pages, and a page's retry prefers an endpoint it has not failed on. When every
 * slot is taken, requests wait in arrival order. Counters per endpoint feed the progress line and the engine run.
 */
import type { EndpointStatus } from '../../app/model/engine.js';

export interface EndpointLease {
  readonly url: string;
  /** Gives the slot back; a failure marks the endpoint resting for `restMs`. */
  release(outcome: ReleaseOutcome): void;
}

export type ReleaseOutcome = 'answered' | 'cancelled' | { error: string; restMs: number };

interface Slot extends EndpointStatus {
  restingUntil: number;
}

interface Waiter {
  avoid: ReadonlySet<string>;
  resolve: (lease: EndpointLease) => void;
  reject: (error: Error) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

export class EndpointPool {
  private readonly slots: Slot[];
  private readonly waiting: Waiter[] = [];

  constructor(endpoints: readonly { url: string; concurrency: number }[], private readonly now: () => number = Date.now) {
    if (endpoints.length === 0) throw new Error('the remote engine needs at least one endpoint');
    this.slots = endpoints.map(({ url, concurrency }) => ({
      url,
      capacity: Math.max(1, Math.floor(concurrency)),
      inFlight: 0,
      answered: 0,
      errors: 0,
      lastError: null,
      restingUntil: 0,
    }));
  }

  /** Slots over all endpoints: how many pages are worth reading at once. */
  get capacity(): number {
    return this.slots.reduce((sum, slot) => sum + slot.capacity, 0);
  }

  health(): EndpointStatus[] {
    return this.slots.map(({ restingUntil: _resting, ...health }) => ({ ...health }));
  }

  /** A slot on the best endpoint free now, or the first to free up. `avoid`: endpoints this page already failed on. */
  acquire(avoid: ReadonlySet<string> = new Set(), signal?: AbortSignal): Promise<EndpointLease> {
    if (signal?.aborted) return Promise.reject(new Error('cancelled'));
    const slot = this.pick(avoid);
    if (slot) return Promise.resolve(this.lease(slot));
    return new Promise<EndpointLease>((resolve, reject) => {
      const waiter: Waiter = { avoid, resolve, reject, signal };
      if (signal) {
        waiter.onAbort = () => {
          this.waiting.splice(this.waiting.indexOf(waiter), 1);
          reject(new Error('cancelled'));
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      this.waiting.push(waiter);
    });
  }

  /**
   * The free endpoint to use: rested before resting, not-yet-failed (for this page) before failed, then the most free
   * slots. Resting and failed ones are still used when nothing else is free — the caller has waited its backoff.
   */
  private pick(avoid: ReadonlySet<string>): Slot | null {
    const now = this.now();
    let best: Slot | null = null;
    let bestScore = Number.NEGATIVE_INFINITY;
    for (const slot of this.slots) {
      const free = slot.capacity - slot.inFlight;
      if (free <= 0) continue;
      const score = (slot.restingUntil > now ? 0 : 2) + (avoid.has(slot.url) ? 0 : 1) + free / (slot.capacity + 1);
      if (score > bestScore) {
        best = slot;
        bestScore = score;
      }
    }
    return best;
  }

  private lease(slot: Slot): EndpointLease {
    slot.inFlight += 1;
    let released = false;
    return {
      url: slot.url,
      release: (outcome) => {
        if (released) return;
        released = true;
        slot.inFlight -= 1;
        if (outcome === 'answered') {
          slot.answered += 1;
          slot.restingUntil = 0;
        } else if (outcome !== 'cancelled') {
          slot.errors += 1;
          slot.lastError = outcome.error;
          slot.restingUntil = this.now() + outcome.restMs;
        }
        this.wake();
      },
    };
  }

  private wake(): void {
    while (this.waiting.length > 0) {
      const waiter = this.waiting[0]!;
      const slot = this.pick(waiter.avoid);
      if (!slot) return;
      this.waiting.shift();
      if (waiter.onAbort) waiter.signal?.removeEventListener('abort', waiter.onAbort);
      waiter.resolve(this.lease(slot));
    }
  }
}

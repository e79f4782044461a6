import { seededRandom } from '../seededRandom.js';

/** Deterministic pseudo-random numbers (mulberry32), so a reference pack is a pure function of its seed. */
export class Rng {
  /** Uniform in [0, 1). */
  readonly next: () => number;

  constructor(seed: number) {
    this.next = seededRandom(seed);
  }

  int(maxExclusive: number): number {
    return Math.floor(this.next() * maxExclusive);
  }

  /** `count` values, uniform with mean 0 and standard deviation `std`. */
  weights(count: number, std: number): Float32Array {
    const out = new Float32Array(count);
    const half = std * Math.sqrt(3);
    for (let i = 0; i < count; i++) out[i] = (this.next() * 2 - 1) * half;
    return out;
  }

  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [items[i], items[j]] = [items[j]!, items[i]!];
    }
    return items;
  }
}

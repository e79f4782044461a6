/**
 * mulberry32: a small seeded generator, exact in 32-bit integer arithmetic. Fixtures, mutants and benchmarks need
 * repeatability (the same project, noise or mutant on every run and machine), not statistical quality.
 */
export function seededUint32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/** The same sequence as uniform numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  const next = seededUint32(seed);
  return () => next() / 4294967296;
}

import { describe, expect, it } from 'vitest';
import { argmax, argmaxExcluding, NoRepeatNgramProcessor, pickCandidate, pickGreedy } from './logitsProcessors.js';
import { Rng } from '../../../testing/referencePack/rng.js';

describe('NoRepeatNgramProcessor', () => {
  it('bans the token that would complete an n-gram seen before', () => {
    const p = new NoRepeatNgramProcessor({ ngramSize: 3, windowSize: 100, exemptTokenIds: [] });
    // "1 2 3 … 1 2" → completing "1 2 3" again is banned
    expect([...p.bannedTokens([1, 2, 3, 4, 1, 2])]).toEqual([3]);
    expect([...p.bannedTokens([1, 2, 3, 4, 2, 1])]).toEqual([]);
  });
  it('only searches the window', () => {
    const p = new NoRepeatNgramProcessor({ ngramSize: 3, windowSize: 5, exemptTokenIds: [] });
    expect([...p.bannedTokens([1, 2, 3, 9, 9, 9, 1, 2])]).toEqual([]);
    const wide = new NoRepeatNgramProcessor({ ngramSize: 3, windowSize: 8, exemptTokenIds: [] });
    expect([...wide.bannedTokens([1, 2, 3, 9, 9, 9, 1, 2])]).toEqual([3]);
  });
  it('never bans exempt tokens such as <td> and </td>', () => {
    const p = new NoRepeatNgramProcessor({ ngramSize: 2, windowSize: 50, exemptTokenIds: [8, 9] });
    expect([...p.bannedTokens([7, 8, 7, 9, 7])].sort()).toEqual([]);
    expect([...p.bannedTokens([7, 8, 7, 5, 7])]).toEqual([5]);
  });
  it('sets banned logits to -Infinity so the greedy choice moves', () => {
    const p = new NoRepeatNgramProcessor({ ngramSize: 2, windowSize: 10, exemptTokenIds: [] });
    const row = new Float32Array([0, 5, 1, 0]);
    expect(pickGreedy(row, [2, 1, 2], [p])).toBe(2);
    expect(row[1]).toBe(5); // pickGreedy works on a copy
    expect(pickGreedy(row, [0, 2], [p])).toBe(1);
  });
  it('rejects bad sizes', () => {
    expect(() => new NoRepeatNgramProcessor({ ngramSize: 1, windowSize: 10, exemptTokenIds: [] })).toThrow(/ngramSize/);
    expect(() => new NoRepeatNgramProcessor({ ngramSize: 5, windowSize: 3, exemptTokenIds: [] })).toThrow(/windowSize/);
  });
});

describe('argmax', () => {
  it('takes the lowest index on ties', () => {
    expect(argmax(new Float32Array([1, 3, 3, 2]))).toBe(1);
  });
  it('skipping banned tokens equals setting them to -Infinity', () => {
    const row = new Float32Array([0.5, 9, 9, -1, 3]);
    const banned = new Set([1, 4]);
    const work = new Float32Array(row);
    for (const b of banned) work[b] = Number.NEGATIVE_INFINITY;
    expect(argmaxExcluding(row, banned)).toBe(argmax(work));
    expect(argmaxExcluding(row, new Set())).toBe(1);
  });
  it('uses process() for processors that do more than ban', () => {
    const boost = { process: (_: readonly number[], logits: Float32Array) => void (logits[3] = 100) };
    expect(pickGreedy(new Float32Array([1, 2, 3, 0]), [], [boost])).toBe(3);
  });
});

describe('pickCandidate (the top-C candidates a pack returns instead of full logits)', () => {
  /** ONNX TopK: largest first, lower index first on ties. */
  function topK(row: Float32Array, c: number) {
    const order = Array.from(row.keys()).sort((a, b) => row[b]! - row[a]! || a - b).slice(0, c);
    return { ids: Int32Array.from(order) };
  }

  it('equals the greedy choice on the full row whenever fewer than C tokens are banned', () => {
    const rng = new Rng(11);
    const p = new NoRepeatNgramProcessor({ ngramSize: 2, windowSize: 40, exemptTokenIds: [] });
    for (let trial = 0; trial < 300; trial++) {
      const vocab = 20 + rng.int(40);
      // coarse values, so ties are common
      const row = Float32Array.from({ length: vocab }, () => rng.int(6));
      const generated = Array.from({ length: 1 + rng.int(40) }, () => rng.int(vocab));
      const c = p.bannedTokens(generated).size + 1;
      expect(pickCandidate(topK(row, c), generated, [p])).toBe(pickGreedy(row, generated, [p]));
    }
  });

  it('refuses when every candidate is banned, and processors that edit logits', () => {
    const p = new NoRepeatNgramProcessor({ ngramSize: 2, windowSize: 10, exemptTokenIds: [] });
    expect(() => pickCandidate({ ids: Int32Array.of(1) }, [0, 1, 0], [p])).toThrow(/too few candidates/);
    const boost = { process: () => undefined };
    expect(() => pickCandidate({ ids: Int32Array.of(1) }, [], [boost])).toThrow(/full row/);
  });
});

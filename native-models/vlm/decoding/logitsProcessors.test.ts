import { describe, expect, it } from 'vitest';
import { argmax, argmaxExcluding, NoRepeatNgramProcessor, pickGreedy } from './logitsProcessors.js';

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

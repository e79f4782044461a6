import { describe, expect, it } from 'vitest';
import { verifyDrafts } from './verifier.js';

describe('verifyDrafts', () => {
  it('accepts every draft and adds the bonus token when all match', () => {
    expect(verifyDrafts([5, 6, 7], [5, 6, 7, 8])).toEqual({ accepted: [5, 6, 7], bonus: 8 });
  });
  it('stops at the first mismatch and takes the decoder token there as bonus', () => {
    expect(verifyDrafts([5, 9, 7], [5, 6, 7, 8])).toEqual({ accepted: [5], bonus: 6 });
  });
  it('accepts nothing when the first draft is wrong', () => {
    expect(verifyDrafts([1, 6, 7], [5, 6, 7, 8])).toEqual({ accepted: [], bonus: 5 });
  });
  it('does not accept a later match after a mismatch', () => {
    expect(verifyDrafts([1, 6], [5, 6, 9])).toEqual({ accepted: [], bonus: 5 });
  });
  it('handles K = 1', () => {
    expect(verifyDrafts([3], [3, 4])).toEqual({ accepted: [3], bonus: 4 });
    expect(verifyDrafts([3], [2, 4])).toEqual({ accepted: [], bonus: 2 });
  });
  it('rejects a target array of the wrong length', () => {
    expect(() => verifyDrafts([1, 2], [1, 2])).toThrow(/K \+ 1 = 3/);
  });
});

import { describe, expect, it } from 'vitest';
import { keepIfSame, sameAnswer } from './sameAnswer.js';

describe('sameAnswer', () => {
  it('compares JSON data deeply: objects by key whatever their order, arrays in order', () => {
    expect(sameAnswer({ a: 1, b: [1, { c: 'x' }] }, { b: [1, { c: 'x' }], a: 1 })).toBe(true);
    expect(sameAnswer({ a: 1, b: [1, { c: 'x' }] }, { a: 1, b: [1, { c: 'y' }] })).toBe(false);
    expect(sameAnswer([1, 2], [2, 1])).toBe(false);
    expect(sameAnswer({ a: undefined }, { b: undefined })).toBe(false);
    expect(sameAnswer({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(sameAnswer([], {})).toBe(false);
    expect(sameAnswer(null, {})).toBe(false);
    expect(sameAnswer(null, null)).toBe(true);
    expect(sameAnswer(0, -0)).toBe(true);
    expect(sameAnswer('1', 1)).toBe(false);
  });

  it('keeps the object shown when the new answer says the same', () => {
    const shown = { documents: [{ id: 'd', pages: [1] }] };
    expect(keepIfSame(shown, { documents: [{ id: 'd', pages: [1] }] })).toBe(shown);
    const changed = { documents: [{ id: 'd', pages: [1, 2] }] };
    expect(keepIfSame(shown, changed)).toBe(changed);
  });
});

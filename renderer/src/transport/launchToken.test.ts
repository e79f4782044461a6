import { describe, expect, it } from 'vitest';
import { hashWithoutToken, parseTokenFromHash } from './launchToken.js';

describe('launch token in the URL fragment', () => {
  it('reads the token whatever else the fragment holds', () => {
    expect(parseTokenFromHash('#token=abc123')).toBe('abc123');
    expect(parseTokenFromHash('#page=4&token=t%2Bk')).toBe('t+k');
    expect(parseTokenFromHash('#')).toBeNull();
    expect(parseTokenFromHash('')).toBeNull();
    expect(parseTokenFromHash('#token=')).toBeNull();
  });
  it('removes only the token from the fragment', () => {
    expect(hashWithoutToken('#token=abc')).toBe('');
    expect(hashWithoutToken('#page=4&token=abc')).toBe('#page=4');
  });
});

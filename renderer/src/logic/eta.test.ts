import { describe, expect, it } from 'vitest';
import { formatEta, formatPageCount } from './eta.js';

describe('formatEta', () => {
  it('says it is estimating until the first page has finished', () => {
    expect(formatEta(null)).toBe('estimating time left…');
    expect(formatEta(undefined)).toBe('estimating time left…');
    expect(formatEta(Number.NaN)).toBe('estimating time left…');
  });
  it('rounds short waits to tens of seconds', () => {
    expect(formatEta(3_000)).toBe('a few seconds left');
    expect(formatEta(12_000)).toBe('about 10 s left');
    expect(formatEta(26_000)).toBe('about 30 s left');
  });
  it('speaks in minutes, then hours', () => {
    expect(formatEta(55_000)).toBe('about 1 min left');
    expect(formatEta(60_000)).toBe('about 1 min left');
    expect(formatEta(150_000)).toBe('about 3 min left');
    expect(formatEta(60 * 60_000)).toBe('about 1 h left');
    expect(formatEta(95 * 60_000)).toBe('about 1 h 35 min left');
  });
  it('counts pages in words', () => {
    expect(formatPageCount(0, 1)).toBe('0 of 1 page');
    expect(formatPageCount(3, 12)).toBe('3 of 12 pages');
  });
});

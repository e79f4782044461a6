import { describe, expect, it } from 'vitest';
import { fillDays, formatDay } from './timeSeries.js';

describe('fillDays', () => {
  it('inserts idle days with zero pages so the x axis is real time', () => {
    const filled = fillDays([
      { day: '2026-11-28', pages: 3, meanScore: 0.8 },
      { day: '2026-12-01', pages: 1, meanScore: 0.5 },
    ]);
    expect(filled.map((point) => point.day)).toEqual(['2026-11-28', '2026-11-29', '2026-11-30', '2026-12-01']);
    expect(filled.map((point) => point.pages)).toEqual([3, 0, 0, 1]);
    expect(filled[1]!.meanScore).toBeNull();
  });
  it('sorts, merges duplicates and drops bad dates', () => {
    const filled = fillDays([
      { day: '2026-01-02', pages: 1, meanScore: 1 },
      { day: 'yesterday', pages: 9, meanScore: 0 },
      { day: '2026-01-01', pages: 2, meanScore: 0.5 },
      { day: '2026-01-02', pages: 1, meanScore: 1 },
    ]);
    expect(filled).toEqual([
      { day: '2026-01-01', pages: 2, meanScore: 0.5 },
      { day: '2026-01-02', pages: 2, meanScore: 1 },
    ]);
  });
  it('is empty without data and bounded for very long spans', () => {
    expect(fillDays([])).toEqual([]);
    const long = fillDays(
      [
        { day: '2000-01-01', pages: 1, meanScore: 1 },
        { day: '2026-01-01', pages: 1, meanScore: 1 },
      ],
      30,
    );
    expect(long).toHaveLength(30);
    expect(long[long.length - 1]!.day).toBe('2026-01-01');
  });
});

describe('formatDay', () => {
  it('writes day and month', () => {
    expect(formatDay('2026-11-30')).toBe('30 Nov');
    expect(formatDay('garbage')).toBe('garbage');
  });
});

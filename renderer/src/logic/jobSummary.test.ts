import { describe, expect, it } from 'vitest';
import type { JobProgress } from '../../../app/contract/events.js';
import { summariseJobs } from './jobSummary.js';

function job(partial: Partial<JobProgress>): JobProgress {
  return { jobId: 'j', label: 'Reading a.pdf', pagesDone: 0, pagesTotal: 1, etaMs: null, state: 'running', errors: [], ...partial };
}

describe('summariseJobs', () => {
  it('is null without jobs', () => {
    expect(summariseJobs([])).toBeNull();
  });
  it('sums running jobs and keeps the longest estimate', () => {
    const summary = summariseJobs([
      job({ jobId: 'a', pagesDone: 1, pagesTotal: 4, etaMs: 30_000 }),
      job({ jobId: 'b', label: 'Reading b.png', pagesDone: 1, pagesTotal: 1, etaMs: 0, state: 'done' }),
      job({ jobId: 'c', label: 'Reading c.pdf', pagesDone: 0, pagesTotal: 4, etaMs: 90_000 }),
    ])!;
    expect(summary).toMatchObject({ pagesDone: 1, pagesTotal: 8, etaMs: 90_000, running: true, label: 'Reading a.pdf and 1 more' });
    expect(summary.fraction).toBeCloseTo(0.125);
  });
  it('has no estimate while a running job has none, and reports failures', () => {
    const summary = summariseJobs([
      job({ pagesDone: 0, pagesTotal: 2, etaMs: null, errors: [{ pageId: 'p', reason: 'corrupt' }] }),
    ])!;
    expect(summary.etaMs).toBeNull();
    expect(summary.failedPages).toBe(1);
  });
  it('shows finished jobs as complete once nothing runs', () => {
    const summary = summariseJobs([job({ pagesDone: 3, pagesTotal: 3, etaMs: 0, state: 'done' })])!;
    expect(summary).toMatchObject({ running: false, fraction: 1, etaMs: 0 });
  });
});

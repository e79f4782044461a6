import { describe, expect, it } from 'vitest';
import type { JobProgress } from '../../../app/contract/events.js';
import { batchFinished, summariseJobs, withJobProgress, type JobBatchState } from './jobSummary.js';

function job(partial: Partial<JobProgress>): JobProgress {
  return { jobId: 'j', label: 'Reading a.pdf', pagesDone: 0, pagesTotal: 1, etaMs: null, state: 'running', errors: [], ...partial };
}

describe('summariseJobs', () => {
  it('is null without jobs', () => {
    expect(summariseJobs([])).toBeNull();
  });
  it('sums the whole batch, finished jobs included, and keeps the longest estimate before the batch has a rate', () => {
    const summary = summariseJobs([
      job({ jobId: 'a', pagesDone: 1, pagesTotal: 4, etaMs: 30_000 }),
      job({ jobId: 'b', label: 'Reading b.png', pagesDone: 1, pagesTotal: 1, etaMs: 0, state: 'done' }),
      job({ jobId: 'c', label: 'Reading c.pdf', pagesDone: 0, pagesTotal: 4, etaMs: 90_000 }),
    ])!;
    expect(summary).toMatchObject({ pagesDone: 2, pagesTotal: 9, etaMs: 90_000, running: true, label: 'Reading a.pdf and 1 more' });
    expect(summary.fraction).toBeCloseTo(2 / 9);
  });
  it('counts the documents of an import read one after another, and estimates from the batch\'s rate', () => {
    // Five one-page documents, one job each: two read in 20 s, one being read, two not started (no estimate of their own).
    const jobs = [
      job({ jobId: 'd1', pagesDone: 1, etaMs: 0, state: 'done' }),
      job({ jobId: 'd2', pagesDone: 1, etaMs: 0, state: 'done' }),
      job({ jobId: 'd3' }),
      job({ jobId: 'd4' }),
      job({ jobId: 'd5' }),
    ];
    const batch = { startedAt: 1_000, doneAtFirstSight: new Map(jobs.map((one) => [one.jobId, 0])) };
    const summary = summariseJobs(jobs, batch, 21_000)!;
    expect(summary).toMatchObject({ pagesDone: 2, pagesTotal: 5, running: true, etaMs: 30_000 });
    // Without the batch (no rate) it still says it is estimating rather than guessing.
    expect(summariseJobs(jobs)!.etaMs).toBeNull();
  });
  it('leaves pages done before the renderer watched out of the rate', () => {
    const jobs = [job({ jobId: 'big', pagesDone: 11, pagesTotal: 20 })];
    const summary = summariseJobs(jobs, { startedAt: 0, doneAtFirstSight: new Map([['big', 10]]) }, 5_000)!;
    expect(summary.etaMs).toBe(45_000);
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

describe('withJobProgress', () => {
  const report = (batch: JobBatchState | null, partial: Partial<JobProgress>, holdOpen = false, now = 0) => withJobProgress(batch, job(partial), holdOpen, now);

  it('keeps a finished document in the batch while the next runs, and counts what each job had done when first seen', () => {
    let batch = report(null, { jobId: 'a', pagesTotal: 2 }, false, 100);
    batch = report(batch, { jobId: 'b', pagesTotal: 3, pagesDone: 1 }, false, 150);
    batch = report(batch, { jobId: 'a', pagesTotal: 2, pagesDone: 2, state: 'done' }, false, 200);
    expect([...batch.jobs.keys()]).toEqual(['a', 'b']);
    expect(batch.startedAt).toBe(100);
    expect(batch.doneAtFirstSight).toEqual(new Map([['a', 0], ['b', 1]]));
    expect(batchFinished(batch)).toBe(false);
  });
  it('holds one batch open while an import still sends files, though each document is read before the next arrives', () => {
    let batch = report(null, { jobId: 'a' }, true, 100);
    batch = report(batch, { jobId: 'a', pagesDone: 1, state: 'done' }, true, 500);
    expect(batchFinished(batch)).toBe(true);
    batch = report(batch, { jobId: 'b' }, true, 900);
    expect([...batch.jobs.keys()]).toEqual(['a', 'b']);
    expect(summariseJobs([...batch.jobs.values()], batch, 1_100)).toMatchObject({ pagesDone: 1, pagesTotal: 2, etaMs: 1_000 });
  });
  it('begins a new batch for a job that starts once the last one finished, nothing holding it open', () => {
    const done = report(null, { jobId: 'a', pagesDone: 1, state: 'done' }, false, 100);
    const next = report(done, { jobId: 'b' }, false, 5_000);
    expect([...next.jobs.keys()]).toEqual(['b']);
    expect(next.startedAt).toBe(5_000);
  });
});

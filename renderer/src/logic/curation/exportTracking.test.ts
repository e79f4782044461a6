import { describe, expect, it } from 'vitest';
import type { JobProgress } from '../../../../app/contract/events.js';
import {
  RecentProgress,
  applyProgress,
  attachJob,
  idleExport,
  isExportBusy,
  requestCancel,
  skippedPages,
  type ExportState,
} from './exportTracking.js';

const progress = (jobId: string, state: JobProgress['state'], extra: Partial<JobProgress> = {}): JobProgress => ({
  jobId,
  label: 'Exporting to out',
  pagesDone: 0,
  pagesTotal: 0,
  etaMs: null,
  state,
  errors: [],
  ...extra,
});
const starting: ExportState = { ...idleExport, phase: 'starting', outDir: '/tmp/out' };

describe('export tracking', () => {
  it('follows its own job and ignores others', () => {
    const running = attachJob(starting, 'job-1', null);
    expect(running.phase).toBe('running');
    expect(applyProgress(running, progress('job-2', 'done'))).toBe(running);
    const halfway = applyProgress(running, progress('job-1', 'running', { pagesDone: 2, pagesTotal: 4 }));
    expect(halfway.progress?.pagesDone).toBe(2);
    const done = applyProgress(halfway, progress('job-1', 'done', { label: 'Exported 4 page(s)', pagesDone: 4, pagesTotal: 4 }));
    expect(done).toMatchObject({ phase: 'done', error: null });
    expect(skippedPages(done)).toEqual([]);
  });
  it('catches a job that finished before the reply named it', () => {
    const recent = new RecentProgress();
    recent.record(progress('job-1', 'running'));
    recent.record(progress('job-1', 'done', { errors: [{ pageId: 'p', reason: 'scan.png page 2: image missing' }] }));
    const state = attachJob(starting, 'job-1', recent.get('job-1'));
    expect(state.phase).toBe('done');
    expect(skippedPages(state)).toEqual(['scan.png page 2: image missing']);
  });
  it('reports the reason of a failed job', () => {
    const failed = applyProgress(attachJob(starting, 'j', null), progress('j', 'failed', { errors: [{ pageId: '', reason: 'disk full' }] }));
    expect(failed).toMatchObject({ phase: 'failed', error: 'disk full' });
  });
  it('follows a cancel request to the job\'s "cancelled" event, which is no error', () => {
    const running = applyProgress(attachJob(starting, 'j', null), progress('j', 'running', { pagesDone: 1, pagesTotal: 9 }));
    const cancelling = requestCancel(running);
    expect(cancelling.phase).toBe('cancelling');
    expect(isExportBusy(cancelling)).toBe(true);
    // Progress that was already on its way does not make it "running" again.
    expect(applyProgress(cancelling, progress('j', 'running', { pagesDone: 2, pagesTotal: 9 })).phase).toBe('cancelling');
    const cancelled = applyProgress(cancelling, progress('j', 'cancelled', { label: 'Export to out cancelled' }));
    expect(cancelled).toMatchObject({ phase: 'cancelled', error: null });
    expect(isExportBusy(cancelled)).toBe(false);
    expect(skippedPages(cancelled)).toEqual([]);
    // A cancel that came too late: the export finished.
    expect(applyProgress(cancelling, progress('j', 'done')).phase).toBe('done');
    // Nothing to cancel before the job is known, or after it ended.
    expect(requestCancel(starting)).toBe(starting);
    expect(requestCancel(cancelled)).toBe(cancelled);
  });
  it('forgets the oldest jobs beyond its capacity', () => {
    const recent = new RecentProgress(2);
    recent.record(progress('a', 'running'));
    recent.record(progress('b', 'running'));
    recent.record(progress('c', 'running'));
    expect(recent.get('a')).toBeNull();
    expect(recent.get('c')?.jobId).toBe('c');
  });
});

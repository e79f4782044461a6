/**
 * One progress bar for however many reading jobs run at once. An import queues one job per document, and they are read
 * one after another: the bar is about the batch (every job seen since the bar last went idle), not only the jobs still
 * running — otherwise each document read drops out of the count and the bar says "0 of N pages" to the end, and the
 * jobs not started yet (no page done, no estimate of their own) keep it "estimating" to the end.
 */
import type { JobProgress } from '../../../app/contract/events.js';

export interface JobSummary {
  label: string;
  pagesDone: number;
  pagesTotal: number;
  /** 0..1 */
  fraction: number;
  /** Null until the batch has a rate (a page done since it was first seen) or every running job an estimate. */
  etaMs: number | null;
  running: boolean;
  failedPages: number;
}

/** When the batch began, as the renderer saw it, and how many of its pages were done then (a reload mid-batch). */
export interface JobBatch {
  startedAt: number;
  /** Pages each job had done when first seen: pages done before the renderer was watching do not count in the rate. */
  doneAtFirstSight: ReadonlyMap<string, number>;
}

export function summariseJobs(jobs: readonly JobProgress[], batch?: JobBatch, now = Date.now()): JobSummary | null {
  if (jobs.length === 0) return null;
  const running = jobs.filter((job) => job.state === 'running');
  const pagesDone = jobs.reduce((sum, job) => sum + job.pagesDone, 0);
  const pagesTotal = jobs.reduce((sum, job) => sum + job.pagesTotal, 0);
  const anyRunning = running.length > 0;
  const first = running[0] ?? jobs[0]!;
  const others = (anyRunning ? running : jobs).length - 1;
  const label = others > 0 ? `${first.label} and ${others} more` : first.label;
  return {
    label,
    pagesDone,
    pagesTotal,
    fraction: pagesTotal > 0 ? Math.min(1, pagesDone / pagesTotal) : 0,
    etaMs: anyRunning ? estimate(jobs, running, batch, now) : 0,
    running: anyRunning,
    failedPages: jobs.reduce((sum, job) => sum + job.errors.length, 0),
  };
}

/**
 * Time left: the batch's own rate (pages done since it was first seen, over the time since) times the pages left —
 * across jobs, so parallel reading and documents not started are both counted; before any page is done, the longest
 * of the jobs' own estimates where every running job has one.
 */
function estimate(jobs: readonly JobProgress[], running: readonly JobProgress[], batch: JobBatch | undefined, now: number): number | null {
  const left = running.reduce((sum, job) => sum + Math.max(0, job.pagesTotal - job.pagesDone), 0);
  if (batch) {
    const doneSince = jobs.reduce((sum, job) => sum + Math.max(0, job.pagesDone - (batch.doneAtFirstSight.get(job.jobId) ?? 0)), 0);
    const elapsed = now - batch.startedAt;
    if (doneSince > 0 && elapsed > 0) return (elapsed / doneSince) * left;
  }
  const etas = running.map((job) => job.etaMs);
  return etas.some((eta) => eta === null) ? null : Math.max(...(etas as number[]));
}

/** A batch as the progress bar keeps it: its jobs as last reported, when it began, what each job had done when seen. */
export interface JobBatchState extends JobBatch {
  jobs: ReadonlyMap<string, JobProgress>;
}

const batchIdle = (batch: JobBatchState | null) => !batch || ![...batch.jobs.values()].some((job) => job.state === 'running');

/**
 * The batch after one `job.progress` event: the job joins the batch (its pages stay counted after it finishes) unless
 * every job of the batch had finished and nothing holds it open (`holdOpen`: an import still sending files, each
 * queued as it is imported) — then the job begins a new batch.
 */
export function withJobProgress(batch: JobBatchState | null, progress: JobProgress, holdOpen: boolean, now = Date.now()): JobBatchState {
  const fresh = !batch || (!batch.jobs.has(progress.jobId) && batchIdle(batch) && !holdOpen);
  const base: JobBatchState = fresh ? { startedAt: now, jobs: new Map(), doneAtFirstSight: new Map() } : batch!;
  const doneAtFirstSight = base.doneAtFirstSight.has(progress.jobId) ? base.doneAtFirstSight : new Map(base.doneAtFirstSight).set(progress.jobId, progress.pagesDone);
  return { startedAt: base.startedAt, jobs: new Map(base.jobs).set(progress.jobId, progress), doneAtFirstSight };
}

/** Whether the batch has finished (nothing running): the bar shows it a moment longer, then drops it. */
export const batchFinished = (batch: JobBatchState | null): boolean => batch !== null && batchIdle(batch);

/**
 * One progress bar for however many reading jobs run at once: pages summed, the longest ETA, the first job's label.
 */
import type { JobProgress } from '../../../app/contract/events.js';

export interface JobSummary {
  label: string;
  pagesDone: number;
  pagesTotal: number;
  /** 0..1 */
  fraction: number;
  /** Null while any running job has no estimate yet. */
  etaMs: number | null;
  running: boolean;
  failedPages: number;
}

export function summariseJobs(jobs: readonly JobProgress[]): JobSummary | null {
  if (jobs.length === 0) return null;
  const running = jobs.filter((job) => job.state === 'running');
  const shown = running.length > 0 ? running : jobs;
  const pagesDone = shown.reduce((sum, job) => sum + job.pagesDone, 0);
  const pagesTotal = shown.reduce((sum, job) => sum + job.pagesTotal, 0);
  const etas = running.map((job) => job.etaMs);
  const etaMs = etas.length === 0 ? 0 : etas.some((eta) => eta === null) ? null : Math.max(...(etas as number[]));
  const first = shown[0]!;
  const label = shown.length > 1 ? `${first.label} and ${shown.length - 1} more` : first.label;
  return {
    label,
    pagesDone,
    pagesTotal,
    fraction: pagesTotal > 0 ? Math.min(1, pagesDone / pagesTotal) : 0,
    etaMs,
    running: running.length > 0,
    failedPages: jobs.reduce((sum, job) => sum + job.errors.length, 0),
  };
}

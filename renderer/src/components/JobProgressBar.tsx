/** The progress across the batch of jobs (reading, or one export in its dialog): label, pages, ETA, a bar. Hidden when nothing is being read. */
import type { JobProgress } from '../../../app/contract/events.js';
import { formatEta, formatPageCount } from '../logic/eta.js';
import { summariseJobs, type JobBatch } from '../logic/jobSummary.js';

interface JobProgressBarProps {
  jobs: readonly JobProgress[];
  /** The batch the jobs belong to (useJobs): its start gives the rate across documents read one after another. */
  batch?: JobBatch;
  /** Without it the bar has no Cancel button (jobs that cannot be cancelled, such as an export). */
  onCancel?(jobIds: string[]): void;
  testId?: string;
}

export function JobProgressBar({ jobs, batch, onCancel, testId = 'progress-bar' }: JobProgressBarProps) {
  const summary = summariseJobs(jobs, batch);
  if (!summary) return null;
  const percent = Math.round(summary.fraction * 100);
  const timeLeft = summary.running ? formatEta(summary.etaMs) : 'done';
  return (
    <div
      className={summary.running ? 'progress' : 'progress finished'}
      data-testid={testId}
      role="progressbar"
      aria-valuemin={0}
      aria-valuemax={summary.pagesTotal}
      aria-valuenow={summary.pagesDone}
      aria-valuetext={`${formatPageCount(summary.pagesDone, summary.pagesTotal)}, ${timeLeft}`}
    >
      <div className="progress-text">
        <span className="progress-label">{summary.label}</span>
        <span className="progress-count">{formatPageCount(summary.pagesDone, summary.pagesTotal)}</span>
        <span className="progress-eta">{timeLeft}</span>
        {summary.running && onCancel && (
          <button
            className="text-button progress-cancel"
            onClick={() => onCancel(jobs.filter((job) => job.state === 'running').map((job) => job.jobId))}
          >
            Cancel
          </button>
        )}
        {summary.failedPages > 0 && (
          <span className="progress-failed">
            {summary.failedPages} {summary.failedPages === 1 ? 'page' : 'pages'} failed
          </span>
        )}
      </div>
      <div className="progress-track">
        <div className="progress-fill" style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}

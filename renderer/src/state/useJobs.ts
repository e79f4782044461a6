import { useEffect, useRef, useState } from 'react';
import type { JobProgress } from '../../../app/contract/events.js';
import { batchFinished, withJobProgress, type JobBatch, type JobBatchState } from '../logic/jobSummary.js';
import { useContractEvent } from './contractContext.js';

/** How long a finished batch stays on the bar, so "done" is seen rather than flashing away. */
const lingerMs = 1500;

/**
 * Jobs as reported by `job.progress`, as one batch (jobSummary.ts `withJobProgress`): a job that finishes stays while
 * others of the batch still run (its pages stay counted in "n of N pages"), and while `holdOpen` (an import still
 * sending files: each file is queued as it is imported, and a fast engine may finish one before the next arrives);
 * once none runs, the whole batch drops off after a moment. The batch's start and the pages done when each job was
 * first seen give the bar its rate.
 */
export function useJobs(holdOpen = false): { jobs: JobProgress[]; batch: JobBatch | undefined } {
  const [batch, setBatch] = useState<JobBatchState | null>(null);
  const held = useRef(holdOpen);
  held.current = holdOpen;

  useContractEvent('job.progress', (progress) => {
    setBatch((previous) => withJobProgress(previous, progress, held.current));
  });

  const finished = batchFinished(batch);
  useEffect(() => {
    if (!finished || holdOpen) return;
    const timer = setTimeout(() => setBatch(null), lingerMs);
    return () => clearTimeout(timer);
  }, [finished, batch, holdOpen]);

  return { jobs: batch ? [...batch.jobs.values()] : [], batch: batch ?? undefined };
}

import { useEffect, useRef, useState } from 'react';
import type { JobProgress } from '../../../app/contract/events.js';
import type { JobBatch } from '../logic/jobSummary.js';
import { useContractEvent } from './contractContext.js';

/** How long a finished batch stays on the bar, so "done" is seen rather than flashing away. */
const lingerMs = 1500;

interface Batch extends JobBatch {
  jobs: Map<string, JobProgress>;
  doneAtFirstSight: Map<string, number>;
}

const idle = (batch: Batch | null) => !batch || ![...batch.jobs.values()].some((job) => job.state === 'running');

/**
 * Jobs as reported by `job.progress`, as one batch: a job that finishes stays while others of the batch still run (its
 * pages stay counted in "n of N pages"), and while `holdOpen` (an import still sending files: each file is queued as
 * it is imported, and a fast engine may finish one before the next arrives); once none runs, the whole batch drops off
 * after a moment, and a job that starts meanwhile begins a new batch. The batch's start and the pages done when each
 * job was first seen give the bar its rate (jobSummary.ts).
 */
export function useJobs(holdOpen = false): { jobs: JobProgress[]; batch: JobBatch | undefined } {
  const [batch, setBatch] = useState<Batch | null>(null);
  const held = useRef(holdOpen);
  held.current = holdOpen;

  useContractEvent('job.progress', (progress) => {
    setBatch((previous) => {
      const fresh = !previous?.jobs.has(progress.jobId) && idle(previous) && !held.current;
      const base: Batch = fresh || !previous ? { startedAt: Date.now(), jobs: new Map(), doneAtFirstSight: new Map() } : previous;
      const doneAtFirstSight = base.doneAtFirstSight.has(progress.jobId) ? base.doneAtFirstSight : new Map(base.doneAtFirstSight).set(progress.jobId, progress.pagesDone);
      return { startedAt: base.startedAt, jobs: new Map(base.jobs).set(progress.jobId, progress), doneAtFirstSight };
    });
  });

  const finished = batch !== null && idle(batch);
  useEffect(() => {
    if (!finished || holdOpen) return;
    const timer = setTimeout(() => setBatch(null), lingerMs);
    return () => clearTimeout(timer);
  }, [finished, batch, holdOpen]);

  return { jobs: batch ? [...batch.jobs.values()] : [], batch: batch ?? undefined };
}

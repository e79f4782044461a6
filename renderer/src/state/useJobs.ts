import { useEffect, useRef, useState } from 'react';
import type { JobProgress } from '../../../app/contract/events.js';
import { useContractEvent } from './contractContext.js';

/** How long a finished job stays on the bar, so "done" is seen rather than flashing away. */
const lingerMs = 1500;

/** Reading jobs as reported by `job.progress`; finished ones drop off after a moment. */
export function useJobs(): JobProgress[] {
  const [jobs, setJobs] = useState<Map<string, JobProgress>>(new Map());
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());

  useContractEvent('job.progress', (progress) => {
    setJobs((previous) => new Map(previous).set(progress.jobId, progress));
    const existing = timers.current.get(progress.jobId);
    if (existing) clearTimeout(existing);
    if (progress.state !== 'running') {
      timers.current.set(
        progress.jobId,
        setTimeout(() => {
          timers.current.delete(progress.jobId);
          setJobs((previous) => {
            const next = new Map(previous);
            next.delete(progress.jobId);
            return next;
          });
        }, lingerMs),
      );
    }
  });

  useEffect(() => {
    const pending = timers.current;
    return () => pending.forEach((timer) => clearTimeout(timer));
  }, []);

  return [...jobs.values()];
}

import { useCallback, useState } from 'react';
import type { JobProgress } from '../../../app/contract/events.js';
import type { EvaluationResult, EvaluationStart } from '../../../app/contract/evaluation.js';
import { useClient, useContractEvent } from './contractContext.js';
import { useContractQuery } from './useContractQuery.js';

/** The open project's latest evaluation, the one running (its progress), and starting or cancelling one. */
export function useEvaluation() {
  const client = useClient();
  const [jobId, setJobId] = useState<string | null>(null);
  const [progress, setProgress] = useState<JobProgress | null>(null);
  // One error line for the latest result, a start and a failed run: a later answer does not clear a run's failure.
  const [error, setError] = useState<string | null>(null);
  const { data: result, reload } = useContractQuery<EvaluationResult | null>((contract) => contract.call('evaluation.latest', {}), { onError: setError });

  useContractEvent('job.progress', (event) => {
    if (event.jobId !== jobId) return;
    setProgress(event);
    if (event.state === 'running') return;
    setJobId(null);
    if (event.state === 'failed') setError(event.errors[0]?.reason ?? 'The evaluation failed');
    void reload();
  });

  const start = useCallback(
    async (request: EvaluationStart) => {
      setError(null);
      setProgress(null);
      try {
        setJobId((await client.call('evaluation.start', request)).jobId);
      } catch (caught) {
        setError(caught instanceof Error ? caught.message : String(caught));
      }
    },
    [client],
  );

  const cancel = useCallback(() => {
    if (jobId) void client.call('jobs.cancel', { jobId }).catch(() => undefined);
  }, [client, jobId]);

  return { result, running: jobId !== null, progress, error, start, cancel };
}

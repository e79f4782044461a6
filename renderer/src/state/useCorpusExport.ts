import { useCallback, useRef, useState } from 'react';
import type { RequestOf } from '../../../app/contract/methods.js';
import { RecentProgress, applyProgress, attachJob, idleExport, type ExportState } from '../logic/curation/exportTracking.js';
import { useClient, useContractEvent } from './contractContext.js';

/**
 * Starts `corpus.export` and follows its job. Lives in the App (not the dialog) so an export keeps being followed
 * while the analyst closes the dialog or switches views.
 */
export function useCorpusExport() {
  const client = useClient();
  const [state, setState] = useState<ExportState>(idleExport);
  const recent = useRef(new RecentProgress());

  useContractEvent('job.progress', (progress) => {
    recent.current.record(progress);
    setState((current) => applyProgress(current, progress));
  });

  const start = useCallback(
    async (request: RequestOf<'corpus.export'>) => {
      setState({ ...idleExport, phase: 'starting', outDir: request.outDir });
      try {
        const { jobId } = await client.call('corpus.export', request);
        setState((current) => attachJob(current, jobId, recent.current.get(jobId)));
      } catch (caught) {
        setState((current) => ({ ...current, phase: 'failed', error: caught instanceof Error ? caught.message : String(caught) }));
      }
    },
    [client],
  );

  const reset = useCallback(() => setState((current) => (current.phase === 'running' || current.phase === 'starting' ? current : idleExport)), []);

  return { state, start, reset };
}

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
  // Every export job this window started: they are never sent to jobs.cancel and stay off the top bar while the
  // dialog shows them (its fields can be edited after a run, which resets `state` but not the lingering top-bar job).
  const ownJobIds = useRef(new Set<string>());

  useContractEvent('job.progress', (progress) => {
    recent.current.record(progress);
    setState((current) => applyProgress(current, progress));
  });

  const start = useCallback(
    async (request: RequestOf<'corpus.export'>) => {
      setState({ ...idleExport, phase: 'starting', outDir: request.outDir });
      try {
        const { jobId } = await client.call('corpus.export', request);
        ownJobIds.current.add(jobId);
        setState((current) => attachJob(current, jobId, recent.current.get(jobId)));
      } catch (caught) {
        setState((current) => ({ ...current, phase: 'failed', error: caught instanceof Error ? caught.message : String(caught) }));
      }
    },
    [client],
  );

  const reset = useCallback(() => setState((current) => (current.phase === 'running' || current.phase === 'starting' ? current : idleExport)), []);

  const isExportJob = useCallback((jobId: string) => ownJobIds.current.has(jobId), []);

  return { state, start, reset, isExportJob };
}

import { useCallback, useRef, useState } from 'react';
import type { RequestOf } from '../../../app/contract/methods.js';
import {
  RecentProgress,
  applyProgress,
  attachJob,
  idleExport,
  isExportBusy,
  requestCancel,
  type ExportState,
} from '../logic/curation/exportTracking.js';
import { useClient, useContractEvent } from './contractContext.js';

/**
 * Starts `corpus.export` and follows its job. Lives in the App (not the dialog) so an export keeps being followed
 * while the analyst closes the dialog or switches views.
 */
export function useCorpusExport() {
  const client = useClient();
  const [state, setState] = useState<ExportState>(idleExport);
  const recent = useRef(new RecentProgress());
  // Every export job this window started: they are cancelled from the dialog only (not with the top bar's reading
  // jobs) and stay off the top bar while the dialog shows them (its fields can be edited after a run, which resets
  // `state` but not the lingering top-bar job).
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

  const reset = useCallback(() => setState((current) => (isExportBusy(current) ? current : idleExport)), []);

  /** Asks the running export to stop (jobs.cancel); its "cancelled" event ends it, with the folder as it was. */
  const cancel = useCallback(() => {
    const { phase, jobId } = state;
    if (phase !== 'running' || !jobId) return;
    setState(requestCancel);
    void client.call('jobs.cancel', { jobId }).catch(() => undefined);
  }, [client, state]);

  const isExportJob = useCallback((jobId: string) => ownJobIds.current.has(jobId), []);

  return { state, start, reset, cancel, isExportJob };
}

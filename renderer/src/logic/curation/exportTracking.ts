/**
 * Following one export job through `job.progress` events. The main side emits the job's first event before its reply
 * to `corpus.export` carries the job id, and a small export can even finish before that reply arrives — so events are
 * remembered by job id for a while, and the reply is matched against what already came.
 */
import type { JobProgress } from '../../../../app/contract/events.js';

export type ExportPhase = 'idle' | 'starting' | 'running' | 'cancelling' | 'done' | 'cancelled' | 'failed';

export interface ExportState {
  phase: ExportPhase;
  jobId: string | null;
  outDir: string | null;
  progress: JobProgress | null;
  /** What went wrong: the refusal of the request (non-empty folder…) or the failed job's reason. */
  error: string | null;
}

/** An export the dialog is waiting for (its fields are locked; Cancel is offered while it runs). */
export function isExportBusy(state: ExportState): boolean {
  return state.phase === 'starting' || state.phase === 'running' || state.phase === 'cancelling';
}

/** The state once Cancel was pressed: running until the job's "cancelled" (or, if it was finishing, "done") event. */
export function requestCancel(state: ExportState): ExportState {
  return state.phase === 'running' ? { ...state, phase: 'cancelling' } : state;
}

export const idleExport: ExportState = { phase: 'idle', jobId: null, outDir: null, progress: null, error: null };

/** Latest progress per job id, the oldest forgotten beyond `capacity`. */
export class RecentProgress {
  private readonly latest = new Map<string, JobProgress>();
  constructor(private readonly capacity = 50) {}

  record(progress: JobProgress): void {
    this.latest.delete(progress.jobId);
    this.latest.set(progress.jobId, progress);
    while (this.latest.size > this.capacity) this.latest.delete(this.latest.keys().next().value!);
  }

  get(jobId: string): JobProgress | null {
    return this.latest.get(jobId) ?? null;
  }
}

/** The state after a progress event of the tracked job (other jobs leave it unchanged). */
export function applyProgress(state: ExportState, progress: JobProgress): ExportState {
  if (state.jobId !== progress.jobId) return state;
  if (progress.state === 'running') return { ...state, phase: state.phase === 'cancelling' ? 'cancelling' : 'running', progress };
  if (progress.state === 'done') return { ...state, phase: 'done', progress, error: null };
  // Cancelled: not an error — the folder was left as it was.
  if (progress.state === 'cancelled') return { ...state, phase: 'cancelled', progress, error: null };
  const reason = progress.errors.map((error) => error.reason).join('; ') || `The export was ${progress.state}.`;
  return { ...state, phase: 'failed', progress, error: reason };
}

/** The state once the reply gave the job id: running, or already finished if its last event came first. */
export function attachJob(state: ExportState, jobId: string, known: JobProgress | null): ExportState {
  const attached: ExportState = { ...state, phase: 'running', jobId };
  return known ? applyProgress(attached, known) : attached;
}

/** Pages left out of a finished export, with why. */
export function skippedPages(state: ExportState): string[] {
  if (state.phase !== 'done' || !state.progress) return [];
  return state.progress.errors.map((error) => error.reason);
}

/**
 * The export as a job of the running app: refused at once when the folder is not usable, otherwise run in the
 * background with job.progress events (the UI's progress bar), ending with a "done" event whose label says what was
 * written and whose errors list the pages left out — or a "cancelled" event when `cancel()` stopped it (the folder
 * is then as it was: exportCorpus stages its changes and moves them in only at the end).
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { JobProgress } from '../../app/contract/events.js';
import type { CorpusExportRequest } from '../../app/contract/curation.js';
import type { EventBus } from '../events/eventBus.js';
import type { ProjectStore } from '../store/projectStore.js';
import { CorpusExportCancelledError, exportCorpus, previousExport, type PageImageRequest } from './exportCorpus.js';

export interface ExportJobDeps {
  store: ProjectStore;
  bus: EventBus;
  /** Path of a page's image on disk (rendered if needed). */
  pageImagePath: (pageId: string) => Promise<string>;
}

export interface ExportJob {
  jobId: string;
  /** Settles when the job has emitted its last event (never rejects). */
  done: Promise<void>;
  /** Asks the export to stop; it ends with a "cancelled" event unless it was already moving its files in. */
  cancel(): void;
}

export function startExportJob(deps: ExportJobDeps, request: CorpusExportRequest): ExportJob {
  const outDir = path.resolve(request.outDir);
  previousExport(outDir, deps.store.info().name);
  const jobId = randomUUID();
  const label = `Exporting to ${path.basename(outDir)}`;
  const startedAt = Date.now();
  const controller = new AbortController();
  let lastEmit = 0;
  let progress = { pagesDone: 0, pagesTotal: 0 };
  const emit = (event: Omit<JobProgress, 'jobId'>) => deps.bus.emit('job.progress', { jobId, ...event });
  emit({ label, pagesDone: 0, pagesTotal: 0, etaMs: null, state: 'running', errors: [] });
  const done = exportCorpus(deps.store, {
    outDir,
    status: request.status,
    since: request.since,
    images: request.images,
    signal: controller.signal,
    pageImage: async (page: PageImageRequest) => fs.promises.readFile(await deps.pageImagePath(page.pageId)),
    sourceBytes: (sha256) => deps.store.documents.getSourceBytes(sha256),
    onProgress: (pagesDone, pagesTotal) => {
      progress = { pagesDone, pagesTotal };
      const now = Date.now();
      if (now - lastEmit < 100 && pagesDone < pagesTotal) return;
      lastEmit = now;
      const etaMs = pagesDone > 0 ? ((now - startedAt) / pagesDone) * (pagesTotal - pagesDone) : null;
      emit({ label, pagesDone, pagesTotal, etaMs, state: 'running', errors: [] });
    },
  }).then(
    (summary) =>
      emit({
        label: `Exported ${summary.records} page(s) and ${summary.tests} test(s) to ${outDir}`,
        pagesDone: summary.records,
        pagesTotal: summary.records + summary.skipped.length,
        etaMs: 0,
        state: 'done',
        errors: summary.skipped.map((s) => ({ pageId: s.id ?? s.page, reason: `${s.page}: ${s.reason}` })),
      }),
    (error: unknown) =>
      error instanceof CorpusExportCancelledError
        ? emit({
            label: `Export to ${outDir} cancelled; the folder was left as it was`,
            ...progress,
            etaMs: null,
            state: 'cancelled',
            errors: [],
          })
        : emit({
            label: `Export to ${outDir} failed`,
            pagesDone: 0,
            pagesTotal: 0,
            etaMs: null,
            state: 'failed',
            errors: [{ pageId: '', reason: error instanceof Error ? error.message : String(error) }],
          }),
  );
  return { jobId, done, cancel: () => controller.abort() };
}

/** The export jobs of one session that are still running, so that jobs.cancel can reach them. */
export class ExportJobs {
  private readonly running = new Map<string, ExportJob>();

  start(deps: ExportJobDeps, request: CorpusExportRequest): ExportJob {
    const job = startExportJob(deps, request);
    this.running.set(job.jobId, job);
    void job.done.finally(() => this.running.delete(job.jobId));
    return job;
  }

  /** True when `jobId` is a running export (now asked to stop). */
  cancel(jobId: string): boolean {
    const job = this.running.get(jobId);
    if (!job) return false;
    job.cancel();
    return true;
  }
}

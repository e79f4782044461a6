/**
 * The export as a job of the running app: refused at once when the folder is not usable, otherwise run in the
 * background with job.progress events (the UI's progress bar), ending with a "done" event whose label says what was
 * written and whose errors list the pages left out.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { JobProgress } from '../../app/contract/events.js';
import type { CorpusExportRequest } from '../../app/contract/curation.js';
import type { EventBus } from '../events/eventBus.js';
import type { ProjectStore } from '../store/projectStore.js';
import { exportCorpus, previousExport, type PageImageRequest } from './exportCorpus.js';

export interface ExportJobDeps {
  store: ProjectStore;
  bus: EventBus;
  /** Path of a page's image on disk (rendered if needed). */
  pageImagePath: (pageId: string) => Promise<string>;
}

export function startExportJob(deps: ExportJobDeps, request: CorpusExportRequest): { jobId: string; done: Promise<void> } {
  const outDir = path.resolve(request.outDir);
  previousExport(outDir);
  const jobId = randomUUID();
  const label = `Exporting to ${path.basename(outDir)}`;
  const startedAt = Date.now();
  let lastEmit = 0;
  const emit = (progress: Omit<JobProgress, 'jobId'>) => deps.bus.emit('job.progress', { jobId, ...progress });
  emit({ label, pagesDone: 0, pagesTotal: 0, etaMs: null, state: 'running', errors: [] });
  const done = exportCorpus(deps.store, {
    outDir,
    status: request.status,
    since: request.since,
    images: request.images,
    pageImage: async (page: PageImageRequest) => fs.promises.readFile(await deps.pageImagePath(page.pageId)),
    onProgress: (pagesDone, pagesTotal) => {
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
      emit({
        label: `Export to ${outDir} failed`,
        pagesDone: 0,
        pagesTotal: 0,
        etaMs: null,
        state: 'failed',
        errors: [{ pageId: '', reason: error instanceof Error ? error.message : String(error) }],
      }),
  );
  return { jobId, done };
}

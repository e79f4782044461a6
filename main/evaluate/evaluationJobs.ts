/**
 * The app's engine evaluation: one at a time per session, in the background, with job.progress events (cancelled by
 * jobs.cancel, like reading and export jobs). Its rows and report live in the data folder under the project's path
 * hash, so a cancelled or interrupted evaluation resumes, and the latest result is there after a restart.
 */
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { JobProgress } from '../../app/contract/events.js';
import { evaluationSummarySchema, type EvaluationResult, type EvaluationStart } from '../../app/contract/evaluation.js';
import type { PageInput } from '../../app/model/engine.js';
import { UnknownEngineError, type EngineRegistry } from '../engines/engineRegistry.js';
import type { EventBus } from '../events/eventBus.js';
import type { PageRecord, ProjectStore } from '../store/projectStore.js';
import { evaluateProject, writeWhole } from './evaluateProject.js';
import { CodedError, errorCodes } from '../../app/contract/wire.js';

export interface EvaluationJobDeps {
  store: ProjectStore;
  bus: EventBus;
  engines: EngineRegistry;
  pageInput: (page: PageRecord) => Promise<PageInput>;
  dataDir: string;
}

export class EvaluationBusyError extends CodedError {
  override name = 'EvaluationBusyError';
  constructor(message: string) {
    super(errorCodes.badInput, message);
  }
}

/** Where a project's evaluation files live. */
export function evaluationFolder(dataDir: string, projectFile: string): string {
  const key = createHash('sha256').update(path.resolve(projectFile)).digest('hex').slice(0, 16);
  return path.join(dataDir, 'evaluations', key);
}

const resultFile = 'result.json';

export class EvaluationJobs {
  private running: { jobId: string; controller: AbortController } | null = null;

  start(deps: EvaluationJobDeps, request: EvaluationStart): { jobId: string } {
    if (this.running) throw new EvaluationBusyError('An evaluation is already running; cancel it or wait for it to finish');
    for (const engine of request.engines) {
      if (!deps.engines.has(engine)) throw new UnknownEngineError(`No engine "${engine}"; available: ${deps.engines.list().map((e) => e.id).join(', ')}`);
    }
    const jobId = randomUUID();
    const controller = new AbortController();
    this.running = { jobId, controller };
    const outDir = evaluationFolder(deps.dataDir, deps.store.file);
    const label = `Evaluating ${request.engines.join(', ')}`;
    const startedAt = Date.now();
    let progress = { pagesDone: 0, pagesTotal: 0 };
    let lastEmit = 0;
    const emit = (event: Omit<JobProgress, 'jobId'>) => deps.bus.emit('job.progress', { jobId, ...event });
    emit({ label, pagesDone: 0, pagesTotal: 0, etaMs: null, state: 'running', errors: [] });
    void evaluateProject({
      store: deps.store,
      engines: request.engines.map((id) => ({ key: id, engine: () => deps.engines.get(id) })),
      pageInput: deps.pageInput,
      outDir,
      threshold: request.threshold,
      costPerHour: request.costPerHour,
      limit: request.limit ?? undefined,
      signal: controller.signal,
      onProgress: (pagesDone, pagesTotal, current) => {
        progress = { pagesDone, pagesTotal };
        const now = Date.now();
        if (now - lastEmit < 100 && pagesDone < pagesTotal) return;
        lastEmit = now;
        const etaMs = pagesDone > 0 ? ((now - startedAt) / pagesDone) * (pagesTotal - pagesDone) : null;
        emit({ label: `${label}: ${current}`, pagesDone, pagesTotal, etaMs, state: 'running', errors: [] });
      },
    })
      .then((result) => {
        if (result.cancelled) {
          emit({ label: `${label} cancelled; it resumes where it stopped`, ...progress, etaMs: null, state: 'cancelled', errors: [] });
          return;
        }
        const saved: EvaluationResult = {
          summary: result.summary,
          referencePages: result.referencePages,
          finishedAt: new Date().toISOString(),
          reportPath: result.reportPath,
        };
        writeWhole(path.join(outDir, resultFile), `${JSON.stringify(saved, null, 2)}\n`);
        const failed = result.summary.engines.flatMap((engine) => engine.failures.map((f) => ({ pageId: f.pageId, reason: `${engine.engine}: ${f.error}` })));
        emit({ label: `Evaluated ${result.referencePages} page(s)`, ...progress, etaMs: 0, state: 'done', errors: failed });
      })
      .catch((error: unknown) => {
        const reason = error instanceof Error ? error.message : String(error);
        emit({ label: `${label} failed`, ...progress, etaMs: null, state: 'failed', errors: [{ pageId: '', reason }] });
      })
      .finally(() => {
        this.running = null;
      });
    return { jobId };
  }

  cancel(jobId: string): boolean {
    if (this.running?.jobId !== jobId) return false;
    this.running.controller.abort();
    return true;
  }

  /** The latest finished evaluation of the project, or null (none yet, or its file is unreadable). */
  latest(dataDir: string, projectFile: string): EvaluationResult | null {
    return latestEvaluation(dataDir, projectFile);
  }
}

/** The latest finished evaluation of a project, as its result file holds it; null when none (or unreadable). */
export function latestEvaluation(dataDir: string, projectFile: string): EvaluationResult | null {
  const file = path.join(evaluationFolder(dataDir, projectFile), resultFile);
  if (!fs.existsSync(file)) return null;
  try {
    const raw = JSON.parse(fs.readFileSync(file, 'utf8')) as EvaluationResult;
    const summary = evaluationSummarySchema.safeParse(raw.summary);
    return summary.success ? { ...raw, summary: summary.data } : null;
  } catch {
    return null;
  }
}

/** The report file of the latest evaluation, where it still exists: what the shells serve at the report's URL. */
export function latestEvaluationReport(dataDir: string, projectFile: string): string | null {
  const latest = latestEvaluation(dataDir, projectFile);
  return latest && fs.existsSync(latest.reportPath) ? latest.reportPath : null;
}

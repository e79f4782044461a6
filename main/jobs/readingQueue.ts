/**
 * The reading queue: pages wait here for an engine. Jobs are batches (one import, one re-read) with their own
 * progress and ETA; pages are read one after another, each written to the store in one transaction with its run.
 */
import { randomUUID } from 'node:crypto';
import type { JobProgress } from '../../app/contract/events.js';
import type { PageInput } from '../../app/model/engine.js';
import type { EventBus } from '../events/eventBus.js';
import type { EngineRegistry } from '../engines/engineRegistry.js';
import type { PageRecord, ProjectStore } from '../store/projectStore.js';

export interface ReadTask {
  pageId: string;
  documentId: string;
}

export interface ReadingQueueDeps {
  store: ProjectStore;
  engines: EngineRegistry;
  bus: EventBus;
  /** Makes the engine's input for a page (renders the page image if it is not cached). */
  pageInput: (page: PageRecord) => Promise<PageInput>;
}

interface Job {
  id: string;
  label: string;
  engineId: string;
  tasks: ReadTask[];
  done: number;
  errors: JobProgress['errors'];
  startedAt: number;
  controller: AbortController;
  state: JobProgress['state'];
}

export class ReadingQueue {
  private readonly jobs: Job[] = [];
  private running: Promise<void> | null = null;
  private disposed = false;

  constructor(private readonly deps: ReadingQueueDeps) {}

  /** Queues pages for reading; returns the job id that progress events carry. */
  enqueue(label: string, tasks: ReadTask[], engineId: string): string {
    const job: Job = {
      id: randomUUID(),
      label,
      engineId,
      tasks,
      done: 0,
      errors: [],
      startedAt: Date.now(),
      controller: new AbortController(),
      state: 'running',
    };
    for (const task of tasks) this.deps.store.setPageStatus(task.pageId, 'pending');
    this.jobs.push(job);
    this.report(job);
    this.running ??= this.drain().finally(() => {
      this.running = null;
    });
    return job.id;
  }

  cancel(jobId: string): boolean {
    const job = this.jobs.find((candidate) => candidate.id === jobId);
    if (!job || job.state !== 'running') return false;
    job.controller.abort();
    return true;
  }

  /** Resolves when every queued page has been read (or failed); for the CLI and tests. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Stops reading: the page being read is abandoned and stays 'pending', to be resumed when the project reopens. */
  async dispose(): Promise<void> {
    this.disposed = true;
    for (const job of this.jobs) job.controller.abort();
    await this.idle();
  }

  private async drain(): Promise<void> {
    while (this.jobs.length > 0) {
      const job = this.jobs[0]!;
      for (const task of job.tasks.slice(job.done)) {
        if (job.controller.signal.aborted) break;
        await this.readOne(job, task);
        if (!job.controller.signal.aborted) {
          job.done += 1;
          this.report(job);
        }
      }
      this.jobs.shift();
      if (job.controller.signal.aborted) {
        job.state = 'cancelled';
        if (!this.disposed) {
          for (const task of job.tasks.slice(job.done)) this.deps.store.setPageStatus(task.pageId, 'pending');
        }
      } else {
        job.state = job.errors.length === job.tasks.length && job.tasks.length > 0 ? 'failed' : 'done';
      }
      if (!this.disposed) this.report(job);
    }
  }

  private async readOne(job: Job, task: ReadTask): Promise<void> {
    const { store, bus, engines } = this.deps;
    const startedAt = new Date();
    try {
      store.setPageStatus(task.pageId, 'reading');
      bus.emit('page.updated', task);
      const page = store.getPage(task.pageId);
      const engine = await engines.get(job.engineId);
      const input = await this.deps.pageInput(page);
      const extraction = await engine.read(input, { signal: job.controller.signal });
      if (job.controller.signal.aborted) return;
      store.saveExtraction(task.pageId, extraction, startedAt);
    } catch (error) {
      if (job.controller.signal.aborted) return;
      const reason = error instanceof Error ? error.message : String(error);
      job.errors.push({ pageId: task.pageId, reason });
      store.setPageStatus(task.pageId, 'error', reason);
    } finally {
      if (!this.disposed) bus.emit('page.updated', task);
    }
  }

  private report(job: Job): void {
    const elapsed = Date.now() - job.startedAt;
    const remaining = job.tasks.length - job.done;
    this.deps.bus.emit('job.progress', {
      jobId: job.id,
      label: job.label,
      pagesDone: job.done,
      pagesTotal: job.tasks.length,
      etaMs: job.done > 0 && job.state === 'running' ? (elapsed / job.done) * remaining : null,
      state: job.state,
      errors: [...job.errors],
    });
  }
}

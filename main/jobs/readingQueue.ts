/**
 * The reading queue: pages wait here for an engine. Jobs are batches (one import, one re-read) with their own
 * progress and ETA; pages are read one after another (or as many at once as the engine's servers take: the remote
 * engine), each written to the store in one transaction with its run, so a killed run loses only the pages in flight.
 *
 * Engines read one page at a time, but running headers and footers are a property of the document. Each page is saved
 * as soon as it is read, already judged against the document's pages read before it (`markRunningFurniture` with
 * those as context), so the analyst sees pages as they come and a crash loses at most the page being read. When a
 * document's last page of the job is read, the pass runs once more over all of them: the first pages, read before
 * their header was seen again, get their furniture then — unless the analyst has already started correcting them.
 */
import { randomUUID } from 'node:crypto';
import { withEInvoice } from '../../app/einvoice/index.js';
import { pageLabel, withoutPageLabel } from './pageErrors.js';
import { boxlessWarning, NO_BOXES_WARNING } from './boxlessPages.js';
import type { JobProgress } from '../../app/contract/events.js';
import { markRunningFurniture } from '../../app/document/runningFurniture.js';
import type { PageInput } from '../../app/model/engine.js';
import type { Extraction } from '../../app/model/extraction.js';
import type { EventBus } from '../events/eventBus.js';
import type { EngineRegistry } from '../engines/engineRegistry.js';
import type { PageRecord, ProjectStore } from '../store/projectStore.js';
import type { StoredEInvoice } from '../store/einvoices.js';
import { LiveReading } from './liveReading.js';
import { readStoredEInvoice } from './storedEInvoice.js';

/** However many slots an engine's servers offer, no more pages than this are rendered and in flight at once. */
const MAX_PAGES_AT_ONCE = 256;

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
  /** Lays the project's supplier memory over a page's invoice fields before it is saved (main/services/supplierLearning.ts). */
  readThroughMemory?: (extraction: Extraction) => Extraction;
  /** Supplier memory over a whole document once its last page is in; returns the pages whose reading it changed. */
  readDocumentThroughMemory?: (documentId: string) => string[];
}

/** A page read by its engine and saved; kept until the rest of its document is read. */
interface ReadPage {
  task: ReadTask;
  extraction: Extraction;
  startedAt: Date;
  pageNumber: number;
}

interface Job {
  id: string;
  label: string;
  engineId: string;
  tasks: ReadTask[];
  done: number;
  errors: JobProgress['errors'];
  /** Pages read with something the reviewer should know (boxlessPages.ts). */
  warnings: NonNullable<JobProgress['warnings']>;
  startedAt: number;
  controller: AbortController;
  state: JobProgress['state'];
  /** The next task to start. */
  next: number;
  /** Tasks started and not yet finished. */
  inFlight: number;
  /** Indices of the tasks finished (read or failed): a cancel puts exactly the others back to pending. */
  finished: Set<number>;
  /** Pages of the job still to read, per document: its pass runs when this reaches 0. */
  left: Map<string, number>;
  /** Pages read, per document, kept for that pass. */
  held: Map<string, ReadPage[]>;
}

export class ReadingQueue {
  private readonly jobs: Job[] = [];
  private running: Promise<void> | null = null;
  private disposed = false;
  /**
   * The latest readings of each document being read, by page number: loaded once when the document's first page of a
   * job is read (one query), then kept in step with each page saved, so the document pass parses every page once per
   * document rather than every page on every page read. Dropped when the document's pass is done.
   */
  private readonly contexts = new Map<string, Map<number, Extraction>>();
  /**
   * The e-invoice of each document being read, its XML read once in a worker (storedEInvoice.ts), not on this thread
   * for every page; the settled value kept beside it for the document pass. Dropped with the contexts.
   */
  private readonly einvoices = new Map<string, Promise<StoredEInvoice | null>>();
  private readonly einvoicesRead = new Map<string, StoredEInvoice | null>();

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
      warnings: [],
      startedAt: Date.now(),
      controller: new AbortController(),
      state: 'running',
      next: 0,
      inFlight: 0,
      finished: new Set(),
      left: new Map(),
      held: new Map(),
    };
    for (const task of tasks) {
      this.deps.store.documents.setPageStatus(task.pageId, 'pending');
      job.left.set(task.documentId, (job.left.get(task.documentId) ?? 0) + 1);
    }
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

  /**
   * Starts the queued pages in order, as many at once as the engine of the next page reads well (one for local
   * engines, the endpoints' slots for remote ones) — across jobs, so a batch of one-page files fills the servers too.
   */
  private async drain(): Promise<void> {
    const reading = new Set<Promise<void>>();
    for (;;) {
      this.settleJobs();
      const job = this.jobs.find((candidate) => candidate.next < candidate.tasks.length && !candidate.controller.signal.aborted);
      if (!job) {
        if (reading.size === 0) return;
        await Promise.race(reading);
        continue;
      }
      const limit = await this.parallelismOf(job.engineId);
      if (job.controller.signal.aborted) continue;
      if (reading.size >= limit) {
        await Promise.race(reading);
        continue;
      }
      const index = job.next++;
      job.inFlight += 1;
      const read: Promise<void> = this.readTask(job, index).finally(() => {
        job.inFlight -= 1;
        reading.delete(read);
      });
      reading.add(read);
    }
  }

  /** Reads a task; counts it and runs its document's pass when it was the document's last page of the job. */
  private async readTask(job: Job, index: number): Promise<void> {
    const task = job.tasks[index]!;
    const read = await this.readOne(job, task);
    if (job.controller.signal.aborted) return;
    if (read) job.held.set(task.documentId, [...(job.held.get(task.documentId) ?? []), read]);
    job.finished.add(index);
    job.done += 1;
    this.report(job);
    const remaining = job.left.get(task.documentId)! - 1;
    job.left.set(task.documentId, remaining);
    if (remaining === 0) {
      this.revisitDocument(job.held.get(task.documentId) ?? []);
      this.readDocumentThroughMemory(task.documentId);
      job.held.delete(task.documentId);
      this.forgetDocument(task.documentId);
    }
  }

  /** Jobs with nothing left to start and nothing in flight are finished: reported and removed, in order. */
  private settleJobs(): void {
    for (const job of [...this.jobs]) {
      const started = job.next >= job.tasks.length || job.controller.signal.aborted;
      if (!started || job.inFlight > 0) continue;
      this.jobs.splice(this.jobs.indexOf(job), 1);
      for (const pages of job.held.values()) this.revisitDocument(pages);
      for (const task of job.tasks) this.forgetDocument(task.documentId);
      if (job.controller.signal.aborted) {
        job.state = 'cancelled';
        if (!this.disposed) {
          job.tasks.forEach((task, index) => {
            if (!job.finished.has(index)) this.deps.store.documents.setPageStatus(task.pageId, 'pending');
          });
        }
      } else {
        job.state = job.errors.length === job.tasks.length && job.tasks.length > 0 ? 'failed' : 'done';
      }
      if (!this.disposed) this.report(job);
    }
  }

  /** Pages to read at once with this engine: its own figure, capped; 1 if it cannot start (each page then fails alone). */
  private async parallelismOf(engineId: string): Promise<number> {
    try {
      const engine = await this.deps.engines.get(engineId);
      return Math.max(1, Math.min(MAX_PAGES_AT_ONCE, Math.floor(engine.parallelism ?? 1)));
    } catch {
      return 1;
    }
  }

  /** Reads one page and saves it, judged against the document's pages read before it; null if it failed. */
  private async readOne(job: Job, task: ReadTask): Promise<ReadPage | null> {
    const { store, bus, engines } = this.deps;
    const startedAt = new Date();
    const live = new LiveReading(bus, task.pageId);
    try {
      store.documents.setPageStatus(task.pageId, 'reading');
      // Read while the engine reads the page; awaited below (a failure then fails the page).
      const einvoice = this.documentEInvoice(task.documentId);
      einvoice.catch(() => {});
      bus.emit('page.updated', task);
      const page = store.documents.getPage(task.pageId);
      const engine = await engines.get(job.engineId);
      const input = await this.deps.pageInput(page);
      let read = await engine.read(input, { signal: job.controller.signal, onEvent: live.onEvent });
      live.flush();
      if (job.controller.signal.aborted) return null;
      const boxless = boxlessWarning(read);
      if (boxless) {
        read = boxless;
        job.warnings.push({ pageId: task.pageId, reason: `${pageLabel(page)}: ${NO_BOXES_WARNING}` });
      }
      const readPage: ReadPage = { task, extraction: read, startedAt, pageNumber: page.pageNumber };
      const passed = this.withDocumentEInvoice(await einvoice, this.documentPassOrWarning([readPage])[0]!);
      const extraction = this.deps.readThroughMemory?.(passed) ?? passed;
      store.readings.saveExtraction(task.pageId, extraction, startedAt);
      this.remember(task.documentId, page.pageNumber, extraction);
      return { ...readPage, extraction };
    } catch (error) {
      if (job.controller.signal.aborted) return null;
      this.fail(job, task, error);
      return null;
    } finally {
      live.dispose();
      if (!this.disposed) bus.emit('page.updated', task);
    }
  }

  /**
   * The document pass over all its pages read in this job, now that the last one is in. A page whose furniture changed
   * (typically the first: its header was seen again only later) gets its saved reading updated, if no correction has
   * been saved for it yet — a correction is based on the reading it was made from, and the pass only moves furniture.
   */
  private revisitDocument(pages: ReadPage[]): void {
    if (pages.length < 2) return;
    const { store, bus } = this.deps;
    let revisited: Extraction[];
    try {
      revisited = this.withDocumentPass(pages);
    } catch {
      return; // each page was saved already, with the pass's outcome at the time (or its warning)
    }
    pages.forEach((read, i) => {
      const extraction = revisited[i]!;
      if (extraction === read.extraction || extraction.markdown === read.extraction.markdown) return;
      if (store.revisions.latestRevision(read.task.pageId)) return;
      const withXml = this.withDocumentEInvoice(this.settledEInvoice(read.task.documentId), extraction);
      store.readings.updateLatestExtraction(read.task.pageId, withXml);
      this.remember(read.task.documentId, read.pageNumber, withXml);
      if (!this.disposed) bus.emit('page.updated', read.task);
    });
  }

  /** Memory over the whole document (header fields on its first page, totals on its last), after the document pass. */
  private readDocumentThroughMemory(documentId: string): void {
    const changed = this.deps.readDocumentThroughMemory?.(documentId) ?? [];
    if (!this.disposed) for (const pageId of changed) this.deps.bus.emit('page.updated', { pageId, documentId });
  }

  /** The document pass; should it fail, the pages as the engine returned them, each with a warning saying so. */
  private documentPassOrWarning(pages: ReadPage[]): Extraction[] {
    try {
      return this.withDocumentPass(pages);
    } catch (error) {
      const warning = `running headers and footers not looked for across pages: ${error instanceof Error ? error.message : String(error)}`;
      return pages.map((read) => ({ ...read.extraction, warnings: [...read.extraction.warnings, warning] }));
    }
  }

  /** Running furniture over the given pages and the document's other pages read earlier (context only, not saved again). */
  private withDocumentPass(held: ReadPage[]): Extraction[] {
    const { store } = this.deps;
    const documentId = held[0]!.task.documentId;
    let context = this.contexts.get(documentId);
    if (!context) {
      context = store.readings.latestExtractions(documentId);
      this.contexts.set(documentId, context);
    }
    const byNumber = new Map<number, { extraction: Extraction; held: number | null }>();
    for (const [pageNumber, earlier] of context) byNumber.set(pageNumber, { extraction: earlier, held: null });
    held.forEach((read, i) => byNumber.set(read.pageNumber, { extraction: read.extraction, held: i }));
    const numbers = [...byNumber.keys()].sort((a, b) => a - b);
    const ordered = numbers.map((n) => byNumber.get(n)!);
    const marked = markRunningFurniture(ordered.map((entry) => entry.extraction), numbers);
    const result = held.map((read) => read.extraction);
    ordered.forEach((entry, i) => {
      if (entry.held !== null) result[entry.held] = marked[i]!;
    });
    return result;
  }

  /** Keeps a document's context in step with what was just saved. */
  private remember(documentId: string, pageNumber: number, extraction: Extraction): void {
    this.contexts.get(documentId)?.set(pageNumber, extraction);
  }

  /** The document's e-invoice (embedded or imported XML) attached to a page reading, with the page-vs-XML check. */
  private withDocumentEInvoice(stored: StoredEInvoice | null, extraction: Extraction): Extraction {
    if (!stored) return extraction;
    return withEInvoice(extraction, stored.status === 'read' ? { status: 'read', invoice: stored.invoice } : stored);
  }

  /** The document's e-invoice, read once per document while its pages are read. */
  private documentEInvoice(documentId: string): Promise<StoredEInvoice | null> {
    let pending = this.einvoices.get(documentId);
    if (!pending) {
      // Stores made for tests may have no e-invoice repository.
      const repository = this.deps.store.einvoices as ProjectStore['einvoices'] | undefined;
      pending = repository ? readStoredEInvoice(repository, documentId) : Promise.resolve(null);
      this.einvoices.set(documentId, pending);
      pending.then((stored) => this.einvoices.get(documentId) === pending && this.einvoicesRead.set(documentId, stored), () => {});
    }
    return pending;
  }

  /** The e-invoice the document's page reads awaited (read on this thread in the rare case none did). */
  private settledEInvoice(documentId: string): StoredEInvoice | null {
    if (this.einvoicesRead.has(documentId)) return this.einvoicesRead.get(documentId)!;
    return (this.deps.store.einvoices as ProjectStore['einvoices'] | undefined)?.get(documentId) ?? null;
  }

  private forgetDocument(documentId: string): void {
    this.contexts.delete(documentId);
    this.einvoices.delete(documentId);
    this.einvoicesRead.delete(documentId);
  }

  private fail(job: Job, task: ReadTask, error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    // Kept without the page's label: whoever shows the error names the page (pageErrors.ts).
    let reason = message;
    try {
      reason = withoutPageLabel(message, pageLabel(this.deps.store.documents.getPage(task.pageId)));
    } catch {
      // the page is gone (removed while it was read): the message as it is
    }
    job.errors.push({ pageId: task.pageId, reason });
    this.deps.store.documents.setPageStatus(task.pageId, 'error', reason);
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
      warnings: [...job.warnings],
    });
  }
}

/**
 * One running Recto: the open project, its reading queue, the engines and the settings. Both shells and the CLI
 * drive the same session; the contract handlers (handlers.ts) are a thin typed layer over it.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ImportResult, ProjectInfo } from '../../app/contract/methods.js';
import type { DocumentSummary } from '../../app/model/page.js';
import type { PageInput } from '../../app/model/engine.js';
import { EventBus } from '../events/eventBus.js';
import type { EngineRegistry } from '../engines/engineRegistry.js';
import { ReadingQueue } from '../jobs/readingQueue.js';
import { readDocumentThroughMemory, withSupplierMemory } from './supplierLearning.js';
import { checkTrailOnOpening } from './trailOnOpening.js';
import type { SettingsFile } from '../settings/settingsFile.js';
import { type PageRecord, ProjectStore } from '../store/projectStore.js';
import type { NewDocumentEInvoice } from '../store/einvoices.js';
import type { InspectedFile } from './documentImporter.js';
import { pageInputFor } from './pageInputs.js';
import type { PageImageCache } from './pageImageCache.js';
import type { ScreenImageWidth } from '../../app/contract/screenImage.js';
import { CodedError, errorCodes } from '../../app/contract/wire.js';
import { Presence } from './presence.js';

/** A request that needs an open project, made while none is open. */
export class NoProjectError extends CodedError {
  override name = 'NoProjectError';
  constructor() {
    super(errorCodes.noProject, 'No project is open: open or create a project first');
  }
}

/** A file the user asked to import that cannot be imported; the message names the file and the reason. */
export class FileRejectedError extends CodedError {
  override name = 'FileRejectedError';
  constructor(message: string) {
    super(errorCodes.badInput, message);
  }
}

export interface RectoSessionOptions {
  engines: EngineRegistry;
  settings: SettingsFile;
  images: PageImageCache;
  /** Where the samples project is created. */
  dataDir: string;
  /** The bundled sample documents, offered on first start. */
  samplesDir: string;
  bus?: EventBus;
}

interface OpenOptions {
  remember?: boolean;
  engine?: string;
}

interface OpenProject {
  store: ProjectStore;
  queue: ReadingQueue;
  /** What opening found wrong with the audit trail (trailOnOpening.ts), shown by the app until another project opens. */
  trailWarning?: string;
}

export class RectoSession {
  readonly bus: EventBus;
  readonly engines: EngineRegistry;
  readonly settings: SettingsFile;
  readonly images: PageImageCache;
  /** Who has which document of the open project open (in memory only; emptied when another project opens). */
  readonly presence = new Presence();
  private open: OpenProject | null = null;

  constructor(private readonly options: RectoSessionOptions) {
    this.bus = options.bus ?? new EventBus();
    this.presence.onChange = () => this.bus.emit('presence.changed', {});
    this.engines = options.engines;
    this.settings = options.settings;
    this.images = options.images;
  }

  get project(): ProjectInfo | null {
    if (!this.open) return null;
    const info = this.open.store.info();
    return this.open.trailWarning ? { ...info, trailWarning: this.open.trailWarning } : info;
  }

  /** The user's data folder (settings, samples project, evaluations). */
  get dataDir(): string {
    return this.options.dataDir;
  }

  get store(): ProjectStore {
    if (!this.open) throw new NoProjectError();
    return this.open.store;
  }

  get queue(): ReadingQueue {
    if (!this.open) throw new NoProjectError();
    return this.open.queue;
  }

  sampleFiles(): string[] {
    if (!fs.existsSync(this.options.samplesDir)) return [];
    return fs
      .readdirSync(this.options.samplesDir)
      .filter((name) => /\.(pdf|png|jpe?g|tiff?)$/i.test(name))
      .sort()
      .map((name) => path.join(this.options.samplesDir, name));
  }

  /**
   * `remember: false` keeps a throw-away project (the CLI's) out of the recent list; `engine` reads the pages an
   * interrupted run left (else the settings' engine).
   */
  async createProject(file: string, { remember = true, engine }: OpenOptions = {}): Promise<ProjectInfo> {
    return this.switchTo(ProjectStore.create(file), remember, engine);
  }

  /** The file is checked in a worker with a time limit first (validateProjectFile), so a hostile one cannot hang. */
  async openProject(file: string, { remember = true, engine }: OpenOptions = {}): Promise<ProjectInfo> {
    const store = await ProjectStore.openChecked(file);
    const trailWarning = checkTrailOnOpening(store);
    await this.switchTo(store, remember, engine);
    if (this.open && trailWarning) this.open.trailWarning = trailWarning;
    return this.project!;
  }

  /** Opens the samples project, creating it with the bundled samples on first use. */
  async openSamples(): Promise<ProjectInfo> {
    const file = path.join(this.options.dataDir, 'Samples.recto');
    const isNew = !fs.existsSync(file);
    const info = await this.switchTo(isNew ? ProjectStore.create(file) : await ProjectStore.openChecked(file));
    if (isNew) await this.importFiles(this.sampleFiles().map((filePath) => ({ filePath })));
    return info;
  }

  /** Reopens the project used last, if it still opens; a start without a project is not an error. */
  async reopenLastProject(): Promise<ProjectInfo | null> {
    const last = this.settings.get().recentProjects[0];
    if (!last || !fs.existsSync(last)) return null;
    try {
      return await this.openProject(last);
    } catch (error) {
      console.warn(`recto: could not reopen ${last}: ${error instanceof Error ? error.message : String(error)}`);
      return null;
    }
  }

  async close(): Promise<void> {
    const current = this.open;
    this.open = null;
    if (current) {
      await current.queue.dispose();
      current.store.close();
    }
  }

  async dispose(): Promise<void> {
    await this.close();
    await this.engines.dispose();
  }

  /**
   * Imports files: each is inspected and rendered, then stored with all its pages in one transaction, then queued
   * for reading. A bad file is reported by name and reason and leaves nothing behind; the others go on.
   */
  async importFiles(files: { filePath: string; displayName?: string }[], engineId?: string): Promise<ImportResult> {
    const store = this.store;
    const engine = engineId ?? this.settings.get().engine;
    const result: ImportResult = { imported: [], duplicates: [], errors: [] };
    for (const { filePath, displayName } of files) {
      const name = displayName ?? path.basename(filePath);
      try {
        const inspected = await this.images.inspectIntoCache(filePath, name, {
          maxPages: this.settings.get().maxPagesPerDocument,
        });
        const bytes = fs.readFileSync(filePath);
        const document = store.documents.addDocument({
          sha256: inspected.sha256,
          name,
          mediaType: inspected.mediaType,
          bytes,
          pages: inspected.pages,
          ...(inspected.einvoice ? { einvoice: storedEInvoice(inspected.einvoice) } : {}),
        });
        if (!document) {
          // The project keeps a file once: say which document already holds these bytes (InvoiceKeysRepository.sameFile).
          // `duplicates` stays the file names (`recto ocr --project` resumes by them); `duplicateOf` names the holder.
          const existing = store.invoiceKeys.sameFile(inspected.sha256);
          result.duplicates.push(name);
          if (existing) (result.duplicateOf ??= []).push({ file: name, documentId: existing.documentId, documentName: existing.documentName });
          continue;
        }
        result.imported.push(document);
      } catch (error) {
        result.errors.push({ file: name, reason: reasonOf(error, name) });
      }
    }
    if (result.imported.length > 0) {
      this.bus.emit('documents.changed', {});
      for (const document of result.imported) this.queueDocument(document, engine);
    }
    return result;
  }

  reread(pageId: string, engineId?: string): string {
    const page = this.store.documents.getPage(pageId);
    const engine = engineId ?? this.settings.get().engine;
    return this.queue.enqueue(`Reading ${page.documentName} p. ${page.pageNumber}`, [
      { pageId, documentId: page.documentId },
    ], engine);
  }

  /**
   * The page image on disk, rendered again from the project's copy of the source if the cache lost it; with a
   * `screenWidth`, its screen copy of that width where the cache has one (app/contract/screenImage.ts).
   */
  async pageImagePath(pageId: string, screenWidth: ScreenImageWidth | null = null): Promise<string> {
    const page = this.store.documents.getPage(pageId);
    const image = (await this.pageInput(page)).imagePath;
    return (screenWidth !== null && this.images.screenCopyPath(page.documentSha256, page.pageNumber, screenWidth)) || image;
  }

  pageInput(page: PageRecord): Promise<PageInput> {
    return pageInputFor(this.images, this.store, page);
  }

  private queueDocument(document: DocumentSummary, engine: string): void {
    this.queue.enqueue(
      `Reading ${document.name}`,
      document.pages.map((page) => ({ pageId: page.id, documentId: document.id })),
      engine,
    );
  }

  private async switchTo(store: ProjectStore, remember = true, engine?: string): Promise<ProjectInfo> {
    await this.close();
    this.presence.clear();
    const queue = new ReadingQueue({
      store,
      engines: this.engines,
      bus: this.bus,
      pageInput: (page) => this.pageInput(page),
      readThroughMemory: (extraction) => withSupplierMemory(store, extraction),
      readDocumentThroughMemory: (documentId) => readDocumentThroughMemory(store, documentId),
    });
    this.open = { store, queue };
    if (remember) this.settings.rememberProject(store.file);
    this.bus.emit('project.changed', { path: store.file });
    // Pages whose reading was interrupted when the project was last closed are read now.
    const unread = store.documents.pagesToRead();
    if (unread.length > 0) queue.enqueue(`Resuming ${store.info().name}`, unread, engine ?? this.settings.get().engine);
    return store.info();
  }
}

/** The imported e-invoice as the store keeps it (the XML's bytes, not their base64 in the import cache's record). */
function storedEInvoice(einvoice: NonNullable<InspectedFile['einvoice']>): NewDocumentEInvoice {
  return einvoice.status === 'read'
    ? { status: 'read', fileName: einvoice.fileName, syntax: einvoice.syntax, profile: einvoice.profile, xml: Buffer.from(einvoice.xmlBase64, 'base64') }
    : einvoice;
}

function reasonOf(error: unknown, name: string): string {
  const message = error instanceof Error ? error.message : String(error);
  // Importers prefix their messages with the file's name; the reply names the file on its own.
  for (const prefix of [`${name}: `, `${name} `]) {
    if (message.startsWith(prefix)) return message.slice(prefix.length);
  }
  return message;
}

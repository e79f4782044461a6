/**
 * `recto ocr FILE… --out DIR [--project P.recto] [--engine ID]`: reads every page of every file through the same
 * pipeline as the app (import → project store → reading queue → engine) and writes, per page,
 * `DIR/<stem>_pg<N>.md` (the Markdown) and `DIR/<stem>_pg<N>.json` (the whole extraction), and per file
 * `DIR/<stem>.fields.json` (invoice fields read over all its pages, absent = null). Where the document carries an
 * e-invoice (a PDF's embedded ZUGFeRD/Factur-X/XRechnung XML, or an imported CII/UBL file), the fields are the XML's
 * (`"source": "e-invoice"`) and `"page_vs_xml"` lists where the page's own reading disagrees; `fieldsFrom: 'page'`
 * forces the page's reading (`"source": "page"`, the list still given). Without XML: `"source": "page"`, no list.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import cliProgress from 'cli-progress';
import type { JobProgress } from '../../app/contract/events.js';
import { memoryProposals, pageSupplierOf } from '../../app/invoice/supplierMemory/index.js';
import { documentInvoiceFields, documentInvoiceReading, invoiceFieldKeys, type FieldDisagreement, type InvoiceFieldKey, type PlainInvoiceFields } from '../../app/invoice/index.js';
import { comparePageWithXml, einvoicePlainFields } from '../../app/einvoice/index.js';
import type { EndpointStatus } from '../../app/model/engine.js';
import type { StoredEInvoice } from '../store/einvoices.js';
import type { Extraction } from '../../app/model/extraction.js';
import type { RectoSession } from '../services/rectoSession.js';

export interface OcrOptions {
  files: string[];
  outDir: string;
  /** Keep the runs in this project (created if missing); a temporary project otherwise. */
  project?: string;
  engine?: string;
  /** 'page': fields.json from the page's reading even where the document carries an e-invoice. */
  fieldsFrom?: 'auto' | 'page';
  /** Progress output (stderr); quiet when not a terminal unless forced. */
  progress: NodeJS.WritableStream & { isTTY?: boolean };
}

export interface OcrSummary {
  pagesWritten: number;
  failedFiles: { file: string; reason: string }[];
  failedPages: { label: string; reason: string }[];
}

/** How often the progress line is redrawn between pages. */
const PROGRESS_REFRESH_MS = 1000;

export async function runOcr(session: RectoSession, options: OcrOptions): Promise<OcrSummary> {
  const temporary = options.project ? null : fs.mkdtempSync(path.join(os.tmpdir(), 'recto-ocr-'));
  const projectFile = options.project ?? path.join(temporary!, 'ocr.recto');
  try {
    const bar = new cliProgress.SingleBar(
      {
        stream: options.progress,
        format: 'Reading |{bar}| {value}/{total} pages | {rate} pages/s | {eta_formatted} left{endpoints} | {label}',
        etaBuffer: 20,
        hideCursor: true,
        noTTYOutput: true,
        notTTYSchedule: 2000,
      },
      cliProgress.Presets.shades_classic,
    );
    // Several jobs may run (one per file, plus pages resumed in an existing project): sum them per job id.
    const jobs = new Map<string, { done: number; total: number }>();
    const rate = new ReadingRate();
    let started = false;
    let label = '';
    const endpoints = endpointLine(session, options.engine);
    const refresh = () => {
      const done = [...jobs.values()].reduce((sum, j) => sum + j.done, 0);
      const total = [...jobs.values()].reduce((sum, j) => sum + j.total, 0);
      const payload = { label, rate: rate.perSecond(done), endpoints: endpoints() };
      if (!started) {
        bar.start(total, done, payload);
        started = true;
      } else {
        bar.setTotal(total);
        bar.update(done, payload);
      }
    };
    const unsubscribe = session.bus.subscribe((envelope) => {
      if (envelope.event !== 'job.progress') return;
      const job = envelope.payload as JobProgress;
      jobs.set(job.jobId, { done: job.pagesDone, total: job.pagesTotal });
      label = job.label;
      refresh();
    });
    // Endpoint errors change while no page finishes (an endpoint down, retries backing off).
    const ticker = setInterval(() => started && refresh(), PROGRESS_REFRESH_MS);

    const remember = { remember: temporary === null, engine: options.engine };
    if (fs.existsSync(projectFile)) await session.openProject(projectFile, remember);
    else await session.createProject(projectFile, remember);
    const result = await session.importFiles(options.files.map((filePath) => ({ filePath })), options.engine);
    // A rerun reads only what is missing: pages an interrupted run left pending were queued when the project opened;
    // pages that failed are read again; pages already read are kept.
    retryFailedPages(session, new Set(result.duplicates), options.engine);
    await session.queue.idle();
    clearInterval(ticker);
    unsubscribe();
    if (started) bar.stop();

    fs.mkdirSync(options.outDir, { recursive: true });
    const summary: OcrSummary = { pagesWritten: 0, failedFiles: result.errors, failedPages: [] };
    const wanted = new Set(options.files.map((file) => path.basename(file)));
    for (const document of session.store.documents.listDocuments()) {
      if (!wanted.has(document.name)) continue;
      const stem = document.name.replace(/\.[^.]+$/, '');
      const read: Extraction[] = [];
      for (const page of document.pages) {
        const extraction = session.store.readings.latestExtraction(page.id);
        const fresh = session.store.documents.getPage(page.id);
        if (!extraction || fresh.status === 'error') {
          summary.failedPages.push({ label: `${document.name} p. ${page.pageNumber}`, reason: fresh.error ?? 'not read' });
          continue;
        }
        const latest = session.store.revisions.latestRevision(page.id);
        const base = path.join(options.outDir, `${stem}_pg${page.pageNumber}`);
        fs.writeFileSync(`${base}.md`, latest?.text ?? extraction.markdown);
        fs.writeFileSync(`${base}.json`, JSON.stringify(extraction, null, 2));
        summary.pagesWritten += 1;
        read.push(extraction);
      }
      // Invoice fields are per document: read over all its pages at once (absent = null).
      const fields = documentFieldsJson(read, session.store.einvoices.get(document.id), options.fieldsFrom ?? 'auto');
      fs.writeFileSync(path.join(options.outDir, `${stem}.fields.json`), JSON.stringify(fields, null, 2));
    }
    return summary;
  } finally {
    await session.close();
    if (temporary) fs.rmSync(temporary, { recursive: true, force: true });
  }
}

/** Pages of documents already in the project whose reading failed, queued again (with the engine asked for). */
function retryFailedPages(session: RectoSession, documentNames: ReadonlySet<string>, engine?: string): void {
  for (const document of session.store.documents.listDocuments()) {
    if (!documentNames.has(document.name)) continue;
    const failed = document.pages.filter((page) => session.store.documents.getPage(page.id).status === 'error');
    if (failed.length === 0) continue;
    const tasks = failed.map((page) => ({ pageId: page.id, documentId: document.id }));
    session.queue.enqueue(`Reading again ${document.name}`, tasks, engine ?? session.settings.get().engine);
  }
}

/** ` | gpu1:8000 0 err, gpu2:8000 3 err` for engines that read through servers; empty for local engines. */
function endpointLine(session: RectoSession, engineId?: string): () => string {
  let status: (() => EndpointStatus[]) | null = null;
  const id = engineId ?? session.settings.get().engine;
  if (session.engines.has(id)) {
    session.engines.get(id).then(
      (engine) => (status = engine.endpointStatus ? () => engine.endpointStatus!() : null),
      () => undefined,
    );
  }
  return () => {
    const endpoints = status?.() ?? [];
    if (endpoints.length === 0) return '';
    return ` | ${endpoints.map((e) => `${hostOf(e.url)} ${e.inFlight}/${e.capacity} busy ${e.errors} err`).join(', ')}`;
  };
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** Pages per second over the last minute of progress (the whole run's average hides a server that just went down). */
class ReadingRate {
  private readonly samples: { at: number; done: number }[] = [];
  private static readonly WINDOW_MS = 60_000;

  perSecond(done: number): string {
    const now = performance.now();
    this.samples.push({ at: now, done });
    while (this.samples.length > 2 && now - this.samples[0]!.at > ReadingRate.WINDOW_MS) this.samples.shift();
    const first = this.samples[0]!;
    const seconds = (now - first.at) / 1000;
    return seconds > 0 ? ((done - first.done) / seconds).toFixed(2) : '0.00';
  }
}

type FieldsJson = PlainInvoiceFields & {
  source: 'page' | 'e-invoice';
  page_vs_xml?: FieldDisagreement[];
  einvoice_refused?: string;
  /** The page was read through the project's supplier memory: whose, which page taught it, which values it gave. */
  supplier_memory?: { supplier: string; taught_by: string; fields: string[] };
};

/** The page's fields with the values the project's supplier memory gave at reading time laid over them. */
function withSupplierMemory(page: PlainInvoiceFields, read: Extraction[]): FieldsJson {
  const supplier = read.map(pageSupplierOf).find((s) => s !== null);
  if (!supplier) return { ...page, source: 'page' };
  const proposals = Object.assign({}, ...read.map(memoryProposals)) as Record<string, string | number>;
  return { ...page, ...proposals, source: 'page', supplier_memory: { supplier: supplier.supplierName, taught_by: supplier.taughtBy, fields: Object.keys(proposals) } };
}

/** `<stem>.fields.json`: the XML's fields where there is one (unless forced to the page), with the page's disagreements. */
export function documentFieldsJson(read: Extraction[], stored: StoredEInvoice | null, fieldsFrom: 'auto' | 'page'): FieldsJson {
  const page = documentInvoiceFields(read);
  if (!stored) return withSupplierMemory(page, read);
  if (stored.status === 'refused') return { ...withSupplierMemory(page, read), einvoice_refused: `${stored.fileName}: ${stored.message}` };
  const reading = documentInvoiceReading(read);
  const printed: Partial<Record<InvoiceFieldKey, string>> = {};
  for (const key of invoiceFieldKeys) if (reading.fields[key]) printed[key] = reading.fields[key]!.text;
  const pageVsXml = comparePageWithXml({ fields: page, printed }, stored.invoice);
  if (fieldsFrom === 'page') return { ...page, source: 'page', page_vs_xml: pageVsXml };
  return { ...einvoicePlainFields(stored.invoice), source: 'e-invoice', page_vs_xml: pageVsXml };
}

/**
 * EN 16931 / ZUGFeRD 1.0 validation of stored e-invoices in a worker thread with a time and heap limit: the XML is
 * untrusted and up to MAX_EINVOICE_BYTES; read and checked on the main thread, a large one held the server's request
 * loop (and Electron's main process) for the whole validation — 38 s for a 16,000-line invoice before the rules were
 * made linear. One worker validates a batch in turn (a project's first queue or curation list asks for every
 * document: a worker each would start hundreds of threads); each XML has its own time limit, and one past it is
 * given up, the worker stopped, and the rest of the batch continued in a new one.
 *
 * A worker that finished its batch is kept idle for the next one (KEEP_IDLE_MS), so that libxml2 and the compiled XSDs
 * of the schema layer — 0.1–0.7 s to load in a fresh thread, the UBL 2.1 set the largest — are paid once for many
 * requests rather than per request. One is kept at most; one that checked an XML over KEEP_MAX_XML_BYTES is not (its
 * WebAssembly memory, grown for that XML, never shrinks), nor one that failed or was stopped. An idle worker does
 * not keep the process alive (unref).
 */
import { deserialize } from 'node:v8';
import type { Worker } from 'node:worker_threads';
import type { RulesChoice, SemanticInvoice, ValidationReport } from '../../app/en16931/index.js';
import { startModuleWorker } from '../util/moduleWorker.js';
import type { ValidationJob } from './validateEInvoiceWorker.js';

/** A 10 MB invoice validates in about 3 s of CPU (docs/benchmarks.md); far past that, the file is hostile. */
export const EINVOICE_VALIDATION_TIMEOUT_MS = 30_000;
/** Heap for one validation: the parsed tree, the element tree of the syntax rules and the semantic model of 10 MB. */
const WORKER_HEAP_MB = 1536;
/** How long a worker that finished its batch waits for the next one before it is stopped. */
const KEEP_IDLE_MS = 60_000;
/** A worker that validated an XML larger than this is stopped after its batch instead of kept. */
const KEEP_MAX_XML_BYTES = 2 * 1024 * 1024;

let idleWorker: { worker: Worker; timer: NodeJS.Timeout } | null = null;

/** The thread id of the worker kept idle, or null (for tests). */
export function idleValidationWorkerThreadId(): number | null {
  return idleWorker?.worker.threadId ?? null;
}

/** The idle worker if there is one, else a new one. */
function takeWorker(): Worker {
  if (idleWorker) {
    const { worker, timer } = idleWorker;
    idleWorker = null;
    clearTimeout(timer);
    worker.ref();
    return worker;
  }
  const worker = startModuleWorker(import.meta.url, 'validateEInvoiceWorker', { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
  // An idle worker that exits on its own (out of memory, a crash) is simply no longer kept.
  worker.once('exit', () => {
    if (idleWorker?.worker === worker) {
      clearTimeout(idleWorker.timer);
      idleWorker = null;
    }
  });
  return worker;
}

/** Keeps a worker that finished its batch for the next, or stops it (one kept already, or it validated a large XML). */
function keepOrStop(worker: Worker, largestXmlBytes: number): void {
  if (idleWorker || largestXmlBytes > KEEP_MAX_XML_BYTES) {
    void worker.terminate();
    return;
  }
  const timer = setTimeout(() => {
    if (idleWorker?.worker !== worker) return;
    idleWorker = null;
    void worker.terminate();
  }, KEEP_IDLE_MS);
  timer.unref();
  worker.unref();
  idleWorker = { worker, timer };
}

/** `code`: the EInvoiceError code where the XML could not be read (`malformed`, `doctype`, `too-large`, `not-an-invoice`). */
export type OffThreadValidation = { ok: true; invoice: SemanticInvoice; report: ValidationReport } | { ok: false; message: string; code?: string };
type Reply = (OffThreadValidation | OffThreadReport) & { index: number; invoiceBytes?: Uint8Array };

/**
 * The worker's result with its semantic model deserialized on first use: most requests (the review's report, the
 * queue's signals) never read the model, and deserializing a large one (4 MB for 6,000 lines) holds the event loop.
 */
function withLazyInvoice(result: OffThreadValidation | OffThreadReport, bytes: Uint8Array | undefined): OffThreadValidation | OffThreadReport {
  if (!bytes || !result.ok) return result;
  let invoice: SemanticInvoice | undefined;
  return Object.defineProperty({ ...result }, 'invoice', {
    enumerable: true,
    get: () => (invoice ??= deserialize(bytes) as SemanticInvoice),
  }) as OffThreadValidation;
}

/**
 * Each XML's semantic invoice and report — well-formedness, schema and rule layers (validateEInvoiceWorker.ts) — or why
 * it has none (unreadable, past its time limit, the worker failed). `rules` as validateEInvoiceXml's.
 */
export async function validateEInvoicesOffThread(
  xmls: readonly Uint8Array[],
  timeoutMs = EINVOICE_VALIDATION_TIMEOUT_MS,
  options: { rules?: RulesChoice } = {},
): Promise<OffThreadValidation[]> {
  return (await runValidationWorkers(xmls, timeoutMs, { ...options, reportOnly: false })) as OffThreadValidation[];
}

export type OffThreadReport = { ok: true; report: ValidationReport } | { ok: false; message: string; code?: string };

/**
 * Each XML's report alone, as validateEInvoicesOffThread (`recto validate`): the worker does not read the XML a
 * second time into the semantic invoice, nor send that model back.
 */
export async function validateEInvoiceReportsOffThread(
  xmls: readonly Uint8Array[],
  timeoutMs = EINVOICE_VALIDATION_TIMEOUT_MS,
  options: { rules?: RulesChoice } = {},
): Promise<OffThreadReport[]> {
  const results = await runValidationWorkers(xmls, timeoutMs, { ...options, reportOnly: true });
  return results.map((r) => (r.ok ? { ok: true, report: r.report } : r));
}

async function runValidationWorkers(
  xmls: readonly Uint8Array[],
  timeoutMs: number,
  options: { rules?: RulesChoice; reportOnly: boolean },
): Promise<(OffThreadReport | OffThreadValidation)[]> {
  const results: (OffThreadReport | OffThreadValidation)[] = new Array(xmls.length);
  let next = 0;
  while (next < xmls.length) {
    const offset = next;
    const worker = takeWorker();
    const job: ValidationJob = { xmls: xmls.slice(offset), ...(options.rules ? { rules: options.rules } : {}), ...(options.reportOnly ? { reportOnly: true } : {}) };
    let finished = false; // every XML of the job answered and the worker said `done`: it may be kept
    let onMessage: (reply: Reply | { done: true }) => void = () => {};
    let onError: (error: Error) => void = () => {};
    let onExit: (code: number) => void = () => {};
    try {
      next = await new Promise<number>((resolve) => {
        let settled = false;
        let under = offset; // the XML the worker is on
        const limit = `the e-invoice could not be validated within ${Math.round(timeoutMs / 1000)} s`;
        // The XML under way when the worker is stopped or fails gets the reason; the batch goes on after it.
        const stop = (message: string): void => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          if (under < xmls.length) results[under] = { ok: false, message };
          resolve(under + 1);
        };
        let timer = setTimeout(() => stop(limit), timeoutMs);
        onMessage = (reply) => {
          if (settled) return;
          if ('done' in reply) {
            settled = true;
            finished = true;
            clearTimeout(timer);
            resolve(xmls.length);
            return;
          }
          const { index, invoiceBytes, ...result } = reply;
          results[offset + index] = withLazyInvoice(result, invoiceBytes);
          under = offset + index + 1;
          clearTimeout(timer);
          // After the last XML the worker's `done` follows at once; the limit still guards it.
          timer = setTimeout(() => stop(limit), timeoutMs);
        };
        onError = (error) => stop(`the e-invoice cannot be validated (${error.message})`);
        onExit = (code) => stop(`the e-invoice cannot be validated (validator exited with ${code})`);
        worker.on('message', onMessage);
        worker.once('error', onError);
        worker.once('exit', onExit);
        worker.postMessage(job);
      });
    } finally {
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      if (finished) keepOrStop(worker, job.xmls.reduce((largest, xml) => Math.max(largest, xml.byteLength), 0));
      else void worker.terminate();
    }
  }
  return results;
}

/** One XML's semantic invoice and report; rejects with the reason when it cannot be read or checked in time. */
export async function validateEInvoiceOffThread(xml: Uint8Array, timeoutMs = EINVOICE_VALIDATION_TIMEOUT_MS): Promise<{ invoice: SemanticInvoice; report: ValidationReport }> {
  const [result] = await validateEInvoicesOffThread([xml], timeoutMs);
  if (!result!.ok) throw new Error(result!.message);
  return result!; // its model still deserialized on first use
}

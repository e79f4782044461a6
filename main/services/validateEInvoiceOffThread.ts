/**
 * EN 16931 / ZUGFeRD 1.0 validation of a stored e-invoice in a worker thread with a time and heap limit: the XML is
 * untrusted and up to MAX_EINVOICE_BYTES; read and checked on the main thread, a large one held the server's request
 * loop (and Electron's main process) for the whole validation — 38 s for a 16,000-line invoice before the rules were
 * made linear. Past the limit the worker is stopped and the document has no report.
 */
import type { Worker } from 'node:worker_threads';
import type { SemanticInvoice, ValidationReport } from '../../app/en16931/index.js';
import { startModuleWorker } from '../util/moduleWorker.js';

/** A 10 MB invoice validates in 1–2 s on this machine's cores (docs/benchmarks.md); far past that, the file is hostile. */
export const EINVOICE_VALIDATION_TIMEOUT_MS = 30_000;
/** Heap for one validation: the parsed tree, the element tree of the syntax rules and the semantic model of 10 MB. */
const WORKER_HEAP_MB = 1536;

type Reply = { ok: true; invoice: SemanticInvoice; report: ValidationReport } | { ok: false; message: string };

/** The semantic invoice and its report; rejects with the reason when the XML cannot be read or checked in time. */
export async function validateEInvoiceOffThread(xml: Uint8Array, timeoutMs = EINVOICE_VALIDATION_TIMEOUT_MS): Promise<{ invoice: SemanticInvoice; report: ValidationReport }> {
  const worker: Worker = startModuleWorker(import.meta.url, 'validateEInvoiceWorker', { workerData: { xml }, resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
  try {
    const reply = await new Promise<Reply>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the e-invoice could not be validated within ${Math.round(timeoutMs / 1000)} s`)), timeoutMs);
      worker.once('message', (message: Reply) => (clearTimeout(timer), resolve(message)));
      worker.once('error', (error) => (clearTimeout(timer), reject(new Error(`the e-invoice cannot be validated (${error.message})`))));
      worker.once('exit', (code) => (clearTimeout(timer), reject(new Error(`the e-invoice cannot be validated (validator exited with ${code})`))));
    });
    if (!reply.ok) throw new Error(reply.message);
    return { invoice: reply.invoice, report: reply.report };
  } finally {
    void worker.terminate();
  }
}

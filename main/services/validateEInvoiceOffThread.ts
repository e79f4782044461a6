/**
 * EN 16931 / ZUGFeRD 1.0 validation of stored e-invoices in a worker thread with a time and heap limit: the XML is
 * untrusted and up to MAX_EINVOICE_BYTES; read and checked on the main thread, a large one held the server's request
 * loop (and Electron's main process) for the whole validation — 38 s for a 16,000-line invoice before the rules were
 * made linear. One worker validates a batch in turn (a project's first queue or curation list asks for every
 * document: a worker each would start hundreds of threads); each XML has its own time limit, and one past it is
 * given up, the worker stopped, and the rest of the batch continued in a new one.
 */
import { deserialize } from 'node:v8';
import type { Worker } from 'node:worker_threads';
import type { RulesChoice, SemanticInvoice, ValidationReport } from '../../app/en16931/index.js';
import { startModuleWorker } from '../util/moduleWorker.js';

/** A 10 MB invoice validates in about 3 s of CPU (docs/benchmarks.md); far past that, the file is hostile. */
export const EINVOICE_VALIDATION_TIMEOUT_MS = 30_000;
/** Heap for one validation: the parsed tree, the element tree of the syntax rules and the semantic model of 10 MB. */
const WORKER_HEAP_MB = 1536;

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
    const worker: Worker = startModuleWorker(import.meta.url, 'validateEInvoiceWorker', {
      workerData: { xmls: xmls.slice(offset), ...(options.rules ? { rules: options.rules } : {}), ...(options.reportOnly ? { reportOnly: true } : {}) },
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    });
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
        worker.on('message', (reply: Reply) => {
          if (settled) return;
          const { index, invoiceBytes, ...result } = reply;
          results[offset + index] = withLazyInvoice(result, invoiceBytes);
          under = offset + index + 1;
          clearTimeout(timer);
          if (under >= xmls.length) {
            settled = true;
            resolve(under);
          } else timer = setTimeout(() => stop(limit), timeoutMs);
        });
        worker.once('error', (error) => stop(`the e-invoice cannot be validated (${error.message})`));
        worker.once('exit', (code) => stop(`the e-invoice cannot be validated (validator exited with ${code})`));
      });
    } finally {
      void worker.terminate();
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

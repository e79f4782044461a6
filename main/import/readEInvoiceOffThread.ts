/**
 * readEInvoice (app/einvoice) in a worker thread with a time and heap limit: an e-invoice is untrusted bytes, and
 * parsing up to MAX_EINVOICE_BYTES of it on the main thread would hold the browser shell's request loop (and
 * Electron's main process) for as long as the parse takes. Past the limit the XML is refused and the worker stopped.
 */
import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../util/moduleWorker.js';
import { EInvoiceError, type EInvoice, type EInvoiceErrorCode } from '../../app/einvoice/index.js';

/** A 10 MB e-invoice reads in about a second; far past that, the file is hostile. */
export const EINVOICE_READ_TIMEOUT_MS = 30_000;
/** Heap for one read: a 10 MB XML's tree is a few hundred MB at most. */
const WORKER_HEAP_MB = 1024;

type Reply = { ok: true; invoice: EInvoice } | { ok: false; code: EInvoiceErrorCode; message: string };

export async function readEInvoiceOffThread(bytes: Uint8Array, fileName: string, timeoutMs = EINVOICE_READ_TIMEOUT_MS): Promise<EInvoice> {
  const worker = startWorker({ bytes, fileName });
  try {
    const reply = await new Promise<Reply>((resolve, reject) => {
      const timer = setTimeout(() => reject(new EInvoiceError('too-large', `the XML could not be read within ${Math.round(timeoutMs / 1000)} s`)), timeoutMs);
      worker.once('message', (message: Reply) => (clearTimeout(timer), resolve(message)));
      worker.once('error', (error) => (clearTimeout(timer), reject(new EInvoiceError('malformed', `the XML cannot be read (${error.message})`))));
      worker.once('exit', (code) => (clearTimeout(timer), reject(new EInvoiceError('malformed', `the XML cannot be read (reader exited with ${code})`))));
    });
    if (!reply.ok) throw new EInvoiceError(reply.code, reply.message);
    return reply.invoice;
  } finally {
    void worker.terminate();
  }
}

function startWorker(workerData: { bytes: Uint8Array; fileName: string }): Worker {
  return startModuleWorker(import.meta.url, 'readEInvoiceWorker', { workerData, resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
}

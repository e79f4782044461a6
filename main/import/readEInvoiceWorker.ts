/** The worker thread of readEInvoiceOffThread: reads one e-invoice XML and posts the invoice or the refusal. */
import { parentPort, workerData } from 'node:worker_threads';
import { EInvoiceError, readEInvoice } from '../../app/einvoice/index.js';

const { bytes, fileName } = workerData as { bytes: Uint8Array; fileName: string };
try {
  parentPort!.postMessage({ ok: true, invoice: readEInvoice(bytes, fileName) });
} catch (error) {
  if (error instanceof EInvoiceError) parentPort!.postMessage({ ok: false, code: error.code, message: error.message });
  else parentPort!.postMessage({ ok: false, code: 'malformed', message: `the XML cannot be read (${String(error)})` });
}

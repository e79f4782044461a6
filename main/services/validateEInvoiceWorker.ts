/** The worker thread of validateEInvoiceOffThread: reads and validates one e-invoice XML, posts the model and report. */
import { parentPort, workerData } from 'node:worker_threads';
import { readSemanticInvoice, validateEInvoiceXml } from '../../app/en16931/index.js';

const { xml } = workerData as { xml: Uint8Array };
try {
  parentPort!.postMessage({ ok: true, invoice: readSemanticInvoice(xml), report: validateEInvoiceXml(xml) });
} catch (error) {
  parentPort!.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) });
}

/**
 * The worker thread of validateEInvoiceOffThread: reads and validates each e-invoice XML of its batch in turn and
 * posts, per XML, the model and report or the refusal.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { readSemanticInvoice, validateEInvoiceXml } from '../../app/en16931/index.js';

const { xmls } = workerData as { xmls: Uint8Array[] };
xmls.forEach((xml, index) => {
  try {
    parentPort!.postMessage({ index, ok: true, invoice: readSemanticInvoice(xml), report: validateEInvoiceXml(xml) });
  } catch (error) {
    parentPort!.postMessage({ index, ok: false, message: error instanceof Error ? error.message : String(error) });
  }
});

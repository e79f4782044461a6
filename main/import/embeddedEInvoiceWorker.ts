/** The worker thread of readEmbeddedEInvoice: lists one PDF's attachments, reads its e-invoice, posts the outcome. */
import { parentPort, workerData } from 'node:worker_threads';
import { readEmbeddedEInvoiceHere } from './pdfAttachments.js';

const { bytes } = workerData as { bytes: Uint8Array };
try {
  parentPort!.postMessage(await readEmbeddedEInvoiceHere(bytes));
} catch (error) {
  parentPort!.postMessage({ status: 'refused', fileName: 'the attachments', message: `the PDF's attachments cannot be read (${String(error)})` });
}

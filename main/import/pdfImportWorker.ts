/** The worker thread of importPdf: renders one PDF's pages (pdfRender.ts), posting progress, then the pages or the refusal. */
import { parentPort, workerData } from 'node:worker_threads';
import { ImportError, messageOf } from './importError.js';
import type { RenderOptions } from './importedDocument.js';
import { renderPdfPages } from './pdfRender.js';
import type { PdfWorkerJob, PdfWorkerMessage } from './pdfImport.js';

const post = (message: PdfWorkerMessage) => parentPort!.postMessage(message);
const { filePath, bytes, outDir, options } = workerData as PdfWorkerJob;
const renderOptions: RenderOptions = { ...options, onPage: (done, total) => post({ type: 'page', done, total }) };

renderPdfPages(filePath, bytes, outDir, renderOptions).then(
  (pages) => post({ type: 'done', pages }),
  (error: unknown) =>
    post(
      error instanceof ImportError
        ? { type: 'failed', reason: error.reason, detail: error.detail }
        : { type: 'failed', reason: 'corrupt', detail: `the PDF cannot be rendered (${messageOf(error)})` },
    ),
);

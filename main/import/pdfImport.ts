/**
 * importPdf: a PDF's pages rendered (pdfRender.ts) in a worker thread with a time and heap limit. A PDF is untrusted
 * bytes, and pdf.js parses and draws on the thread that calls it: on the main thread one page held the browser
 * shell's request loop (and Electron's main process) for about a second, a hostile page for as long as it liked.
 * One worker per document: pdf.js keeps per-document state, and starting a worker costs little next to a page.
 */
import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../util/moduleWorker.js';
import { ImportError, type ImportErrorReason } from './importError.js';
import type { ImportedPage, RenderOptions } from './importedDocument.js';

export { messageOf } from './importError.js';

/** The longest one page may take (the first includes loading pdf.js): heavy real pages take seconds, not a minute. */
export const PDF_PAGE_TIMEOUT_MS = 60_000;
/** Heap for one document's parse; pixels and decoded images live outside it (canvas, array buffers). */
const WORKER_HEAP_MB = 2048;

/** What the worker is given: RenderOptions less its callbacks and signal, which stay on this side. */
export interface PdfWorkerJob {
  filePath: string;
  bytes: Uint8Array;
  outDir: string;
  options: Pick<RenderOptions, 'dpi' | 'maxPixels' | 'maxPages' | 'pages'>;
}

export type PdfWorkerMessage =
  | { type: 'page'; done: number; total: number }
  | { type: 'done'; pages: ImportedPage[] }
  | { type: 'failed'; reason: ImportErrorReason; detail: string };

/**
 * Renders all pages of the PDF in `bytes` into `outDir` as page-NNNN.png, off the main thread.
 * Throws ImportError for corrupt, encrypted, page-less or too heavy PDFs. `filePath` is only used in messages.
 * On abort the worker is stopped (and has stopped writing) before the promise rejects with the signal's reason.
 */
export async function importPdf(filePath: string, bytes: Uint8Array, outDir: string, options: RenderOptions = {}): Promise<ImportedPage[]> {
  options.signal?.throwIfAborted();
  const { dpi, maxPixels, maxPages, pages } = options;
  const job: PdfWorkerJob = { filePath, bytes, outDir, options: { dpi, maxPixels, maxPages, pages } };
  const worker = startModuleWorker(import.meta.url, 'pdfImportWorker', { workerData: job, resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
  try {
    return await awaitPages(worker, filePath, options);
  } finally {
    await worker.terminate();
  }
}

function awaitPages(worker: Worker, filePath: string, options: RenderOptions): Promise<ImportedPage[]> {
  return new Promise<ImportedPage[]>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const armTimer = () => {
      clearTimeout(timer);
      const seconds = Math.round(PDF_PAGE_TIMEOUT_MS / 1000);
      timer = setTimeout(() => settle(() => reject(new ImportError(filePath, 'too-large', `a page could not be rendered within ${seconds} s`))), PDF_PAGE_TIMEOUT_MS);
    };
    const onAbort = () => settle(() => reject(options.signal!.reason));
    const settle = (finish: () => void) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      worker.removeAllListeners();
      finish();
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    armTimer();
    worker.on('message', (message: PdfWorkerMessage) => {
      if (message.type === 'page') {
        armTimer();
        options.onPage?.(message.done, message.total);
      } else if (message.type === 'done') settle(() => resolve(message.pages));
      else settle(() => reject(new ImportError(filePath, message.reason, message.detail)));
    });
    worker.on('error', (error: Error & { code?: string }) => {
      const detail = error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? `rendering it needs more than ${WORKER_HEAP_MB} MB` : `the PDF cannot be rendered (${error.message})`;
      settle(() => reject(new ImportError(filePath, error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'too-large' : 'corrupt', detail, { cause: error })));
    });
    worker.on('exit', (code) => settle(() => reject(new ImportError(filePath, 'corrupt', `the PDF renderer stopped (exit code ${code})`))));
  });
}

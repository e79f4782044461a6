/**
 * A PDF's embedded e-invoice (ZUGFeRD / Factur-X / XRechnung: a CII XML attached to a PDF/A-3), read with the
 * pure reader in app/einvoice, all in a worker thread. The embedded files are listed from the PDF's structure without
 * inflating any (pdfEmbeddedFiles.ts); which one is the invoice is decided by pickEInvoiceAttachment (its AF
 * relationship, its specified name, or an e-invoice root in its first bytes); only that one is inflated, never past
 * MAX_EINVOICE_BYTES.
 *
 * Reading never fails the import: a PDF whose XML is refused (too large, DOCTYPE, malformed) is still imported and
 * read from its page; the refusal is returned for the caller to show.
 */
import { EInvoiceError, MAX_EINVOICE_BYTES, explainEInvoicePick, isSpecifiedEInvoiceName, readEInvoice, type EInvoice, type PdfAttachment } from '../../app/einvoice/index.js';
import { embeddedFileHead, EmbeddedFileTooLarge, inflateEmbeddedFile, listEmbeddedFiles, type EmbeddedFile } from './pdfEmbeddedFiles.js';
import { startModuleWorker } from '../util/moduleWorker.js';

export type EmbeddedEInvoice =
  | { status: 'none' }
  | { status: 'read'; invoice: EInvoice; fileName: string; bytes: Uint8Array; candidates?: number; reason?: string }
  | { status: 'refused'; fileName: string; message: string };

/** `candidates`: how many attachments could have been the e-invoice; `reason`: why this one (explainEInvoicePick). */
export type EmbeddedEInvoiceXml =
  | { status: 'none' }
  | { status: 'found'; fileName: string; bytes: Uint8Array; candidates: number; reason: string }
  | { status: 'refused'; fileName: string; message: string };

/** Bytes of an attachment read to judge its root element (looksLikeEInvoiceXml reads this many). */
const HEAD_BYTES = 4096;
/**
 * Attachments whose first bytes are read to judge their root, at most; the most likely are read first (a specified
 * name, then an AF relationship, then `.xml`), so thousands of decoys never push the invoice out.
 */
const MAX_HEADS_JUDGED = 256;

/** A large PDF's structure is read in well under a second; far past that, the file is hostile. */
export const EMBEDDED_READ_TIMEOUT_MS = 30_000;
/** Heap for one PDF: its object streams (64 MiB inflated at most), and the XML's tree (readEInvoiceOffThread's 1 GB). */
const WORKER_HEAP_MB = 1024;

/**
 * The e-invoice attached to the PDF in `bytes`, read in a worker thread with a time and heap limit: listing a PDF's
 * objects and reading the XML are linear, but a 10 MB file still takes long enough to hold the browser shell's
 * request loop (and Electron's main process). Past the limit the worker is stopped and the attachment refused.
 */
export async function readEmbeddedEInvoice(bytes: Uint8Array, timeoutMs = EMBEDDED_READ_TIMEOUT_MS): Promise<EmbeddedEInvoice> {
  const worker = startModuleWorker(import.meta.url, 'embeddedEInvoiceWorker', { workerData: { bytes }, resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
  const refused = (message: string): EmbeddedEInvoice => ({ status: 'refused', fileName: 'the attachments', message });
  try {
    return await new Promise<EmbeddedEInvoice>((resolve) => {
      const timer = setTimeout(() => resolve(refused(`the PDF's attachments could not be read within ${Math.round(timeoutMs / 1000)} s`)), timeoutMs);
      worker.once('message', (message: EmbeddedEInvoice) => (clearTimeout(timer), resolve(message)));
      worker.once('error', (error) => (clearTimeout(timer), resolve(refused(`the PDF's attachments cannot be read (${error.message})`))));
      worker.once('exit', (code) => (clearTimeout(timer), resolve(refused(`the PDF's attachments cannot be read (reader exited with ${code})`))));
    });
  } finally {
    void worker.terminate();
  }
}

/** readEmbeddedEInvoice on the calling thread (the worker's body; also for callers already off the event loop). */
export async function readEmbeddedEInvoiceHere(bytes: Uint8Array): Promise<EmbeddedEInvoice> {
  const found = await findEmbeddedEInvoiceXml(bytes);
  if (found.status !== 'found') return found;
  try {
    return { status: 'read', invoice: readEInvoice(found.bytes, found.fileName), fileName: found.fileName, bytes: found.bytes, candidates: found.candidates, reason: found.reason };
  } catch (error) {
    if (error instanceof EInvoiceError) return { status: 'refused', fileName: found.fileName, message: error.message };
    throw error;
  }
}

/** The bytes of the e-invoice XML attached to the PDF in `bytes` (not parsed), and its name. */
export async function findEmbeddedEInvoiceXml(bytes: Uint8Array): Promise<EmbeddedEInvoiceXml> {
  const files = await listEmbeddedFiles(bytes);
  if (files.length === 0) return { status: 'none' };
  // Judged on their first bytes only; `file` travels along to be inflated once chosen.
  const likely = files
    .map((file, order) => ({ file, order, score: (isSpecifiedEInvoiceName(file.filename) ? 4 : 0) + (file.relationship ? 2 : 0) + (/\.xml$/i.test(file.filename) ? 1 : 0) }))
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, MAX_HEADS_JUDGED)
    .sort((a, b) => a.order - b.order);
  const attachments: (PdfAttachment & { file: EmbeddedFile })[] = [];
  for (const { file } of likely) {
    attachments.push({ filename: file.filename, relationship: file.relationship, content: await embeddedFileHead(file, HEAD_BYTES), file });
  }
  const choice = explainEInvoicePick(attachments);
  if (!choice) return { status: 'none' };
  const picked = choice.picked as PdfAttachment & { file: EmbeddedFile };
  const fileName = picked.filename || `attachment ${picked.file.objectNumber}`;
  try {
    return { status: 'found', fileName, bytes: await inflateEmbeddedFile(picked.file, MAX_EINVOICE_BYTES), candidates: choice.candidates, reason: choice.reason };
  } catch (error) {
    const reason = error instanceof EmbeddedFileTooLarge ? `${error.message}; e-invoices over ${MAX_EINVOICE_BYTES / 1024 / 1024} MB are refused` : `cannot be decompressed (${(error as Error).message})`;
    return { status: 'refused', fileName, message: `the attached XML ${reason}` };
  }
}

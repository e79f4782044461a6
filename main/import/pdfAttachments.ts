/**
 * A PDF's embedded e-invoice (ZUGFeRD / Factur-X / XRechnung: a CII XML attached to a PDF/A-3), read with the
 * pure reader in app/einvoice. The embedded files are listed from the PDF's bytes without inflating any
 * (pdfEmbeddedFiles.ts); which one is the invoice is decided by pickEInvoiceAttachment (its specified name, its AF
 * relationship, or an e-invoice root in its first bytes); only that one is inflated, off the event loop and never
 * past MAX_EINVOICE_BYTES.
 *
 * Reading never fails the import: a PDF whose XML is refused (too large, DOCTYPE, malformed) is still imported and
 * read from its page; the refusal is returned for the caller to show.
 */
import { EInvoiceError, MAX_EINVOICE_BYTES, pickEInvoiceAttachment, type EInvoice, type PdfAttachment } from '../../app/einvoice/index.js';
import { embeddedFileHead, EmbeddedFileTooLarge, inflateEmbeddedFile, listEmbeddedFiles, type EmbeddedFile } from './pdfEmbeddedFiles.js';
import { readEInvoiceOffThread } from './readEInvoiceOffThread.js';

export type EmbeddedEInvoice =
  | { status: 'none' }
  | { status: 'read'; invoice: EInvoice; fileName: string; bytes: Uint8Array }
  | { status: 'refused'; fileName: string; message: string };

/** Bytes of an attachment read to judge its root element (looksLikeEInvoiceXml reads this many). */
const HEAD_BYTES = 4096;
/** Attachments judged at most: a PDF with thousands of embedded files is not an e-invoice carrier. */
const MAX_ATTACHMENTS_JUDGED = 64;

/** The e-invoice attached to the PDF in `bytes`. */
export async function readEmbeddedEInvoice(bytes: Uint8Array): Promise<EmbeddedEInvoice> {
  const files = listEmbeddedFiles(bytes).slice(0, MAX_ATTACHMENTS_JUDGED);
  if (files.length === 0) return { status: 'none' };
  // Judged on their first bytes only; `file` travels along to be inflated once chosen.
  const attachments: (PdfAttachment & { file: EmbeddedFile })[] = [];
  for (const file of files) {
    attachments.push({ filename: file.filename, relationship: file.relationship, content: await embeddedFileHead(file, HEAD_BYTES), file });
  }
  const picked = pickEInvoiceAttachment(attachments) as (PdfAttachment & { file: EmbeddedFile }) | null;
  if (!picked) return { status: 'none' };
  const fileName = picked.filename || `attachment ${picked.file.objectNumber}`;
  let content: Uint8Array;
  try {
    content = await inflateEmbeddedFile(picked.file, MAX_EINVOICE_BYTES);
  } catch (error) {
    const reason = error instanceof EmbeddedFileTooLarge ? `${error.message}; e-invoices over ${MAX_EINVOICE_BYTES / 1024 / 1024} MB are refused` : `cannot be decompressed (${(error as Error).message})`;
    return { status: 'refused', fileName, message: `the attached XML ${reason}` };
  }
  try {
    return { status: 'read', invoice: await readEInvoiceOffThread(content, fileName), fileName, bytes: content };
  } catch (error) {
    if (error instanceof EInvoiceError) return { status: 'refused', fileName, message: error.message };
    throw error;
  }
}

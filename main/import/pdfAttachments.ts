/**
 * A PDF's embedded e-invoice (ZUGFeRD / Factur-X / XRechnung: a CII XML attached to a PDF/A-3), read with the
 * pure reader in app/einvoice. pdf.js lists the document's embedded files (`getAttachments()`); which one is the
 * invoice is decided by pickEInvoiceAttachment (its specified name, its AF relationship, or an e-invoice root).
 *
 * Reading never fails the import: a PDF whose XML is refused (too large, DOCTYPE, malformed) is still imported and
 * read from its page; the refusal is returned for the caller to show.
 */
import type { PDFDocumentProxy } from 'pdfjs-dist/types/src/display/api.js';
import { EInvoiceError, pickEInvoiceAttachment, readEInvoice, type EInvoice, type PdfAttachment } from '../../app/einvoice/index.js';
import { loadPdfjs, pdfjsNodeParameters } from './pdfjsNode.js';

export type EmbeddedEInvoice =
  | { status: 'none' }
  | { status: 'read'; invoice: EInvoice; fileName: string; bytes: Uint8Array }
  | { status: 'refused'; fileName: string; message: string };

interface PdfjsAttachment {
  filename?: string;
  rawFilename?: string;
  content?: Uint8Array;
}

/**
 * The /AFRelationship of each embedded file named in the PDF's uncompressed objects (pdf.js does not expose it).
 * Where the file specifications sit in compressed object streams this finds nothing and names decide.
 */
function afRelationships(bytes: Uint8Array): Map<string, string> {
  const text = new TextDecoder('latin1').decode(bytes);
  const relationships = new Map<string, string>();
  for (const match of text.matchAll(/\/AFRelationship\s*\/(\w+)/g)) {
    // The file specification dictionary around it names the file in /UF or /F.
    const dictionary = text.slice(Math.max(0, match.index - 400), match.index + 400);
    const name = dictionary.match(/\/UF\s*\(([^)]*)\)/)?.[1] ?? dictionary.match(/\/F\s*\(([^)]*)\)/)?.[1];
    if (name) relationships.set(name, match[1]!);
  }
  return relationships;
}

/** The e-invoice attached to an open pdf.js document. */
export async function embeddedEInvoiceOf(document: PDFDocumentProxy, pdfBytes: Uint8Array): Promise<EmbeddedEInvoice> {
  const listed = ((await document.getAttachments()) ?? {}) as Record<string, PdfjsAttachment>;
  const entries = Object.values(listed).filter((a) => a.content instanceof Uint8Array);
  if (entries.length === 0) return { status: 'none' };
  const relationships = afRelationships(pdfBytes);
  const attachments: PdfAttachment[] = entries.map((a) => {
    const filename = a.filename ?? a.rawFilename ?? '';
    return { filename, content: a.content!, relationship: relationships.get(filename) ?? null };
  });
  const picked = pickEInvoiceAttachment(attachments);
  if (!picked) return { status: 'none' };
  try {
    return { status: 'read', invoice: readEInvoice(picked.content, picked.filename), fileName: picked.filename, bytes: picked.content };
  } catch (error) {
    if (error instanceof EInvoiceError) return { status: 'refused', fileName: picked.filename, message: error.message };
    throw error;
  }
}

/** The e-invoice attached to the PDF in `bytes` (opens and closes the document). */
export async function readEmbeddedEInvoice(bytes: Uint8Array): Promise<EmbeddedEInvoice> {
  const pdfjs = await loadPdfjs();
  const task = pdfjs.getDocument({ ...pdfjsNodeParameters, data: bytes.slice() });
  const document = await task.promise;
  try {
    return await embeddedEInvoiceOf(document, bytes);
  } finally {
    await document.destroy();
  }
}

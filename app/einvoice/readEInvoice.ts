/**
 * The e-invoice reader: XML bytes → EInvoice, whichever of the EN 16931 syntaxes they are in —
 * ZUGFeRD 1.0 `CrossIndustryDocument`, ZUGFeRD 2.x / Factur-X / XRechnung `CrossIndustryInvoice` (CII), or
 * UBL 2.1 `Invoice` / `CreditNote` — told apart by the root element. Pure (bytes in, value out), so the same code
 * reads a PDF's attachment at import and a standalone `.xml` file. Refusals (size, DOCTYPE, malformed, not an
 * invoice) throw EInvoiceError with a message to show the user.
 */
import { EInvoiceError, parseXmlBytes } from './xmlInput.js';
import { readCii } from './cii.js';
import { readUbl } from './ubl.js';
import type { EInvoice } from './einvoice.js';
import { xmlPrologEnd } from './xmlProlog.js';

const ciiRoots = new Set(['CrossIndustryInvoice', 'CrossIndustryDocument']);
const ublRoots = new Set(['Invoice', 'CreditNote']);

/** `fileName` is recorded in the result's info (the attachment's or the file's name). */
export function readEInvoice(bytes: Uint8Array, fileName: string | null = null): EInvoice {
  const { rootName, root, namespaces } = parseXmlBytes(bytes);
  let invoice: EInvoice;
  if (ciiRoots.has(rootName)) invoice = readCii(root, rootName);
  else if (ublRoots.has(rootName) && namespaces.some((ns) => ns.startsWith('urn:oasis:names:specification:ubl:schema:xsd:'))) {
    invoice = readUbl(root, rootName as 'Invoice' | 'CreditNote');
  } else {
    throw new EInvoiceError('not-an-invoice', `the XML's root element <${rootName}> is not an e-invoice (expected CII CrossIndustryInvoice / CrossIndustryDocument or UBL Invoice / CreditNote)`);
  }
  if (!invoice.fields.invoice_number && !invoice.fields.total && invoice.lines.length === 0) {
    throw new EInvoiceError('not-an-invoice', `the <${rootName}> has neither an invoice number, a total nor lines`);
  }
  return { ...invoice, info: { ...invoice.info, fileName } };
}

/** True when the bytes look like XML with an e-invoice root, without reading it (cheap sniff for import). */
export function looksLikeEInvoiceXml(bytes: Uint8Array): boolean {
  const head = new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(0, 4096));
  const at = xmlPrologEnd(head);
  if (at < 0) return false;
  return /^<(?:[\w.-]+:)?(?:CrossIndustryInvoice|CrossIndustryDocument|Invoice|CreditNote)[\s>]/.test(head.slice(at, at + 200));
}

// --- Which attachment of a PDF is the e-invoice ---------------------------------------------------------------------

/** The names the specifications give the embedded XML (ZUGFeRD 1.0, ZUGFeRD 2.0, Factur-X / ZUGFeRD 2.1+, XRechnung). */
export const EINVOICE_ATTACHMENT_NAMES = ['factur-x.xml', 'zugferd-invoice.xml', 'ZUGFeRD-invoice.xml', 'xrechnung.xml'];

export interface PdfAttachment {
  filename: string;
  content: Uint8Array;
  /** The file specification's /AFRelationship (Data, Alternative, Source, …) where known. */
  relationship?: string | null;
}

/**
 * The attachment that is the invoice's XML: one with a specified name (case-insensitive), else one associated to
 * the document as its data/alternative/source (the PDF/A-3 AF relationship Factur-X prescribes), else any `.xml`
 * attachment whose root is an e-invoice's. Null when none is.
 */
export function pickEInvoiceAttachment(attachments: readonly PdfAttachment[]): PdfAttachment | null {
  const named = new Set(EINVOICE_ATTACHMENT_NAMES.map((n) => n.toLowerCase()));
  const byName = attachments.find((a) => named.has(a.filename.toLowerCase()));
  if (byName) return byName;
  const related = attachments.find((a) => /^(?:Data|Alternative|Source)$/i.test(a.relationship ?? '') && looksLikeEInvoiceXml(a.content));
  if (related) return related;
  return attachments.find((a) => /\.xml$/i.test(a.filename) && looksLikeEInvoiceXml(a.content)) ?? null;
}

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
  return eInvoiceRootOf(bytes) !== null;
}

/** The e-invoice root element the bytes open with (after the prolog, in the first 4 KB), or null. */
function eInvoiceRootOf(bytes: Uint8Array): string | null {
  const head = new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(0, 4096));
  const at = xmlPrologEnd(head);
  if (at < 0) return null;
  return /^<(?:[\w.-]+:)?(CrossIndustryInvoice|CrossIndustryDocument|Invoice|CreditNote)[\s>]/.exec(head.slice(at, at + 200))?.[1] ?? null;
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

/** How strongly an AF relationship marks a file as the document's own data: Factur-X prescribes these three. */
const RELATIONSHIP_RANK: Record<string, number> = { alternative: 3, data: 2, source: 1 };

/**
 * The attachment that is the invoice's XML, never chosen by its position: candidates are the attachments with a
 * specified name (case-insensitive) and those whose root element is an e-invoice's; among them the stronger AF
 * relationship comes first (Alternative, Data, Source — a PDF carrying several e-invoices marks the one it stands for
 * as Alternative), then a specified name, then an e-invoice root in the first bytes (a real invoice may open with
 * comments longer than those), then the newer syntax (ZUGFeRD 2 / Factur-X over ZUGFeRD 1.0), then the first listed. Decoys (other XML, look-alike names, files marked Supplement or
 * Unspecified) lose to the real one wherever they are listed.
 * Null when no attachment is a candidate.
 */
export function pickEInvoiceAttachment(attachments: readonly PdfAttachment[]): PdfAttachment | null {
  let best: PdfAttachment | null = null;
  let bestRank: number[] = [];
  for (const attachment of attachments) {
    const rank = attachmentRank(attachment);
    if (!rank) continue;
    if (!best || outranks(rank, bestRank)) {
      best = attachment;
      bestRank = rank;
    }
  }
  return best;
}

/** The chosen attachment, how many attachments were e-invoice candidates, and why this one won. */
export interface EInvoicePick {
  picked: PdfAttachment;
  candidates: number;
  /** For a reader: "the only e-invoice attachment", or the criterion that set it above the others. */
  reason: string;
}

/**
 * pickEInvoiceAttachment with its reason: where the PDF carries several candidates, the first criterion on which the
 * chosen one beats the runner-up (its AF relationship, its specified name, its e-invoice root, its newer syntax, or,
 * all equal, its place in the list).
 */
export function explainEInvoicePick(attachments: readonly PdfAttachment[]): EInvoicePick | null {
  const ranked = attachments.flatMap((attachment) => {
    const rank = attachmentRank(attachment);
    return rank ? [{ attachment, rank }] : [];
  });
  const picked = pickEInvoiceAttachment(attachments);
  if (!picked) return null;
  const own = attachmentRank(picked)!;
  const others = ranked.filter((r) => r.attachment !== picked);
  if (others.length === 0) return { picked, candidates: 1, reason: 'the only e-invoice attachment' };
  const runnerUp = others.reduce((best, r) => (outranks(r.rank, best.rank) ? r : best));
  const criterion = own.findIndex((value, i) => value !== runnerUp.rank[i]);
  const relationship = picked.relationship ?? '';
  const reasons = [
    `its /AFRelationship is /${relationship} (${others.length} other e-invoice attachment${others.length === 1 ? '' : 's'}: Alternative > Data > Source)`,
    `its name is one the e-invoice specifications give (${others.length} other candidate${others.length === 1 ? '' : 's'})`,
    `it opens with an e-invoice root element (${others.length} other candidate${others.length === 1 ? '' : 's'} by name only)`,
    `it is the newer syntax (ZUGFeRD 2 / Factur-X over ZUGFeRD 1.0; ${others.length} other candidate${others.length === 1 ? '' : 's'})`,
  ];
  return { picked, candidates: ranked.length, reason: criterion >= 0 ? reasons[criterion]! : `listed first of ${ranked.length} equally ranked e-invoice attachments` };
}

/** Lexicographic: the first differing criterion decides; equal ranks keep the earlier attachment. */
function outranks(rank: readonly number[], other: readonly number[]): boolean {
  const i = rank.findIndex((value, j) => value !== other[j]);
  return i >= 0 && rank[i]! > other[i]!;
}

/** True when `filename` is one the e-invoice specifications give the embedded XML. */
export function isSpecifiedEInvoiceName(filename: string): boolean {
  return specifiedNames.has(filename.toLowerCase());
}

const specifiedNames = new Set(EINVOICE_ATTACHMENT_NAMES.map((n) => n.toLowerCase()));

/**
 * [relationship rank, specified name, looks like an e-invoice, generation], or null when the attachment is no
 * candidate. The generation prefers the newer syntax where all else is equal: ZUGFeRD 2 / Factur-X / UBL over
 * ZUGFeRD 1.0's CrossIndustryDocument (a PDF carrying both stands for the newer one).
 */
function attachmentRank(attachment: PdfAttachment): number[] | null {
  const named = isSpecifiedEInvoiceName(attachment.filename);
  const root = eInvoiceRootOf(attachment.content);
  if (!named && !root) return null;
  const generation = root === null ? 0 : root === 'CrossIndustryDocument' ? 1 : 2;
  return [RELATIONSHIP_RANK[(attachment.relationship ?? '').toLowerCase()] ?? 0, named ? 1 : 0, root ? 1 : 0, generation];
}

/**
 * The document's own e-invoice out, byte for byte: an approved invoice whose XML is the issuer's and valid goes on as
 * that XML when nothing in it was corrected and the export asks for its syntax and CIUS. Anything else — a
 * correction, another syntax, XRechnung asked of an invoice that is not one (or the reverse), an XML with a fatal
 * EN 16931 failure — is generated from the reviewed values instead (generateEInvoice.ts). Re-serialising a valid
 * original would only risk losing what Recto does not model (notes, attachments, extensions).
 */
import { EInvoiceError, validateEInvoiceXml } from '../../en16931/index.js';
import { readEInvoiceXml } from '../../en16931/readSemanticInvoice.js';
import type { ReviewedInvoice } from '../reviewedInvoice.js';
import type { EInvoiceFormat } from './generateEInvoice.js';

/** XRechnung's CIUS names itself in BT-24 with this (every version: 1.2 … 3.0). */
const XRECHNUNG_CIUS = /urn:xeinkauf\.de:kosit:xrechnung/i;
/** EN 16931-1's own identifier (BT-24) and the form a CIUS compliant with it takes (`…#compliant#<CIUS>`). */
const EN16931_CORE = 'urn:cen.eu:en16931:2017';
const COMPLIANT_CIUS = `${EN16931_CORE}#compliant#`;

/**
 * Whether an original answers an EN 16931 channel as it is: the core specification, or a CIUS *compliant* with it
 * (Factur-X/ZUGFeRD BASIC and EN 16931, Peppol BIS, XRechnung) — every such invoice is an EN 16931 invoice. An
 * *extension* (`#conformant#`, Factur-X/ZUGFeRD EXTENDED) carries terms beyond the norm that a receiver asking for
 * EN 16931 need not accept, and MINIMUM / BASIC WL name no EN 16931 specification at all: those are generated from
 * the reviewed values instead (docs/decisions.md, "Which originals answer an EN 16931 channel").
 */
const answersEn16931 = (specification: string): boolean => specification === EN16931_CORE || specification.startsWith(COMPLIANT_CIUS);
const ZUGFERD_1_ROOT = 'CrossIndustryDocument';

export type OriginalDecision = { use: true } | { use: false; why: string };

/** Whether the reviewer changed any value: a corrected field, line, VAT row or payment field. */
export const hasCorrections = (invoice: ReviewedInvoice): boolean => Object.values(invoice.sources).includes('corrected');

/**
 * Whether `xml` (the document's stored e-invoice) goes out as it is for this export; `why` says why not.
 * Decided on the XML itself: its syntax and BT-24 from the EN 16931 reader, its validity from the native engine.
 */
export function originalEInvoiceFor(invoice: ReviewedInvoice, xml: string, format: EInvoiceFormat, options: { xrechnung?: boolean } = {}): OriginalDecision {
  if (hasCorrections(invoice)) return { use: false, why: 'corrected by the reviewer' };
  let syntax: string;
  let specification: string;
  try {
    const { invoice: semantic, rootName } = readEInvoiceXml(xml);
    // ZUGFeRD 1.0 (CrossIndustryDocument) predates EN 16931: it is converted like any other reviewed invoice.
    if (rootName === ZUGFERD_1_ROOT) return { use: false, why: 'ZUGFeRD 1.0 is converted to EN 16931' };
    syntax = semantic.syntax;
    specification = semantic.specification?.text ?? '';
  } catch (error) {
    if (error instanceof EInvoiceError) return { use: false, why: `not an EN 16931 XML: ${error.message}` };
    throw error;
  }
  if (syntax !== format) return { use: false, why: `the original is ${syntax.toUpperCase()}` };
  if (XRECHNUNG_CIUS.test(specification) !== (options.xrechnung ?? false)) {
    return { use: false, why: options.xrechnung ? 'the original is not an XRechnung' : 'the original is an XRechnung' };
  }
  if (!answersEn16931(specification)) {
    return { use: false, why: specification.includes('#conformant#') ? 'the original is an extension of EN 16931' : `the original's specification (${specification || 'none'}) is not EN 16931` };
  }
  const fatal = validateEInvoiceXml(xml).failed.filter((f) => f.flag === 'fatal');
  if (fatal.length > 0) return { use: false, why: `the original fails ${fatal.map((f) => f.id).join(', ')}` };
  return { use: true };
}

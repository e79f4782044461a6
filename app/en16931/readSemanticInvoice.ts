/** E-invoice XML text → SemanticInvoice, through the project's guarded XML input (size, DOCTYPE/entity, well-formedness). */
import { EInvoiceError, parseXmlBytes, type XmlNode } from '../einvoice/xmlInput.js';
import { xmlPrologEnd } from '../einvoice/xmlProlog.js';
import type { SemanticInvoice } from './model/semanticInvoice.js';
import { readCiiInvoice } from './read/readCii.js';
import { readUblInvoice } from './read/readUbl.js';

const UBL_NAMESPACES: Record<string, string> = {
  Invoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  CreditNote: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
};
const CII_NAMESPACES: Record<string, string> = {
  CrossIndustryInvoice: 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100',
  CrossIndustryDocument: 'urn:ferd:CrossIndustryDocument:invoice:1p0',
};

/** An invoice root without any child (`<Invoice xmlns="…"/>`) is still an invoice to the schematron: every mandatory term fails. */
const EMPTY_ROOT = /^<(?:[\w.-]+:)?(Invoice|CreditNote|CrossIndustryInvoice|CrossIndustryDocument)\b([^>]*)>/;

/** The empty invoice root's name and attributes, looked for past the prolog (xmlProlog.ts: no backtracking pattern). */
function emptyRoot(xml: string): RegExpExecArray | null {
  const at = xmlPrologEnd(xml);
  return at < 0 ? null : EMPTY_ROOT.exec(xml.slice(at, at + 4096));
}

/** The XML as text, or as the file's bytes (decoded by the encoding it declares; bytes that are not text are malformed). */
export type XmlSource = string | Uint8Array;

function parse(xml: XmlSource): { rootName: string; root: XmlNode; namespaces: string[] } {
  try {
    return parseXmlBytes(typeof xml === 'string' ? new TextEncoder().encode(xml) : xml);
  } catch (error) {
    // Only element names and namespace URIs are looked for here, so a lenient decoding of bytes is enough.
    const empty = error instanceof EInvoiceError && error.code === 'not-an-invoice' ? emptyRoot(typeof xml === 'string' ? xml : new TextDecoder().decode(xml)) : null;
    if (!empty) throw error;
    const namespaces = [...empty[2]!.matchAll(/xmlns(?::[\w.-]+)?\s*=\s*["']([^"']+)["']/g)].map((m) => m[1]!);
    return { rootName: empty[1]!, root: {}, namespaces };
  }
}

export function readSemanticInvoice(xml: XmlSource): SemanticInvoice {
  return readEInvoiceXml(xml).invoice;
}

/** The semantic invoice and the parsed tree it was read from (the syntax binding rules test the tree). */
export function readEInvoiceXml(xml: XmlSource): { invoice: SemanticInvoice; rootName: string; root: XmlNode } {
  const { rootName, root, namespaces } = parse(xml);
  return { invoice: readInvoice(rootName, root, namespaces), rootName, root };
}

function readInvoice(rootName: string, root: XmlNode, namespaces: string[]): SemanticInvoice {
  const ubl = UBL_NAMESPACES[rootName];
  if (ubl !== undefined) {
    if (!namespaces.includes(ubl)) throw new EInvoiceError('not-an-invoice', `the root <${rootName}> is not in the UBL namespace ${ubl} (declared: ${namespaces.join(', ') || 'none'})`);
    return readUblInvoice(root, rootName as 'Invoice' | 'CreditNote');
  }
  const cii = CII_NAMESPACES[rootName];
  if (cii !== undefined) {
    if (!namespaces.includes(cii)) throw new EInvoiceError('not-an-invoice', `the root <${rootName}> is not in the CII namespace ${cii} (declared: ${namespaces.join(', ') || 'none'})`);
    return readCiiInvoice(root, rootName === 'CrossIndustryDocument');
  }
  throw new EInvoiceError('not-an-invoice', `the XML's root element <${rootName}> is not an EN 16931 invoice (expected UBL Invoice / CreditNote or CII CrossIndustryInvoice)`);
}

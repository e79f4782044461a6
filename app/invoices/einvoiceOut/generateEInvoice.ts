/**
 * A reviewed invoice as an EN 16931 e-invoice, or why it cannot be one. The XML is read back and checked by Recto's
 * EN 16931 engine (../../en16931) before it is handed out: an invoice whose XML breaks a fatal rule is reported with
 * those rules, never written half-valid.
 */
import { EInvoiceError, validateEInvoiceXml, type ValidationReport } from '../../en16931/index.js';
import type { ReviewedInvoice } from '../reviewedInvoice.js';
import { ciiInvoiceXml } from './ciiOut.js';
import { planEInvoice, type MissingTerm } from './einvoicePlan.js';
import { xrechnungMissing } from './xrechnungTerms.js';
import { ublInvoiceXml, XRECHNUNG_SPECIFICATION } from './ublOut.js';

export type EInvoiceFormat = 'ubl' | 'cii';

export type GeneratedEInvoice =
  | { ok: true; xml: string; warnings: string[] }
  | { ok: false; missing: MissingTerm[]; failedRules: { id: string; message: string }[] };

export function generateEInvoice(invoice: ReviewedInvoice, format: EInvoiceFormat, options: { xrechnung?: boolean } = {}): GeneratedEInvoice {
  const outcome = planEInvoice(invoice);
  // XRechnung's own required terms (BR-DE-*) are checked by Recto before anything is written (xrechnungTerms.ts).
  const missing: MissingTerm[] = [...(outcome.ok ? [] : outcome.missing), ...(options.xrechnung ? xrechnungMissing(invoice) : [])];
  if (!outcome.ok || missing.length > 0) return { ok: false, missing, failedRules: [] };
  const specification = options.xrechnung ? XRECHNUNG_SPECIFICATION : undefined;
  // Electronic addresses go where they are required (XRechnung). In a plain EN 16931 invoice they are optional, and an
  // address from an XML whose scheme has left the EAS code list (BR-CL-25) would keep an otherwise valid invoice out.
  const withEndpoints = options.xrechnung ? outcome.plan : { ...outcome.plan, seller: { ...outcome.plan.seller, endpoint: null }, buyer: { ...outcome.plan.buyer, endpoint: null } };
  const plan = withoutControlCharacters(withEndpoints);
  const xml = format === 'ubl' ? ublInvoiceXml(plan, specification) : ciiInvoiceXml(plan, specification);
  let report: ValidationReport;
  try {
    report = validateEInvoiceXml(xml);
  } catch (error) {
    // Never handed out: an XML Recto cannot read back is no e-invoice (the export lists it and exits non-zero).
    if (error instanceof EInvoiceError) return { ok: false, missing: [{ bt: 'XML', why: `the generated XML is not well-formed: ${error.message}` }], failedRules: [] };
    throw error;
  }
  const fatal = report.failed.filter((f) => f.flag === 'fatal');
  if (fatal.length > 0) {
    return {
      ok: false,
      missing: fatal.flatMap((f) => f.bt.map((bt) => ({ bt, why: `${f.id}: ${f.message}` }))),
      failedRules: fatal.map((f) => ({ id: f.id, message: f.message })),
    };
  }
  return { ok: true, xml, warnings: report.failed.map((f) => `${f.id}: ${f.message}`) };
}

/**
 * Control characters (C0 but tab/line feed/carriage return, which XML 1.0 allows, and DEL/C1, which it discourages)
 * become spaces in every text of the plan: a NUL from a page or a field would make the XML not well-formed.
 */
const XML_CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;

function withoutControlCharacters<T>(value: T): T {
  if (typeof value === 'string') return value.replace(XML_CONTROL, ' ') as T;
  if (Array.isArray(value)) return value.map(withoutControlCharacters) as T;
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutControlCharacters(v)])) as T;
  return value;
}

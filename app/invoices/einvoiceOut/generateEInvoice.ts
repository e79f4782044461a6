/**
 * A reviewed invoice as an EN 16931 e-invoice, or why it cannot be one. The XML is read back and checked by Recto's
 * EN 16931 engine (../../en16931) before it is handed out: an invoice whose XML breaks a fatal rule is reported with
 * those rules, never written half-valid.
 */
import { validateEInvoiceXml } from '../../en16931/index.js';
import type { ReviewedInvoice } from '../reviewedInvoice.js';
import { ciiInvoiceXml } from './ciiOut.js';
import { planEInvoice, type MissingTerm } from './einvoicePlan.js';
import { ublInvoiceXml, XRECHNUNG_SPECIFICATION } from './ublOut.js';

export type EInvoiceFormat = 'ubl' | 'cii';

/**
 * What XRechnung (the German CIUS, BR-DE-*) requires beyond EN 16931 that a reviewed invoice does not hold: Recto
 * reads no buyer reference, seller contact, electronic addresses, street, city or post code yet, so an XRechnung is
 * refused with these terms named rather than written without them.
 */
const xrechnungTermsNotHeld: readonly MissingTerm[] = [
  { bt: 'BT-10', why: 'XRechnung requires the buyer reference (BR-DE-15)' },
  { bt: 'BG-6', why: 'XRechnung requires the seller contact: name, telephone, e-mail (BR-DE-2, -5, -6, -7)' },
  { bt: 'BT-37', why: 'XRechnung requires the seller city (BR-DE-3)' },
  { bt: 'BT-38', why: 'XRechnung requires the seller post code (BR-DE-4)' },
  { bt: 'BT-34', why: 'XRechnung requires the seller electronic address (BR-DE-16)' },
  { bt: 'BT-49', why: 'XRechnung requires the buyer electronic address (BR-DE-26)' },
];

export type GeneratedEInvoice =
  | { ok: true; xml: string; warnings: string[] }
  | { ok: false; missing: MissingTerm[]; failedRules: { id: string; message: string }[] };

export function generateEInvoice(invoice: ReviewedInvoice, format: EInvoiceFormat, options: { xrechnung?: boolean } = {}): GeneratedEInvoice {
  const outcome = planEInvoice(invoice);
  const missing = [...(outcome.ok ? [] : outcome.missing), ...(options.xrechnung ? xrechnungTermsNotHeld : [])];
  if (!outcome.ok || missing.length > 0) return { ok: false, missing, failedRules: [] };
  const specification = options.xrechnung ? XRECHNUNG_SPECIFICATION : undefined;
  const xml = format === 'ubl' ? ublInvoiceXml(outcome.plan, specification) : ciiInvoiceXml(outcome.plan, specification);
  const report = validateEInvoiceXml(xml);
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

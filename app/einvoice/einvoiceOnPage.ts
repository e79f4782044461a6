/**
 * A document's e-invoice attached to each page reading (Extraction.fields), so that whatever shows or checks a page
 * sees the issuer's own values beside the page's:
 * - `invoiceXml`: the XML's fields in the plain shape (the review screen's `xml` column), with `line_details`: each
 *   line's unit (BT-130), VAT category (BT-151) and rate (BT-152), which a page's reading does not have;
 * - `einvoice`: what it is (syntax, profile, type code, file name);
 * - `pageVsXml`: where the page's own reading (`fields.invoice`) disagrees with the XML — each one a check result
 *   that ranks the page first in the curation queue (checkPage);
 * - `einvoiceRefused`: an e-invoice that is there but could not be read, with why (also a warning of the page).
 * Pure: the reading queue in main/ calls it with the stored e-invoice.
 */
import type { Extraction } from '../model/extraction.js';
import { fieldDisagreementSchema, invoiceFieldKeys, type FieldDisagreement, type InvoiceFieldKey } from '../invoice/fieldShape.js';
import type { PlainInvoiceFields } from '../invoice/extractFields.js';
import { einvoicePlainFields } from './einvoiceReading.js';
import { comparePageWithXml } from './pageVsXml.js';
import type { EInvoice } from './einvoice.js';

export type DocumentEInvoice = { status: 'read'; invoice: EInvoice } | { status: 'refused'; fileName: string; message: string };

const record = (v: unknown): Record<string, unknown> | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null);

export function withEInvoice(extraction: Extraction, einvoice: DocumentEInvoice): Extraction {
  const fields = { ...(extraction.fields ?? {}) };
  if (einvoice.status === 'refused') {
    const warning = `e-invoice ${einvoice.fileName} not read: ${einvoice.message}`;
    return { ...extraction, fields: { ...fields, einvoiceRefused: { fileName: einvoice.fileName, message: einvoice.message } }, warnings: [...extraction.warnings, warning] };
  }
  const { invoice } = einvoice;
  const { line_total, allowances, charges, prepaid } = invoice.adjustments;
  const taxBreakdown = invoice.taxes.map((tax) => ({ rate: tax.rate, base: tax.basis, amount: tax.amount }));
  fields.invoiceXml = { ...einvoicePlainFields(invoice), line_total, allowances, charges, prepaid, amount_due: invoice.fields.amount_due?.value ?? null, tax_breakdown: taxBreakdown, line_details: invoice.lines.map((l) => ({ unitCode: l.unitCode, category: l.taxCategory, rate: l.taxRate })) };
  fields.einvoice = invoice.info;
  const page = record(fields.invoice);
  if (page) {
    const sources = record(fields.invoiceSources) ?? {};
    const printed: Partial<Record<InvoiceFieldKey, string>> = {};
    for (const key of invoiceFieldKeys) {
      const text = record(sources[key])?.text;
      if (typeof text === 'string') printed[key] = text;
    }
    fields.pageVsXml = comparePageWithXml({ fields: page as unknown as PlainInvoiceFields, printed }, invoice);
  }
  return { ...extraction, fields };
}

/** The page-vs-XML disagreements an extraction carries (none where it has no e-invoice). */
export function pageVsXmlOf(fields: Record<string, unknown> | undefined | null): FieldDisagreement[] {
  const list = fields?.pageVsXml;
  if (!Array.isArray(list)) return [];
  return list.flatMap((d) => {
    const parsed = fieldDisagreementSchema.safeParse(d);
    return parsed.success ? [parsed.data] : [];
  });
}

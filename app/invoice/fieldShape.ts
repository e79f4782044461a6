/**
 * The invoice field shape the review screen shows: one reading of a document's invoice fields, from its page or from
 * its embedded / standalone e-invoice XML. Each field carries its value, a confidence in [0, 1] derived from evidence
 * (how specific its label is, whether the invoice's arithmetic agrees with it; 1 for a value read from XML), where it
 * is (boxes on the page, a span into the page's Markdown, or the XML element it came from) and which source it is from.
 *
 * `PlainInvoiceFields` (extractFields.ts) stays the plain value-only shape `<stem>.fields.json` and the benchmarks use;
 * `toPlainReading` turns a reading back into it, so older callers keep working on values alone.
 */
import { z } from 'zod';
import { boxSchema, spanSchema } from '../model/extraction.js';
import { coreFieldKeys, type CoreFieldKey } from './fieldCatalogue.js';

/** The scalar fields every reading has (lines apart): the catalogue's key fields. */
export const invoiceFieldKeys: readonly CoreFieldKey[] = coreFieldKeys;
export type InvoiceFieldKey = CoreFieldKey;

/** Where a value was read: the printed page, or the invoice's own XML (embedded in the PDF or the imported file). */
export const fieldSourceSchema = z.enum(['page', 'e-invoice']);
export type FieldSource = z.infer<typeof fieldSourceSchema>;

/** Where on the page a value is. `page` is 1-based; boxes are that page's pixels. */
export const fieldLocationSchema = z.object({
  page: z.number().int().positive(),
  boxes: z.array(boxSchema),
  /** [start, end) into that page's Markdown, where the value's text was found there. */
  span: spanSchema.nullable(),
});
export type FieldLocation = z.infer<typeof fieldLocationSchema>;

export const fieldReadingSchema = z.object({
  value: z.union([z.string(), z.number()]),
  confidence: z.number().min(0).max(1),
  source: fieldSourceSchema,
  /** The text the value was read from, as printed (page) or as written in the XML. */
  text: z.string(),
  /** The label that introduced it on the page ("Rechnungsnummer"), null for unlabelled readings and for XML. */
  label: z.string().nullable(),
  /** On the page: where; null for XML values and where no box is known. */
  location: fieldLocationSchema.nullable(),
  /** In the XML: the element path the value came from (`ExchangedDocument/ID`); null for page values. */
  xmlPath: z.string().nullable(),
  /** Why this confidence, in short tags ("label:specific", "arithmetic:total=subtotal+tax"). */
  evidence: z.array(z.string()),
});
export type FieldReading = z.infer<typeof fieldReadingSchema>;

export const lineReadingSchema = z.object({
  description: z.string(),
  quantity: z.number().nullable(),
  unit_price: z.number().nullable(),
  amount: z.number().nullable(),
  confidence: z.number().min(0).max(1),
  source: fieldSourceSchema,
  location: fieldLocationSchema.nullable(),
});
export type LineReading = z.infer<typeof lineReadingSchema>;

/** A party as the XML states it (the page reading has names only). */
export const partySchema = z.object({
  name: z.string().nullable(),
  address: z.array(z.string()),
  vatId: z.string().nullable(),
});
export type Party = z.infer<typeof partySchema>;

/** What the e-invoice is: its syntax, the specification/profile it claims, its document type. */
export const einvoiceInfoSchema = z.object({
  /** `CII` (UN/CEFACT Cross Industry Invoice, incl. ZUGFeRD 1.0's CrossIndustryDocument) or `UBL` (OASIS UBL 2.1). */
  syntax: z.enum(['CII', 'UBL']),
  /** The root element and version: `ZUGFeRD 1.0 CrossIndustryDocument`, `CII CrossIndustryInvoice`, `UBL 2.1 Invoice`, `UBL 2.1 CreditNote`. */
  flavour: z.string(),
  /** The guideline / customization identifier as written (`urn:cen.eu:en16931:2017`), null where absent. */
  profileId: z.string().nullable(),
  /** The profile's common name (`EN 16931`, `XRechnung`, `BASIC`, `EXTENDED`, …), null where unknown. */
  profile: z.string().nullable(),
  /** UNTDID 1001 document type (380 invoice, 381 credit note, 384 corrected invoice, …). */
  typeCode: z.string().nullable(),
  /** The attachment's file name in the PDF, or the imported file's name. */
  fileName: z.string().nullable(),
});
export type EInvoiceInfo = z.infer<typeof einvoiceInfoSchema>;

/** One disagreement between the page and the XML: "total: page 1.589,80 — XML 119.00". */
export const fieldDisagreementSchema = z.object({
  /** A field key, or `lines[i].amount` for a line amount. */
  field: z.string(),
  /** As printed (null where the page reading found nothing). */
  page: z.string().nullable(),
  /** As written in the XML. */
  xml: z.string().nullable(),
});
export type FieldDisagreement = z.infer<typeof fieldDisagreementSchema>;

export const invoiceReadingSchema = z.object({
  /** Which source the fields come from: the XML wins where a document has one. */
  source: fieldSourceSchema,
  fields: z.object(Object.fromEntries(invoiceFieldKeys.map((k) => [k, fieldReadingSchema.nullable()])) as Record<InvoiceFieldKey, z.ZodNullable<typeof fieldReadingSchema>>),
  lines: z.array(lineReadingSchema),
  /** Present when the reading is the XML's, or when the document has XML beside its page. */
  einvoice: einvoiceInfoSchema.nullable(),
  /** Disagreements between page and XML; null without XML, [] where they agree. */
  pageVsXml: z.array(fieldDisagreementSchema).nullable(),
});
export type InvoiceReading = z.infer<typeof invoiceReadingSchema>;
export type InvoiceReadingFields = InvoiceReading['fields'];

/** An empty field map (every field null). */
export function emptyReadingFields(): InvoiceReadingFields {
  return Object.fromEntries(invoiceFieldKeys.map((k) => [k, null])) as InvoiceReadingFields;
}

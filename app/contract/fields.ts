/**
 * Invoice field review: the shapes of field revisions (the analyst's corrections of a page's invoice fields) as they
 * cross between renderer and main side.
 */
import { z } from 'zod';
import type { PlainLine, PlainTaxRow, ScalarField, ScalarValues } from '../invoice/fieldCatalogue.js';
import { boxSchema } from '../model/extraction.js';

const id = z.string().min(1).max(200);

/** A field's value: text and ISO dates as strings, amounts and quantities as numbers, null = absent. */
export const fieldValueSchema = z.union([z.string().max(2000), z.number().finite(), z.null()]);

export const fieldRevisionSchema = z.object({
  id: z.string(),
  pageId: z.string(),
  /** The previous revision of the same field on this page. */
  parentId: z.string().nullable(),
  /** `total`, `issue_date`, `lines.2.amount`, … */
  field: z.string(),
  /** What the analyst saw before: the engine's value under the earlier corrections. */
  oldValue: fieldValueSchema,
  newValue: fieldValueSchema,
  /** True when this revision returns the field to the engine's value (an undo of its first correction). */
  toEngine: z.boolean(),
  /** The revision this one takes back, for undos. */
  undoes: z.string().nullable(),
  author: z.string(),
  createdAt: z.string(),
});
export type FieldRevision = z.infer<typeof fieldRevisionSchema>;

export const fieldRevisionStatsSchema = z.object({
  /** Pages with at least one field revision. */
  pages: z.number().int().nonnegative(),
  revisions: z.number().int().nonnegative(),
});
export type FieldRevisionStats = z.infer<typeof fieldRevisionStatsSchema>;

const money = z.number().nullable();
/**
 * The catalogue's fields (app/invoice/fieldCatalogue.ts) as they cross the wire, with the default each takes in records
 * written before it was read. Spelled out, as a contract should be; `WireMatchesCatalogue` below stops the build
 * when this and the catalogue part.
 */
export const fieldValuesSchema = z.object({
  invoice_number: z.string().nullable(),
  issue_date: z.string().nullable(),
  due_date: z.string().nullable(),
  seller: z.string().nullable(),
  buyer: z.string().nullable(),
  currency: z.string().nullable(),
  subtotal: money,
  tax: money,
  total: money,
  // Read since the settlement amounts were: absent from older records and corpora, so they default to null.
  line_total: money.default(null),
  allowances: money.default(null),
  charges: money.default(null),
  prepaid: money.default(null),
  amount_due: money,
  lines: z.array(z.object({ description: z.string(), quantity: money, unit_price: money, amount: money })),
  /** VAT breakdown rows (rate in percent, taxable amount, tax); absent from older records. */
  tax_breakdown: z.array(z.object({ rate: money, base: money, amount: money })).max(50).default([]),
});

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** True while the wire shape is the catalogue's: every field once, with its kind's type; lines and rows alike. */
export type WireMatchesCatalogue = Same<
  z.output<typeof fieldValuesSchema>,
  ScalarValues<ScalarField> & { lines: PlainLine[]; tax_breakdown: PlainTaxRow[] }
>;
const wireMatchesCatalogue: WireMatchesCatalogue = true;
void wireMatchesCatalogue;

/** A document's invoice fields as the engine read them over its pages (app/invoice/review/documentView.ts). */
export const documentEngineFieldsSchema = z.object({
  values: fieldValuesSchema,
  /** `xml`: the values are the document's e-invoice XML's, `page` its pages' reading kept for comparison. */
  origin: z.enum(['xml', 'page']),
  page: fieldValuesSchema.nullable(),
  sources: z.record(
    z.string(),
    z.object({
      text: z.string(),
      label: z.string().nullable(),
      boxes: z.array(boxSchema),
      confidence: z.number().nullable(),
      pageId: z.string(),
      /** A value read through supplier memory: the supplier, and the document (its first page and name) that taught it. */
      memory: z.object({ supplier: z.string(), taughtBy: z.string(), taughtByDocument: z.string().nullable() }).optional(),
    }),
  ),
  xml: fieldValuesSchema.partial().nullable(),
  /** Each line's unit (BT-130), VAT category (BT-151) and rate (BT-152) as the e-invoice XML states them; null without XML. */
  lineTerms: z
    .array(z.object({ unitCode: z.string().max(20).nullable(), category: z.string().max(10).nullable(), rate: z.number().finite().nullable() }))
    .max(100_000)
    .nullable()
    .default(null),
  pageLines: z.array(z.object({ pageId: z.string(), start: z.number().int().nonnegative(), count: z.number().int().nonnegative() })),
});

export const documentFieldsReplySchema = z.object({
  /** Null when no page of the document carries invoice fields. */
  engine: documentEngineFieldsSchema.nullable(),
  /** The document's field revisions, oldest first. */
  revisions: z.array(fieldRevisionSchema),
  /** The current text of the document's other pages (for identifiers printed there: IBAN, VAT ID). */
  otherPagesText: z.string(),
});
export type DocumentFieldsReply = z.infer<typeof documentFieldsReplySchema>;

export const fieldMethods = {
  /** The invoice fields of the document a page belongs to: the engine's (merged over its pages) and the corrections. */
  'fields.document': { request: z.object({ pageId: id }), reply: documentFieldsReplySchema },
  /** Every field revision of a page, oldest first. */
  'fields.revisions': { request: z.object({ pageId: id }), reply: z.array(fieldRevisionSchema) },
  /**
   * Saves the analyst's value of one field (validated by the renderer in the document's format; null clears it).
   * `basedOn`: the field's latest revision the analyst saw (null: none, the engine's value); when the field has moved
   * on since, the error `conflict` (conflicts.ts). The review screen always sends it; a caller that omits it (a script)
   * saves over whatever is there.
   */
  'fields.save': {
    request: z.object({ pageId: id, field: z.string().min(1).max(100), value: fieldValueSchema, basedOn: id.nullable().optional() }),
    reply: fieldRevisionSchema,
  },
  /**
   * Takes back the page's newest field correction not taken back yet; null when there is none. `expected`: the one the
   * caller means (the newest it shows; null: none); when another is newest now, the error `conflict` and nothing is taken back.
   */
  'fields.undo': { request: z.object({ pageId: id, expected: id.nullable().optional() }), reply: fieldRevisionSchema.nullable() },
  /** Rejects a page with the analyst's reason (kept with who and when). */
  'pages.reject': { request: z.object({ pageId: id, reason: z.string().trim().min(1).max(500) }), reply: z.object({ rejected: z.literal(true) }) },
  /** How many pages and revisions of field corrections the project (or one document) has. */
  'fields.stats': { request: z.object({ documentId: id.optional() }), reply: fieldRevisionStatsSchema },
} as const;

/**
 * The EN 16931 validation report of the e-invoice a page's document carries (app/en16931), as the review screen shows
 * it beside the page. The main side applies the analyst's saved field corrections and any unsaved `drafts` (a field
 * being typed) to the invoice read from the XML and re-runs the rules that read them (app/review/einvoiceValidation.ts).
 */
import { z } from 'zod';
import { FIELD_TERMS } from '../review/einvoiceValidation.js';
import { fieldValueSchema } from './fields.js';

const validatedField = z.enum(Object.keys(FIELD_TERMS) as [keyof typeof FIELD_TERMS, ...(keyof typeof FIELD_TERMS)[]]);

export const ruleFailureSchema = z.object({
  id: z.string(),
  flag: z.enum(['fatal', 'warning']),
  message: z.string(),
  bt: z.array(z.string()),
  line: z.string().optional(),
  /** `schema` for an XSD finding (id `XSD`, fatal), on the XML text's line `xmlLine`; absent for a rule's. */
  layer: z.literal('schema').optional(),
  xmlLine: z.number().int().nonnegative().optional(),
});

/** The schema layer: the XSD the XML was checked against and whether it passed, or why it was not checked. */
export const schemaVerdictSchema = z.union([
  z.object({ checked: z.literal(true), schema: z.string(), valid: z.boolean() }),
  z.object({ checked: z.literal(false), schema: z.string(), reason: z.string() }),
]);

export const einvoiceValidationSchema = z.object({
  fileName: z.string(),
  syntax: z.enum(['UBL-Invoice', 'UBL-CreditNote', 'CII']),
  profile: z.string().nullable(),
  /** The declared profile by name ("XRechnung 3.0", "Factur-X MINIMUM", "ZUGFeRD 1.0 COMFORT"). */
  profileName: z.string().optional(),
  /** Absent where the report was made without the schema layer (validated in-thread, not in the worker). */
  schema: schemaVerdictSchema.optional(),
  /** The rule sets applied (app/en16931 RuleSet): `en16931` + `en16931-syntax` (+ `xrechnung` for an XRechnung), or `zugferd1` for a ZUGFeRD 1.0 invoice. */
  ruleSets: z.array(z.enum(['en16931', 'en16931-syntax', 'zugferd1', 'xrechnung'])),
  /** False when a fatal rule fired or the XML failed its schema. */
  valid: z.boolean(),
  failed: z.array(ruleFailureSchema),
  /** Fields whose corrected (or draft) value the report reflects instead of the XML's. */
  edited: z.array(validatedField),
});
export type EInvoiceValidation = z.infer<typeof einvoiceValidationSchema>;

export const einvoiceValidationMethods = {
  /** The report of the page's document's e-invoice; null when the document carries none (or its XML was refused). */
  'einvoice.validation': {
    request: z.object({
      pageId: z.string().min(1).max(200),
      drafts: z.array(z.object({ field: validatedField, value: fieldValueSchema })).max(20).optional(),
    }),
    reply: einvoiceValidationSchema.nullable(),
  },
} as const;

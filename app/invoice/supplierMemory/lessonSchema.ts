/**
 * What supplier memory keeps (docs/supplier-memory.md): one lesson per document an analyst corrected or approved,
 * grouped under the supplier it taught. A lesson holds who the supplier is (its own values: name, VAT IDs, IBANs,
 * tax numbers, a fingerprint of the page's fixed text) and, per field, where and how that field is printed (the
 * anchor text before it, its position relative to the anchor, its format). It never holds a value that changes per
 * invoice: numbers, dates and amounts are re-read from each page through the hints.
 *
 * Every row read back from a project file goes through these schemas: a crafted row is ignored, never trusted.
 */
import { z } from 'zod';
import { hintedFieldKeys } from '../fieldCatalogue.js';

/** Bounds that keep a crafted row from costing time or memory (a real lesson is far below each). */
export const MAX_TEXT = 200;
export const MAX_IDS = 16;
export const MAX_FINGERPRINT = 400;
export const MAX_HINTS_PER_FIELD = 3;
export const MAX_VALUE_LINES = 6;

/**
 * The fields memory reads through hints (per-invoice values: where and how, never the value), and the fields a lesson
 * scores when it is checked against the analyst's values (kept / corrected): the catalogue's `memory` column.
 */
export { hintedFieldKeys, memoryFieldKeys, type HintedField, type MemoryField } from '../fieldCatalogue.js';

const text = z.string().max(MAX_TEXT);

/**
 * Where a value sits relative to its anchor: `inline` after the anchor in the same segment ("Rechnungsnr. 4711"),
 * `right` `step` segments to the right on the anchor's line, `below` `step` lines under the anchor, overlapping it,
 * `column-end` the last figure of the column of figures under the anchor (a table's totals row, whatever the rows).
 */
export const fieldHintSchema = z.object({
  anchor: text.min(1),
  relation: z.enum(['inline', 'right', 'below', 'column-end']),
  step: z.number().int().min(0).max(6),
  /** The anchor's height on the page, 0 (top) to 1: tells apart two anchors with the same text. */
  anchorY: z.number().min(0).max(1),
  /** The value's shape as printed (digits as 9, letters as A), for identifiers: a read that breaks it is doubted. */
  shape: text.nullable(),
  /** Lines the value is printed on, in its column (a name over two lines); absent: one. */
  lines: z.number().int().min(1).max(MAX_VALUE_LINES).optional(),
});
export type FieldHint = z.infer<typeof fieldHintSchema>;

export const lessonFormatSchema = z.object({
  /** Dates print month first (US) — true, day first — false, unknown — null. */
  monthFirst: z.boolean().nullable(),
  /** Amounts print a decimal comma (1.234,56) — true, a decimal point — false, unknown — null. */
  decimalComma: z.boolean().nullable(),
  /** The invoice currency the analyst confirmed: the supplier's, used where the page prints no ISO code. */
  currency: z.string().regex(/^[A-Z]{3}$/).nullable(),
});
export type LessonFormat = z.infer<typeof lessonFormatSchema>;

export const supplierIdentitySchema = z.object({
  /** The seller's name as the analyst confirmed it: carried to the next invoice and checked against its page. */
  name: text.nullable(),
  /** The supplier's own identifiers printed on the page (never the buyer's: partyIdentifiers.ts), compacted. */
  vatIds: z.array(text).max(MAX_IDS),
  ibans: z.array(text).max(MAX_IDS),
  /** Tax numbers (Steuernummer, SIREN …) and GLNs: absent from lessons learned before they were read. */
  taxNumbers: z.array(text).max(MAX_IDS).default([]),
  glns: z.array(text).max(MAX_IDS).default([]),
  /** Phone and fax numbers (digits only): a scanned receipt's merchant prints no other identifier OCR keeps whole. */
  phones: z.array(text).max(MAX_IDS).default([]),
  /**
   * The letterhead's lines (the page's first lines, before any buyer block) in anchor form without spaces, digits
   * masked (letterhead.ts): compared through OCR noise where the hashes miss a scan's lines. Absent from lessons learned
   * before it was kept.
   */
  letterhead: z.array(text).max(MAX_IDS).default([]),
  /** Hashes (32-bit) of the page's fixed lines: text with digits masked, so another date or amount keeps the line. */
  fingerprint: z.array(z.number().int().min(0).max(0xffffffff)).max(MAX_FINGERPRINT),
});
export type SupplierIdentity = z.infer<typeof supplierIdentitySchema>;

export const supplierLessonSchema = z.object({
  version: z.literal(1),
  identity: supplierIdentitySchema,
  format: lessonFormatSchema,
  hints: z.partialRecord(z.enum(hintedFieldKeys), z.array(fieldHintSchema).max(MAX_HINTS_PER_FIELD)),
});
export type SupplierLesson = z.infer<typeof supplierLessonSchema>;

/** A lesson as memory uses it: which supplier, which page taught it, and how its values fared since. */
export interface TaughtLesson {
  supplierId: string;
  supplierName: string;
  /** The page (first page of the document) whose correction or approval taught it. */
  pageId: string;
  lesson: SupplierLesson;
}

/** How often the values memory proposed for a supplier were kept or corrected by the analyst. */
export interface SupplierTrackRecord {
  kept: number;
  corrected: number;
}

/** A lesson row's JSON: the parsed lesson, or null for a row that is not one (crafted, or from a newer Recto). */
export function parseLesson(json: string): SupplierLesson | null {
  if (json.length > 64 * 1024) return null;
  try {
    const parsed = supplierLessonSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Supplier memory's messages (docs/supplier-memory.md): the Suppliers view lists, renames, merges and forgets. */
import { z } from 'zod';

const id = z.string().min(1).max(200);

export const supplierSummarySchema = z.object({
  id,
  name: z.string(),
  /** The pages (each a document's first page) whose corrections taught it, newest first, with how memory fared on each. */
  pages: z.array(z.object({ pageId: z.string(), documentId: z.string(), learnedAt: z.string(), kept: z.number().int(), corrected: z.number().int() })),
  /** The fields it knows where and how to read. */
  fields: z.array(z.string()),
  /** The supplier's own identifiers as printed on its pages (the buyer's never listed). */
  vatIds: z.array(z.string()),
  ibans: z.array(z.string()),
  /**
   * The IBANs among `ibans` that no local approval and no analyst confirmed for this supplier (learned, merged or
   * imported): an invoice paying to one is an exception until it is confirmed here (`suppliers.confirmAccount`).
   */
  unconfirmedIbans: z.array(z.string()).optional(),
  taxNumbers: z.array(z.string()),
  glns: z.array(z.string()),
  /** Phone and fax numbers, digits only (absent from replies of older versions). */
  phones: z.array(z.string()).optional(),
  /** Values memory proposed that the analyst kept / corrected, over all its pages. */
  kept: z.number().int(),
  corrected: z.number().int(),
});
export type SupplierSummaryWire = z.infer<typeof supplierSummarySchema>;

const done = z.object({ ok: z.literal(true) });

export const supplierMethods = {
  /** The analyst approves a document's fields as they stand (corrections applied): its supplier learns from it. */
  'suppliers.approve': { request: z.object({ pageId: id }), reply: done },
  /** Every supplier the open project's memory knows. */
  'suppliers.list': { request: z.object({}), reply: z.array(supplierSummarySchema) },
  'suppliers.rename': { request: z.object({ id, name: z.string().trim().min(1).max(200) }), reply: done },
  /** Moves `from`'s pages into `into` and drops `from`. */
  'suppliers.merge': { request: z.object({ into: id, from: id }), reply: done },
  /** The analyst confirms a bank account (or VAT ID) as the supplier's: from then on invoices paying to it raise no exception. */
  'suppliers.confirmAccount': {
    request: z.object({ id, kind: z.enum(['iban', 'bic', 'vat']), value: z.string().trim().min(1).max(64) }),
    reply: done,
  },
  /**
   * Forgets a supplier and all its pages taught (the corrections themselves stay). `undo` names what was forgotten
   * for `suppliers.undoForget`, within this session and project.
   */
  'suppliers.forget': { request: z.object({ id }), reply: z.object({ ok: z.literal(true), undo: z.string() }) },
  /** Puts back exactly what a `suppliers.forget` of this session removed; `restored`: the lessons that came back. */
  'suppliers.undoForget': { request: z.object({ undo: id }), reply: z.object({ ok: z.literal(true), restored: z.number().int().nonnegative() }) },
} as const;

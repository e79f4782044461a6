/**
 * Approving with exceptions, duplicates and the invoices export, on the wire. An approval of a page or document whose
 * fields fail a rule, miss a required field, disagree with the e-invoice XML or look like a duplicate needs the
 * reviewer's reason: `approval.approve` without one answers `needs-reason` with the exceptions and changes nothing.
 */
import { z } from 'zod';
import { absolutePathSchema } from './paths.js';

const id = z.string().min(1).max(200);

export const approvalExceptionSchema = z.object({
  /** `bank-account`: an IBAN, BIC or seller VAT ID this supplier was not paid to before, or one never confirmed here. */
  kind: z.enum(['failed-rule', 'missing-field', 'xml-disagreement', 'duplicate', 'bank-account', 'po-match', 'vendor-master']),
  detail: z.string(),
  pageNumber: z.number().int().positive(),
});
export type ApprovalException = z.infer<typeof approvalExceptionSchema>;

export const invoiceMatchSchema = z.object({
  kind: z.enum(['same-number', 'same-total-and-date', 'same-file', 'corrects']),
  documentId: z.string(),
  documentName: z.string(),
});
export type InvoiceMatchView = z.infer<typeof invoiceMatchSchema>;

export const reviewEventSchema = z.object({
  pageId: z.string(),
  status: z.string(),
  exceptions: z.array(z.string()),
  reason: z.string().nullable(),
  reviewer: z.string(),
  at: z.string(),
  /** The operating-system account that ran Recto beside the reviewer name (null where unknown or from before it was kept). */
  osAccount: z.string().nullable().optional(),
  /** Null for a decision taken here; where a merge or import brought it from. */
  origin: z.string().nullable().optional(),
});

const lineSchema = z.object({ description: z.string(), quantity: z.number().nullable(), unit_price: z.number().nullable(), amount: z.number().nullable() });

export const paymentFieldViewSchema = z.object({
  key: z.string(),
  label: z.string(),
  bt: z.string(),
  value: z.string().nullable(),
  source: z.enum(['page', 'xml', 'corrected']).nullable(),
  page: z.string().nullable(),
  xml: z.string().nullable(),
  problem: z.string().nullable(),
  disagrees: z.boolean(),
  /** The field's latest revision (`payment.<key>`), the base an edit sends (`fields.save`'s basedOn); null: none. */
  revisionId: z.string().nullable().optional(),
});
export type PaymentFieldViewWire = z.infer<typeof paymentFieldViewSchema>;

/**
 * What an approval covers: one page, the whole document, or `unit` — the unit of approval: the whole document where it
 * is an invoice (approving from any of its pages approves the invoice), the page otherwise.
 */
export const approvalScopeSchema = z.enum(['page', 'document', 'unit']);

/** A reason is a sentence or a paragraph, never a document. */
export const MAX_REASON_LENGTH = 2000;

export const approvalMethods = {
  /** What approving would approve over (the document's exceptions first), its duplicates and links, and the newest status change. */
  'approval.check': {
    request: z.object({ pageId: id, scope: approvalScopeSchema }),
    reply: z.object({ exceptions: z.array(approvalExceptionSchema), matches: z.array(invoiceMatchSchema), latest: reviewEventSchema.nullable() }),
  },
  /** Every status change of the page, oldest first: who approved (over which exceptions, why) or rejected it, when. */
  'approval.history': { request: z.object({ pageId: id }), reply: z.array(reviewEventSchema) },
  /** Approves; with exceptions only when a reason is given (`needs-reason` otherwise, nothing changed). */
  'approval.approve': {
    request: z.object({ pageId: id, scope: approvalScopeSchema, reason: z.string().trim().min(1).max(MAX_REASON_LENGTH).optional() }),
    reply: z.object({
      outcome: z.enum(['approved', 'approved-with-exceptions', 'needs-reason']),
      exceptions: z.array(approvalExceptionSchema),
      /** The scope it resolved to (`unit` → page or document) and the page numbers it approves (or would approve). */
      scope: z.enum(['page', 'document']),
      pageNumbers: z.array(z.number().int().positive()),
    }),
  },
  /** The document's payment fields (value, page, XML, check) and its e-invoice XML's line items beside the page's. */
  'invoice.paymentFields': {
    request: z.object({ pageId: id }),
    reply: z.object({ fields: z.array(paymentFieldViewSchema), pageLines: z.array(lineSchema), xmlLines: z.array(lineSchema).nullable() }),
  },
  /** The project's other invoices that look like this page's document (and the invoice a credit note corrects), each with its first page. */
  'invoice.matches': {
    request: z.object({ pageId: id }),
    reply: z.array(invoiceMatchSchema.extend({ pageId: z.string().nullable() })),
  },
  /**
   * The invoices export (main/corpus/invoicesExport) into a folder the user chose: the approved invoices this channel
   * (syntax, CIUS) has not sent yet; `allApproved` every approved one again. Recorded with the reviewer name.
   */
  'invoices.export': {
    request: z.object({ outDir: absolutePathSchema, syntax: z.enum(['ubl', 'cii']), xrechnung: z.boolean().optional(), allApproved: z.boolean().optional() }),
    reply: z.object({
      outDir: z.string(),
      exportId: z.string(),
      allApproved: z.boolean(),
      /** Approved invoices this channel sent before under the same approval (not written unless allApproved). */
      alreadyExported: z.number().int(),
      /** Invoices written again under a new approval, each a correction of an earlier export. */
      corrections: z.number().int(),
      invoices: z.number().int(),
      einvoicesWritten: z.number().int(),
      notWritten: z.array(z.object({ documentId: z.string(), file: z.string(), missing: z.array(z.string()) })),
    }),
  },
} as const;

/**
 * Three-way matching on the wire (docs/po-matching.md): the Matching panel asks for a document's match — its PO,
 * each invoice line against its PO line and receipt, the findings — and the PO lines the analyst may link a line to;
 * a link is remembered for the supplier's next invoices.
 */
import { z } from 'zod';

const id = z.string().min(1).max(200);
const num = z.number().nullable();

export const lineMatchSchema = z.object({
  line: z.number().int().positive(),
  description: z.string(),
  poNumber: z.string().nullable(),
  poLine: z.number().int().nullable(),
  poDescription: z.string().nullable(),
  pairedBy: z.enum(['link', 'item-id', 'description', 'amount']).nullable(),
  billedQuantity: num,
  billedUnitPrice: num,
  orderedQuantity: num,
  openQuantity: num,
  receivedQuantity: num,
  orderedUnitPrice: num,
  differs: z.boolean(),
  findings: z.array(z.object({ rule: z.string(), detail: z.string(), line: z.number().int().nullable() })),
});

export const documentMatchSchema = z.object({
  poNumber: z.string().nullable(),
  foundBy: z.enum(['reference', 'supplier']).nullable(),
  status: z.enum(['matched', 'within-tolerance', 'exception', 'no-po']),
  findings: z.array(z.object({ rule: z.string(), detail: z.string(), line: z.number().int().nullable() })),
  lines: z.array(lineMatchSchema),
  /** PO lines of the supplier's POs (the matched one first) a line may be linked to; at most MAX_LINK_CHOICES. */
  choices: z.array(z.object({ poNumber: z.string(), line: z.number().int(), description: z.string(), quantity: z.number(), unitPrice: z.number() })),
});
export type DocumentMatchWire = z.infer<typeof documentMatchSchema>;

export const MAX_LINK_CHOICES = 200;

/** A master-data file's upper bound on the wire: 64 MiB (about 600,000 PO lines), as base64. */
export const MAX_MASTER_DATA_BYTES = 64 * 1024 * 1024;
const masterFileSchema = z.object({ name: z.string().min(1).max(500), dataBase64: z.string().max(Math.ceil((MAX_MASTER_DATA_BYTES * 4) / 3) + 4) });
const diffSchema = z.object({ added: z.number().int(), changed: z.number().int(), removed: z.number().int(), unchanged: z.number().int() });

export const masterDataImportSummarySchema = z.object({
  files: z.array(z.object({ file: z.string(), rows: z.number().int(), decimal: z.enum(['point', 'comma']), decimalDetected: z.boolean() })),
  report: z.object({ purchaseOrders: diffSchema.optional(), poLines: diffSchema.optional(), goodsReceipts: diffSchema.optional(), supplierAccounts: diffSchema.optional() }),
});
export type MasterDataImportSummaryWire = z.infer<typeof masterDataImportSummarySchema>;

export const matchingMethods = {
  /**
   * Imports master data sent by value (chosen or dropped files): each given file replaces its set, updated by key;
   * a bad row refuses the whole import with the file and line (bad-input error) and nothing is imported.
   */
  'masterData.import': {
    request: z.object({
      purchaseOrders: masterFileSchema.optional(),
      goodsReceipts: masterFileSchema.optional(),
      suppliers: masterFileSchema.optional(),
      decimal: z.enum(['point', 'comma']).optional(),
    }),
    reply: masterDataImportSummarySchema,
  },
  /** The document's match against the project's purchase orders; null where the project holds none or the page is no invoice. */
  'matching.document': { request: z.object({ pageId: id }), reply: documentMatchSchema.nullable() },
  /** Links an invoice line (1-based) to a PO line, remembered for the supplier (null forgets it); replies the new match. */
  'matching.link': {
    request: z.object({ pageId: id, line: z.number().int().positive().max(10_000), target: z.object({ poNumber: z.string().min(1).max(100), line: z.number().int().positive() }).nullable() }),
    reply: documentMatchSchema.nullable(),
  },
} as const;

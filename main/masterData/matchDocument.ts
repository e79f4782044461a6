/**
 * Matching one document of the project: its reviewed invoice (the fields as the reviewer left them) against the
 * project's purchase orders, goods receipts and vendor master, with the project's tolerances and the analyst's
 * links for the supplier. What it bills on each PO line is recorded, so the project's next invoice on the same PO
 * sees only the quantity still open. Nothing of the invoice is changed: the result is findings and figures.
 */
import {
  matchInvoice,
  nameKey,
  supplierAccountFindings,
  tolerancesFor,
  vatKey,
  type InvoiceMatchResult,
  type InvoiceToMatch,
  type SupplierAccountFinding,
} from '../../app/matching/index.js';
import type { PoMatchColumns, ReviewedInvoice } from '../../app/invoices/reviewedInvoice.js';
import { supplierKey } from '../store/masterData.js';
import type { ProjectStoreMasterData } from './storeTypes.js';

export interface DocumentMatch {
  match: InvoiceMatchResult;
  supplierFindings: SupplierAccountFinding[];
}

export function invoiceToMatchOf(invoice: Pick<ReviewedInvoice, 'fields' | 'payment'>): InvoiceToMatch {
  return {
    supplierName: invoice.fields.seller,
    supplierVatId: invoice.payment.seller_vat_id,
    currency: invoice.fields.currency,
    purchaseOrder: invoice.payment.purchase_order,
    iban: invoice.payment.iban,
    lines: invoice.fields.lines.map((l) => ({ description: l.description, quantity: l.quantity, unitPrice: l.unit_price, amount: l.amount })),
  };
}

/** Matches the invoice and, with `record`, keeps what it bills on which PO line for the project's other invoices. */
export function matchDocument(store: ProjectStoreMasterData, documentId: string, invoice: InvoiceToMatch, options: { record: boolean }): DocumentMatch {
  const master = store.masterData;
  const candidates = master.candidatesFor({ documentId, purchaseOrder: invoice.purchaseOrder, supplierVatId: invoice.supplierVatId, supplierName: invoice.supplierName });
  const settings = master.matchSettings();
  const tolerances = tolerancesFor(settings, [vatKey(invoice.supplierVatId), nameKey(invoice.supplierName)]);
  const links = master.linksOf(supplierKey(invoice.supplierVatId, invoice.supplierName));
  const match = matchInvoice(invoice, { candidates, projectHasPos: candidates.length > 0 || master.hasPurchaseOrders(), links, tolerances });
  if (options.record) {
    master.recordInvoiceMatch(
      documentId,
      match.lines.flatMap((l) => (l.poNumber !== null && l.poLine !== null && l.billedQuantity !== null ? [{ poNumber: l.poNumber, poLine: l.poLine, quantity: l.billedQuantity }] : [])),
    );
  }
  const supplierFindings = supplierAccountFindings(invoice, (keys) => master.accountsOf(keys));
  return { match, supplierFindings };
}

/**
 * The export's columns of a reviewed invoice's match (read only: the export records nothing); null where the project
 * holds no purchase orders. An exception the reviewer approved over is "exception approved".
 */
export function poMatchColumnsOf(store: ProjectStoreMasterData, documentId: string, invoice: ReviewedInvoice): PoMatchColumns | null {
  if (!store.masterData.hasPurchaseOrders()) return null;
  const { match } = matchDocument(store, documentId, invoiceToMatchOf(invoice), { record: false });
  const status: PoMatchColumns['status'] =
    match.status === 'exception' ? (invoice.status === 'approved-with-exceptions' ? 'exception approved' : 'exception')
    : match.status === 'within-tolerance' ? 'within tolerance'
    : match.status === 'no-po' ? 'no PO'
    : 'matched';
  return {
    matchedPo: match.poNumber,
    status,
    lines: invoice.fields.lines.map((_, i) => {
      const l = match.lines[i];
      return { poNumber: l?.poNumber ?? null, poLine: l?.poLine ?? null, orderedQuantity: l?.orderedQuantity ?? null, receivedQuantity: l?.receivedQuantity ?? null, orderedUnitPrice: l?.orderedUnitPrice ?? null };
    }),
  };
}

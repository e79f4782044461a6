/**
 * A document's invoice keys for the duplicate check, from its reviewed fields (engine reading with the corrections)
 * and, where it carries one, its e-invoice XML (document type, the invoice a credit note names, seller VAT id).
 */
import { readSemanticInvoice } from '../../app/en16931/index.js';
import { invoiceKeys, type InvoiceKeys } from '../../app/invoices/duplicateKeys.js';
import type { DocumentEInvoicesRepository } from './einvoices.js';
import type { FieldRevisionsRepository } from './fieldRevisions.js';

export function documentInvoiceKeys(
  firstPageId: string,
  documentId: string,
  fields: FieldRevisionsRepository,
  einvoices: DocumentEInvoicesRepository,
): InvoiceKeys | null {
  const values = fields.currentValues(firstPageId);
  if (!values.seller && !values.invoice_number && values.total === null) return null;
  const xml = einvoices.get(documentId);
  let typeCode: string | null = null;
  let preceding: string | null = null;
  let sellerVatId: string | null = null;
  if (xml?.status === 'read') {
    typeCode = xml.invoice.info.typeCode;
    sellerVatId = xml.invoice.seller.vatId;
    try {
      preceding = readSemanticInvoice(Buffer.from(xml.xml).toString('utf8')).precedingInvoices[0]?.id?.text ?? null;
    } catch {
      // The e-invoice reader read it; a semantic read that fails only loses the credit note's reference.
    }
  }
  return invoiceKeys({
    seller: values.seller,
    sellerVatId,
    invoiceNumber: values.invoice_number,
    total: values.total,
    issueDate: values.issue_date,
    typeCode,
    precedingInvoice: preceding,
  });
}

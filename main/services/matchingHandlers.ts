/** The Matching panel's requests (app/contract/matching.ts), on the open project's master data (main/masterData/). */
import type { z } from 'zod';
import type { contractMethods, ReplyOf } from '../../app/contract/methods.js';
import { MAX_LINK_CHOICES, type DocumentMatchWire } from '../../app/contract/matching.js';
import { normalisedDescription } from '../../app/matching/index.js';
import { reviewedInvoiceOf } from '../corpus/invoicesExport/collectInvoices.js';
import { invoiceToMatchOf, matchDocument } from '../masterData/matchDocument.js';
import { importMasterDataBytes, MasterDataFileError } from '../masterData/importMasterData.js';
import { supplierKey } from '../store/masterData.js';
import type { ProjectStore } from '../store/projectStore.js';
import { CodedError, errorCodes } from '../../app/contract/wire.js';
import type { RectoSession } from './rectoSession.js';

type MatchingMethod = 'matching.document' | 'matching.link' | 'masterData.import';
type MatchingHandlers = { [M in MatchingMethod]: (params: z.output<(typeof contractMethods)[M]['request']>) => ReplyOf<M> };

function documentMatch(store: ProjectStore, pageId: string): DocumentMatchWire | null {
  if (!store.masterData.hasPurchaseOrders()) return null;
  const doc = store.documents.getDocument(store.documents.getPage(pageId).documentId);
  const invoice = reviewedInvoiceOf(store, doc);
  if (!invoice) return null;
  const toMatch = invoiceToMatchOf(invoice);
  const { match } = matchDocument(store, doc.id, toMatch, { record: false });
  const candidates = store.masterData.candidatesFor({ documentId: doc.id, purchaseOrder: toMatch.purchaseOrder, supplierVatId: toMatch.supplierVatId, supplierName: toMatch.supplierName });
  candidates.sort((a, b) => Number(b.po.poNumber === match.poNumber) - Number(a.po.poNumber === match.poNumber));
  const choices = candidates.flatMap((c) => c.po.lines.map((l) => ({ poNumber: l.poNumber, line: l.line, description: l.description, quantity: l.quantity, unitPrice: l.unitPrice }))).slice(0, MAX_LINK_CHOICES);
  return { ...match, choices };
}

export function matchingHandlers(session: RectoSession): MatchingHandlers {
  const bytesOf = (file: { name: string; dataBase64: string } | undefined) => (file ? { name: file.name, bytes: Buffer.from(file.dataBase64, 'base64') } : undefined);
  return {
    'masterData.import': ({ purchaseOrders, goodsReceipts, suppliers, decimal }) => {
      try {
        return importMasterDataBytes(session.store, { purchaseOrders: bytesOf(purchaseOrders), goodsReceipts: bytesOf(goodsReceipts), suppliers: bytesOf(suppliers), decimal });
      } catch (error) {
        if (error instanceof MasterDataFileError) throw new CodedError(errorCodes.badInput, `refused, nothing imported: ${error.message}`);
        throw error;
      }
    },
    'matching.document': ({ pageId }) => documentMatch(session.store, pageId),
    'matching.link': ({ pageId, line, target }) => {
      const store = session.store;
      const doc = store.documents.getDocument(store.documents.getPage(pageId).documentId);
      const invoice = reviewedInvoiceOf(store, doc);
      const invoiceLine = invoice?.fields.lines[line - 1];
      if (!invoice || !invoiceLine) throw new CodedError(errorCodes.badInput, `the invoice has no line ${line}`);
      if (target && !store.masterData.poLineNumbers(target.poNumber)?.has(target.line)) throw new CodedError(errorCodes.badInput, `no PO ${target.poNumber} line ${target.line} in the project`);
      store.masterData.setLink(supplierKey(invoice.payment.seller_vat_id, invoice.fields.seller), normalisedDescription(invoiceLine.description), target);
      return documentMatch(store, pageId);
    },
  };
}

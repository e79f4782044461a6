/** A reviewed invoice with every field an e-invoice needs: the fixture of the invoices export's tests and benchmark. */
import { emptyFieldValues } from '../invoice/review/engineFields.js';
import { documentTypeOf } from './documentType.js';
import { emptyPaymentValues, type ReviewedInvoice } from './reviewedInvoice.js';

export function sampleReviewedInvoice(): ReviewedInvoice {
  return {
    documentId: 'doc-1',
    fileName: 'acme-2024-017.pdf',
    documentType: documentTypeOf({ statedCode: null, total: null }),
    xmlDetails: null,
    fields: {
      ...emptyFieldValues(),
      invoice_number: 'R-2024-017',
      issue_date: '2024-03-05',
      due_date: '2024-04-04',
      seller: 'Acme Bürobedarf GmbH & Co. KG',
      buyer: 'Muster <Handel> AG',
      currency: 'EUR',
      subtotal: 150,
      tax: 28.5,
      total: 178.5,
      lines: [
        { description: 'Paper A4, 500 sheets', quantity: 10, unit_price: 5, amount: 50 },
        { description: 'Toner "black"', quantity: 2, unit_price: null, amount: 100 },
      ],
    },
    payment: { ...emptyPaymentValues(), seller_vat_id: 'DE 123 456 789', buyer_vat_id: 'ATU12345678', iban: 'DE89 3704 0044 0532 0130 00', bic: 'COBADEFFXXX', payment_terms: '30 days net', purchase_order: 'PO-7781', contract: 'K-12' },
    sellerCountry: null,
    buyerCountry: null,
    status: 'approved',
    exceptions: [],
    exceptionReason: null,
    reviewer: 'Ada Analyst',
    reviewedAt: '2024-03-06T10:00:00.000Z',
    sources: {},
  };
}


/** The sample invoice credited as a page prints it: every amount and quantity negative (a credit note by its sign, 381). */
export function sampleCreditNote(): ReviewedInvoice {
  const invoice = sampleReviewedInvoice();
  invoice.fields = {
    ...invoice.fields,
    invoice_number: 'G-2024-003',
    subtotal: -150,
    tax: -28.5,
    total: -178.5,
    lines: [
      { description: 'Paper A4, 500 sheets', quantity: -10, unit_price: 5, amount: -50 },
      { description: 'Toner "black"', quantity: -2, unit_price: null, amount: -100 },
    ],
  };
  invoice.documentType = documentTypeOf({ statedCode: null, total: invoice.fields.total });
  return invoice;
}

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

/**
 * An intra-community supply (VAT category K) as its XML states it: a line discount (BG-27), a rounding amount
 * (BT-114), the delivery date (BT-72), the invoicing period (BG-14) and the deliver-to address in Austria (BT-80).
 */
export function sampleIntraCommunityInvoice(): ReviewedInvoice {
  const invoice = sampleReviewedInvoice();
  invoice.fields = {
    ...invoice.fields,
    subtotal: 144.98,
    tax: 0,
    total: 144.98,
    amount_due: 145,
    lines: [
      { description: 'Paper A4, 500 sheets', quantity: 10, unit_price: 5, amount: 45 },
      { description: 'Toner "black"', quantity: 2, unit_price: 49.99, amount: 99.98 },
    ],
    tax_breakdown: [{ rate: 0, base: 144.98, amount: 0 }],
  };
  invoice.xmlDetails = {
    lines: [
      { unitCode: 'C62', category: 'K', rate: '0', allowanceCharges: [{ charge: false, amount: 5, reason: 'Mengenrabatt', reasonCode: '95' }] },
      { unitCode: 'C62', category: 'K', rate: '0', allowanceCharges: [] },
    ],
    vat: [{ category: 'K', rate: '0', base: 144.98, amount: 0, exemptionReason: 'Intra-community supply', exemptionReasonCode: 'VATEX-EU-IC' }],
    allowanceCharges: [],
    rounding: 0.02,
    delivery: { date: '2024-03-01', period: { start: '2024-03-01', end: '2024-03-31' }, address: { line1: 'Hauptstraße 44', city: 'Wien', postCode: '1010', country: 'AT' } },
    otherTaxes: [],
    sellerTaxRegistration: null,
  };
  return invoice;
}

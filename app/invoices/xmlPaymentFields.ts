/**
 * The payment fields and party countries an e-invoice XML states, read through the EN 16931 engine's semantic model
 * (one reader for UBL and CII): seller and buyer VAT identifiers (BT-31, BT-48), the first payment account (BT-84),
 * seller and buyer countries (BT-40, BT-55), and the routing terms XRechnung requires: buyer reference (BT-10),
 * seller contact (BT-41..43), the parties' city and post code (BT-37/38, BT-52/53) and electronic address (BT-34,
 * BT-49; written `scheme:id`, or the bare address for an e-mail address, scheme EM). The page's values are compared with these; an export uses them where the
 * page is silent.
 */
import { readSemanticInvoice, type SemanticInvoice } from '../en16931/index.js';
import { emptyPaymentValues, type PaymentValues } from './reviewedInvoice.js';

/** The VAT scheme of a tax registration: UBL TaxScheme VAT, CII schemeID VA. */
const isVatScheme = (scheme: string | undefined): boolean => scheme === undefined || scheme === 'VAT' || scheme === 'VA';

function vatIdOf(party: SemanticInvoice['seller']): string | null {
  const reg = party.taxIds.find((t) => t.id && isVatScheme(t.scheme?.text));
  return reg?.id?.text.trim() || null;
}

const text = (term: { text: string } | undefined): string | null => term?.text.trim() || null;

/** An electronic address as the routing fields keep it: an e-mail address bare (scheme EM), any other `scheme:id`. */
export function endpointText(term: { text: string; attrs: Readonly<Record<string, string>> } | undefined): string | null {
  const id = text(term);
  if (!id) return null;
  const scheme = term!.attrs.schemeID;
  return !scheme || scheme === 'EM' ? id : `${scheme}:${id}`;
}

export interface XmlPaymentFields {
  payment: PaymentValues;
  /** BT-3 as the XML states it (UNTDID 1001); a UBL CreditNote without one is a credit note (381). */
  typeCode: string | null;
  sellerCountry: string | null;
  buyerCountry: string | null;
}

/**
 * `paymentTexts`: the e-invoice reader's payment texts (../einvoice: payment terms as written, then `IBAN …` lines);
 * the first that is not an account is the payment terms (BT-20), which the semantic model does not keep.
 */
export function xmlPaymentFields(invoice: SemanticInvoice, paymentTexts: readonly string[] = []): XmlPaymentFields {
  const account = invoice.paymentMeans.flatMap((m) => m.accounts).find((a) => a.id || a.iban);
  return {
    payment: {
      ...emptyPaymentValues(),
      seller_vat_id: vatIdOf(invoice.seller),
      buyer_vat_id: vatIdOf(invoice.buyer),
      payment_terms: paymentTexts.find((t) => !t.startsWith('IBAN '))?.trim() || null,
      iban: (account?.iban ?? account?.id)?.text.trim() || null,
      buyer_reference: text(invoice.buyerReference),
      seller_contact_name: text(invoice.seller.contact?.name),
      seller_contact_phone: text(invoice.seller.contact?.phone),
      seller_contact_email: text(invoice.seller.contact?.email),
      seller_city: text(invoice.seller.address?.city),
      seller_post_code: text(invoice.seller.address?.postCode),
      buyer_city: text(invoice.buyer.address?.city),
      buyer_post_code: text(invoice.buyer.address?.postCode),
      seller_endpoint: endpointText(invoice.seller.endpoints[0]),
      buyer_endpoint: endpointText(invoice.buyer.endpoints[0]),
    },
    typeCode: invoice.typeCode?.text.trim() || (invoice.creditNote ? '381' : null),
    sellerCountry: invoice.seller.address?.country?.text.trim() || null,
    buyerCountry: invoice.buyer.address?.country?.text.trim() || null,
  };
}

/** The payment fields of an e-invoice XML's text; null where the engine cannot read it (the import said why). */
export function xmlPaymentFieldsOfText(xml: string, paymentTexts: readonly string[] = []): XmlPaymentFields | null {
  try {
    return xmlPaymentFields(readSemanticInvoice(xml), paymentTexts);
  } catch {
    return null;
  }
}

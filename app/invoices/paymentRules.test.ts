import { describe, expect, it } from 'vitest';
import { paymentFieldViews } from './paymentFieldViews.js';
import { PAYMENT_XML_RULE, paymentRules } from './paymentRules.js';
import { emptyPaymentValues } from './reviewedInvoice.js';

const page = 'Muster GmbH · USt-IdNr. DE123456789\nIBAN DE89 3704 0044 0532 0130 00 · BIC COBADEFFXXX\nPurchase order: PO-4711';
const xml = (payment: Partial<ReturnType<typeof emptyPaymentValues>>) => ({ payment: { ...emptyPaymentValues(), ...payment }, typeCode: null, sellerCountry: 'DE', buyerCountry: 'DE' });
const rulesOf = (text: string, corrections: { field: string; value: string | null }[] = [], x: ReturnType<typeof xml> | null = null) =>
  paymentRules(paymentFieldViews(text, corrections, x).fields).map((r) => `${r.rule} ${r.fields.join()}: ${r.message}`);

describe('payment fields as page rules', () => {
  it('a page whose identifiers pass and agree with its XML fails no payment rule', () => {
    expect(rulesOf(page, [], xml({ iban: 'DE89370400440532013000', seller_vat_id: 'DE 123 456 789', purchase_order: 'PO-4711' }))).toEqual([]);
  });

  it('a corrected IBAN failing mod 97, a VAT id malformed for its country and a malformed BIC each fail their rule', () => {
    const failures = rulesOf(page, [
      { field: 'payment.iban', value: 'DE89 3704 0044 0532 0130 01' },
      { field: 'payment.seller_vat_id', value: 'DE12345678' },
      { field: 'payment.bic', value: 'COBA1' },
    ]);
    expect(failures).toEqual([
      expect.stringMatching(/^BR-CO-9 payment\.seller_vat_id: .*DE12345678: not in the DE VAT identifier format/),
      expect.stringMatching(/^IBAN payment\.iban: .*mod 97/),
      expect.stringMatching(/^BIC payment\.bic: .*COBA1/),
    ]);
  });

  it('an XML value failing its check fails where the page is silent', () => {
    expect(rulesOf('no identifiers here', [], xml({ iban: 'FR76 3000 6000 0112 3456 7890 188' }))).toEqual([expect.stringMatching(/^IBAN payment\.iban: .*FR76/)]);
  });

  it('an identifier on the page that is not the XML one is a disagreement; payment terms worded differently are not', () => {
    const failures = rulesOf(`${page}\nPayment terms: 30 days net`, [], xml({ iban: 'GB82WEST12345698765432', payment_terms: 'Zahlbar innerhalb 30 Tagen' }));
    expect(failures).toEqual([`${PAYMENT_XML_RULE} payment.iban: IBAN (BT-84): page DE89370400440532013000 — XML GB82WEST12345698765432.`]);
  });
});

import { describe, expect, it } from 'vitest';
import { emptyPaymentValues } from './reviewedInvoice.js';
import { paymentFieldsFromText } from './paymentFieldsFromText.js';

describe('payment fields from a page', () => {
  it('reads them from a page: seller and buyer VAT ids by the customer cue, IBAN by its check, the rest by label', () => {
    const page = [
      'Muster GmbH · USt-IdNr. DE 123 456 789',
      'Rechnung R-17',
      'Ihre USt-IdNr.: ATU12345678',
      'Bestellnummer: PO-4711',
      'Zahlungsbedingungen: 14 Tage netto',
      'IBAN DE00 3704 0044 0532 0130 00 (wrong check digits) · IBAN DE89 3704 0044 0532 0130 00 · BIC: COBADEFFXXX',
    ].join('\n');
    expect(paymentFieldsFromText(page)).toEqual({
      ...emptyPaymentValues(),
      seller_vat_id: 'DE123456789',
      buyer_vat_id: 'ATU12345678',
      iban: 'DE89370400440532013000',
      bic: 'COBADEFFXXX',
      payment_terms: '14 Tage netto',
      purchase_order: 'PO-4711',
      contract: null,
    });
  });
});

describe('payment fields from a real page layout', () => {
  it('reads labels inside HTML table cells, and takes no word for a reference', () => {
    const page = [
      '<table><tr><td>Bestellung:</td><td>B123456789</td></tr><tr><td>Positionsdaten</td><td>x</td></tr></table>',
      '## Zahlungsbedingungen',
      '<table><tr><td>Zahlungsbedingungen</td><td>14 Tage netto</td></tr></table>',
      'Vertrag: laut Angebot',
    ].join('\n');
    const values = paymentFieldsFromText(page);
    expect(values.purchase_order).toBe('B123456789');
    expect(values.payment_terms).toBe('14 Tage netto');
    expect(values.contract).toBeNull();
  });
});

describe('routing terms from a page (BT-10, BG-6)', () => {
  it('reads the Leitweg-ID and the seller contact after their labels, in German, English and in table cells', () => {
    const german = [
      'Leitweg-ID: 04011000-12345-34',
      '<table><tr><td>Ansprechpartner</td><td>Erika Mustermann</td></tr><tr><td>Telefon</td><td>+49 (721) 123-4567</td></tr><tr><td>E-Mail</td><td>erika.mustermann@acme.example.</td></tr></table>',
    ].join('\n');
    expect(paymentFieldsFromText(german)).toMatchObject({
      buyer_reference: '04011000-12345-34',
      seller_contact_name: 'Erika Mustermann',
      seller_contact_phone: '+49 (721) 123-4567',
      seller_contact_email: 'erika.mustermann@acme.example',
    });
    const english = 'Buyer reference: PO-DEPT-7 \nContact: John Smith  Phone: 020 7946 0958  Email: j.smith@example.co.uk';
    expect(paymentFieldsFromText(english)).toMatchObject({ buyer_reference: 'PO-DEPT-7', seller_contact_name: 'John Smith', seller_contact_phone: '020 7946 0958', seller_contact_email: 'j.smith@example.co.uk' });
  });

  it('takes no heading for a contact, no short number for a telephone and no address without a domain', () => {
    const values = paymentFieldsFromText('Contact us any time\nTel. 12\nE-Mail: info@localhost\nKäuferreferenz: siehe oben');
    expect(values).toMatchObject({ seller_contact_name: null, seller_contact_phone: null, seller_contact_email: null, buyer_reference: null });
  });
});

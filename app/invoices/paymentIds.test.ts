import { describe, expect, it } from 'vitest';
import { bicProblem, countryOfVatId, ibanProblem, vatIdProblem } from './paymentIds.js';
import { paymentFieldsFromText } from './paymentFieldsFromText.js';

describe('payment identifiers', () => {
  it('checks an IBAN by length per country and mod 97', () => {
    expect(ibanProblem('DE89 3704 0044 0532 0130 00')).toBeNull();
    expect(ibanProblem('FR14 2004 1010 0505 0001 3M02 606')).toBeNull();
    expect(ibanProblem('DE89 3704 0044 0532 0130 01')).toMatch(/mod 97/);
    expect(ibanProblem('DE89 3704 0044 0532 0130')).toMatch(/22 characters/);
    expect(ibanProblem('hello')).toMatch(/not an IBAN/);
  });

  it('checks a VAT identifier against its country format', () => {
    for (const ok of ['DE123456789', 'ATU12345678', 'FR 40 303265045', 'NL123456789B01', 'EL123456789', 'BE0123456789']) expect(vatIdProblem(ok), ok).toBeNull();
    expect(vatIdProblem('DE12345678')).toMatch(/DE VAT/);
    expect(vatIdProblem('NL123456789')).toMatch(/NL VAT/);
    expect(vatIdProblem('QQ123')).toMatch(/no VAT identifier format/);
    expect(countryOfVatId('EL123456789')).toBe('GR');
    expect(countryOfVatId('DE123456789')).toBe('DE');
    expect(bicProblem('COBADEFFXXX')).toBeNull();
    expect(bicProblem('COBA')).not.toBeNull();
  });

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

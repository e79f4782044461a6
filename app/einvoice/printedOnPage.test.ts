import { describe, expect, it } from 'vitest';
import { printsAmount, printsDate, printsFieldValue, printsIdentifier, printsName } from './printedOnPage.js';

/** A totals block and header as a German page prints them: goods value, surcharge, net amount, VAT, gross per rate. */
const page = `Käufer RECHNUNGS-KORREKTUR Seite 1
GLN 4304171000002 Beleg-Datum : 16.09.2013
MUSTER-KUNDE GMBH Bestell-Datum : 01.08.2013
Kunden-Nr. : 009420
Warenwert Zu-/Abschlag Nettobetrag MwSt-Betrag MwSt-% Endbetrag
-2,90 0,08 -2,82 -0,20 7,0 -3,02`;

describe('printedOnPage: does the page print the XML value anywhere?', () => {
  it('amounts with decimals, in the page format, signs kept; a rate or a bare count is no amount', () => {
    expect(printsAmount(page, -2.82)).toBe(true);
    expect(printsAmount(page, -3.02)).toBe(true);
    expect(printsAmount(page, 2.82)).toBe(false);
    expect(printsAmount(page, 119)).toBe(false);
    expect(printsAmount('MwSt 19 %', 19)).toBe(false);
  });

  it('dates day-first, month-first or ISO, padded or not', () => {
    expect(printsDate(page, '2013-09-16')).toBe(true);
    expect(printsDate('issued 9/16/2013', '2013-09-16')).toBe(true);
    expect(printsDate(page, '2013-09-17')).toBe(false);
    expect(printsDate('116.09.20133', '2013-09-16')).toBe(false);
  });

  it('a name whole, or each line of a name the XML spreads over lines; another name is not printed', () => {
    expect(printsName(page, 'GLN 4304171000002\nKunden-Nr. : 009420\nMUSTER-KUNDE GMBH')).toBe(true);
    expect(printsName(page, 'Muster-Kunde GmbH')).toBe(true);
    expect(printsName(page, 'Buyer Inc.')).toBe(false);
  });

  it('an identifier as a whole token only', () => {
    expect(printsIdentifier('Rechnung Nr. R-2042', 'R-2042')).toBe(true);
    expect(printsIdentifier('Rechnung Nr. R-2042', '42')).toBe(false);
  });

  it('by the field’s kind; a currency code never counts as printed', () => {
    expect(printsFieldValue(page, 'issue_date', '2013-09-16')).toBe(true);
    expect(printsFieldValue(page, 'buyer', 'MUSTER-KUNDE GMBH')).toBe(true);
    expect(printsFieldValue(page, 'total', -3.02)).toBe(true);
    expect(printsFieldValue(page, 'total', 119)).toBe(false);
    expect(printsFieldValue('EUR', 'currency', 'EUR')).toBe(false);
    // Allowances are printed as magnitudes under their label; a credit's XML states them negative.
    expect(printsFieldValue('Zu-/Abschlag 0,23', 'allowances', -0.23)).toBe(true);
    expect(printsFieldValue('Endbetrag 0,23', 'total', -0.23)).toBe(false);
  });
});

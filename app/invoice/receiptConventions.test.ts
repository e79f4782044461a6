/**
 * Till receipts: testdata has no receipt, so these fixtures write out the conventions receiptConventions.ts states —
 * the merchant in the first lines, the amount due as the total and never the cash tendered or the change, the date's
 * order from the locale. They are written from the conventions, not copied from any document.
 */
import { describe, expect, it } from 'vitest';
import { extractInvoiceFields, toPlainFields, wordsFromLayoutText } from './index.js';
import { isPaymentLine } from './receiptConventions.js';

const read = (lines: string[]) => toPlainFields(extractInvoiceFields({ words: wordsFromLayoutText(lines.join('\n')) }));

describe('till receipts', () => {
  it('German: merchant from the first line, SUMME as the total, not "Geg. BAR" or "Rückgeld"; a dotted date day first', () => {
    const r = read([
      'Frischmarkt Beispiel GmbH',
      'Hauptstr. 5',
      '12345 Berlin',
      '',
      'BANANEN          1,29 B',
      'BROT             2,49 B',
      '--------------------------',
      'SUMME EUR        3,78',
      'Geg. BAR  EUR   10,00',
      'Rückgeld  EUR    6,22',
      '',
      '12.03.2018  14:22  Bon-Nr. 4711',
    ]);
    expect({ seller: r.seller, date: r.issue_date, total: r.total, currency: r.currency }).toEqual({ seller: 'Frischmarkt Beispiel GmbH', date: '2018-03-12', total: 3.78, currency: 'EUR' });
  });

  it('US: TOTAL, not CASH or CHANGE; a US address makes 03/04 month first', () => {
    const r = read(['Corner Cafe', '12 Main Street', 'Springfield, IL 62701', '', '2 Latte            9.00', 'Subtotal           9.00', 'Tax 8%             0.72', 'TOTAL              9.72', 'CASH              20.00', 'CHANGE            10.28', '', '03/04/2018 10:15']);
    expect({ seller: r.seller, date: r.issue_date, total: r.total, subtotal: r.subtotal, tax: r.tax }).toEqual({ seller: 'Corner Cafe', date: '2018-03-04', total: 9.72, subtotal: 9, tax: 0.72 });
  });

  it('French: "Total à payer", not "Espèces" or "Rendu"; UK: "TOTAL", not "Total tendered" or "Change due"; both day first', () => {
    const fr = read(['EPICERIE DU COIN', '15 rue de la Paix', '75002 Paris', '', 'PAIN              1,20', 'LAIT              0,95', 'TOTAL A PAYER     2,15 EUR', 'ESPECES           5,00', 'RENDU             2,85', '', '03/04/2018 10:15']);
    expect({ seller: fr.seller, date: fr.issue_date, total: fr.total }).toEqual({ seller: 'EPICERIE DU COIN', date: '2018-04-03', total: 2.15 });
    const uk = read(['Corner Shop Ltd', '1 High Street', 'London', '', 'MILK        1.20', 'BREAD       0.95', 'TOTAL  2.15', 'Total tendered  5.00', 'Change due  2.85', '', '04/03/2018 £']);
    expect({ seller: uk.seller, date: uk.issue_date, total: uk.total }).toEqual({ seller: 'Corner Shop Ltd', date: '2018-03-04', total: 2.15 });
  });

  it('names payment lines in de, en, fr', () => {
    for (const text of ['Geg. BAR', 'Rückgeld', 'Total Cash', 'CHANGE DUE', 'Espèces', 'Rendu', 'EC-Cash', 'VISA']) expect(isPaymentLine(text), text).toBe(true);
    for (const text of ['SUMME', 'TOTAL', 'Total à payer', 'Balance due', 'Gesamtbetrag']) expect(isPaymentLine(text), text).toBe(false);
  });
});

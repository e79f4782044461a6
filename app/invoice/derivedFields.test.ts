/**
 * The invoice rules beyond "label, then value", each on small synthetic invoices in English, German and French:
 * closed currency codes, header cells run together, values far below a label, item-table column names, column
 * totals, and the subtotal derived from total − tax or from net line amounts.
 */
import { describe, expect, it } from 'vitest';
import { extractInvoiceFields, findAmounts, toPlainFields, wordsFromLayoutText } from './index.js';
import { inferSubtotal } from './inferSubtotal.js';
import { wordsToLines } from './layout.js';

const read = (lines: string[]) => toPlainFields(extractInvoiceFields({ words: wordsFromLayoutText(lines.join('\n')) }));

describe('amounts', () => {
  it('a unit after a number is not a currency; ISO codes are', () => {
    expect(findAmounts('1 PCS').filter((a) => a.hasCurrency)).toEqual([]);
    expect(findAmounts('2 STK  3 UND')).toEqual(expect.not.arrayContaining([expect.objectContaining({ hasCurrency: true })]));
    expect(findAmounts('EUR 49,99')[0]).toMatchObject({ value: 49.99, hasCurrency: true });
    expect(findAmounts('12 CHF')[0]).toMatchObject({ value: 12, hasCurrency: true });
  });

  it('a currency named only by the columns\' headers ("Gesamt/€") or a label ("Währung: EUR") is the page\'s', () => {
    const items = ['Pos  Bezeichnung  Menge  Einzel/€  Gesamt/€', '1  Beratung  2  50,00  100,00', 'Summe  100,00'];
    expect(read(items).currency).toBe('EUR');
    expect(read(['Rechnung Nr. 7', 'Währung : EUR', 'Summe  100,00']).currency).toBe('EUR');
  });

  it('a quantity with a unit under a tax column is not read as the tax (nl)', () => {
    const plain = read([
      'Omschrijving          Prijs    BTW Hoeveelheid    Bedrag',
      'Onderhoudsset         49,99    21 %     1 PCS     49,99',
      '',
      '                 Factuur totaal EUR               49,99',
    ]);
    expect(plain.tax).toBeNull();
    expect(plain.total).toBe(49.99);
  });
});

describe('header cells run together', () => {
  it('splits "Net amount VAT amount" over a row of values (en)', () => {
    const plain = read(['Net amount VAT amount    Total due', '  100.00     20.00       120.00 USD']);
    expect(plain).toMatchObject({ subtotal: 100, tax: 20, total: 120 });
  });

  it('splits "Nettobetrag MwSt.-Betrag" (de)', () => {
    const plain = read(['Nettobetrag MwSt.-Betrag    Gesamtbetrag', '  250,00      47,50          297,50 EUR']);
    expect(plain).toMatchObject({ subtotal: 250, tax: 47.5, total: 297.5 });
  });

  it('splits "Total HT Montant TVA" and keeps "Total TTC" whole (fr)', () => {
    const plain = read(['Total HT Montant TVA    Total TTC', ' 80,00 €     16,00 €      96,00 €']);
    expect(plain).toMatchObject({ subtotal: 80, tax: 16, total: 96 });
  });

  it('does not split a label followed by a general word ("VAT Total" stays one cell)', () => {
    const lines = wordsToLines(wordsFromLayoutText('VAT Total   Invoice Date'));
    expect(lines[0]!.segments.map((s) => s.text)).toEqual(['VAT Total', 'Invoice Date']);
  });
});

describe('values below a label', () => {
  it('a value several rows under a label is not its value', () => {
    const plain = read(['Invoice No: A-1', '                 VAT', '', '', '', 'Service          12.00', 'Total            12.00']);
    expect(plain.tax).toBeNull();
    expect(plain.total).toBe(12);
  });
});

describe('item-table column names', () => {
  it('a "Tax" column is each item\'s tax: the invoice tax is its value in the totals row (en)', () => {
    const plain = read([
      'Invoice No: 881',
      'Description        Qty    Price     Tax     Amount',
      'Widget             1      10.00     1.90    11.90',
      'Gadget             2      20.00     7.60    47.60',
      'Total                               9.50    59.50',
    ]);
    expect(plain.tax).toBe(9.5);
    expect(plain.total).toBe(59.5);
    expect(plain.subtotal).toBeNull(); // 59.50 − 9.50 = 50.00 is printed nowhere
  });

  it('a date column does not give the invoice date (de)', () => {
    const plain = read([
      'Rechnung Nr. 2024-17',
      'Datum        Beschreibung        Menge    Betrag',
      '15.02.2024   Beratung            2        200,00',
      'Gesamtbetrag                              200,00 EUR',
      '',
      'Datum: 01.03.2024',
    ]);
    expect(plain.issue_date).toBe('2024-03-01');
  });
});

describe('subtotal derived when no subtotal label is printed', () => {
  it('total − tax with a zero tax is the total (en)', () => {
    const plain = read(['Invoice Number: 42', 'Charges                     $4.11', 'Tax *                       $0.00', 'Total for this invoice      $4.11']);
    expect(plain).toMatchObject({ subtotal: 4.11, tax: 0, total: 4.11 });
  });

  it('total − tax when that amount is printed (de)', () => {
    const plain = read(['Rechnung Nr. 77', 'Leistungen                 100,00', 'MwSt. 19 %                  19,00', 'Rechnungsbetrag            119,00 EUR']);
    expect(plain).toMatchObject({ subtotal: 100, tax: 19, total: 119 });
  });

  it('no subtotal when total − tax is printed nowhere (fr: shipping between them)', () => {
    const plain = read(['Facture n° F-9', 'Prestations               100,00 €', 'Livraison                   5,00 €', 'TVA                        21,00 €', 'Total TTC                 126,00 €']);
    expect(plain).toMatchObject({ tax: 21, total: 126, subtotal: null });
  });

  it('sum of line amounts whose column says "ohne MwSt." (de)', () => {
    const plain = read([
      'Rechnungsnr. 30064443',
      'Menge  Beschreibung              VK-Preis    Zeilenbetrag',
      '                                 ohne        ohne MwSt.',
      '                                 MwSt.',
      '1      Exchange Standard         3,89        3,89',
      '1      Exchange Quality          5,39        5,39',
      '                     Total EUR               9,28',
    ]);
    expect(plain).toMatchObject({ subtotal: 9.28, tax: null, total: 9.28 });
  });

  it('sum of line amounts of a "Montant HT" column (fr) and an "Amount excl. VAT" column (en)', () => {
    const fr = read([
      'Facture n° 12',
      'Désignation           Qté    Montant HT',
      'Conseil               1      300,00',
      'Formation             1      150,00',
      'Net à payer                  450,00 €',
    ]);
    expect(fr.subtotal).toBe(450);
    const en = read(['Invoice No: 5', 'Item              Qty   Amount excl. VAT', 'Hosting           1     30.00', 'Domain            1     12.00', 'Amount due              42.00 GBP']);
    expect(en.subtotal).toBe(42);
  });

  it('no sum when the column is gross, or the sum is printed only in the item rows', () => {
    const gross = read(['Rechnung Nr. 5', 'Beschreibung        Menge   Betrag inkl. MwSt.', 'Artikel A           1       11,90', 'Artikel B           1       23,80', 'Summe                       35,70 EUR']);
    expect(gross.subtotal).toBeNull();
    const unconfirmed = inferSubtotal({
      lines: wordsToLines(wordsFromLayoutText('Item  Amount net\nA     10.00\nB     5.00')),
      total: null,
      tax: null,
      items: [{ amount: 10, words: [] }, { amount: 5, words: [] }],
      lineAmounts: 'net',
    });
    expect(unconfirmed).toBeNull(); // 15.00 is printed nowhere
  });
});

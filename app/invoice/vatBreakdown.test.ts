/**
 * The VAT breakdown on small synthetic pages in English, German and French: totals lines per rate, breakdown tables
 * (with the rate bare under its column), base and tax told apart by BR-CO-17, a table's sum row, a credit note, the
 * single row whose base is the total without VAT, and a page with no breakdown (rules stay not applicable).
 */
import { describe, expect, it } from 'vitest';
import { evaluateInvoiceRules } from './rules/index.js';
import { extractInvoiceFields, scoreInvoiceFields, toPlainFields, wordsFromLayoutText } from './index.js';

const read = (lines: string[]) => toPlainFields(extractInvoiceFields({ words: wordsFromLayoutText(lines.join('\n')) }));
const results = (plain: ReturnType<typeof read>, name: string) => evaluateInvoiceRules(plain).filter((r) => r.rule === name);

describe('VAT breakdown from totals lines', () => {
  it('reads "VAT 19% on 100.00: 19.00" and "VAT 7% on 30.00: 2.10" (en); BR-CO-14 and BR-CO-17 pass', () => {
    const plain = read([
      'Invoice No. 1001',
      'Net total                         130.00',
      'VAT 19% on 100.00:                 19.00',
      'VAT 7% on 30.00:                    2.10',
      'VAT total                          21.10',
      'Total                             151.10',
    ]);
    expect(plain.tax_breakdown).toEqual([
      { rate: 19, base: 100, amount: 19 },
      { rate: 7, base: 30, amount: 2.1 },
    ]);
    expect(results(plain, 'BR-CO-14')[0]!.status).toBe('pass');
    expect(results(plain, 'BR-CO-17').map((r) => r.status)).toEqual(['pass', 'pass']);
  });

  it('reads "MwSt. 19 % 19,00" with the net total as its base (de)', () => {
    const plain = read(['Rechnung Nr. 77', 'Nettobetrag                100,00 €', 'MwSt. 19 %                  19,00 €', 'Gesamtbetrag               119,00 €']);
    expect(plain.tax_breakdown).toEqual([{ rate: 19, base: 100, amount: 19 }]);
    expect(results(plain, 'BR-CO-17')[0]!.status).toBe('pass');
  });

  it('a misprinted tax makes BR-CO-17 fail on the row (fr)', () => {
    const plain = read(['Facture n° 12', 'Total HT                  46,68 €', 'TVA 20 % :                 9,40 €', 'Total TTC                 56,08 €']);
    expect(plain.tax_breakdown).toEqual([{ rate: 20, base: 46.68, amount: 9.4 }]);
    const result = results(plain, 'BR-CO-17')[0]!;
    expect(result.status).toBe('fail');
    expect(result.message).toContain('9.34');
  });

  it('tells base from tax by the arithmetic, whatever their order', () => {
    const plain = read(['Subtotal        200.00', 'Tax 10%    20.00 (on 200.00)', 'Total           220.00']);
    expect(plain.tax_breakdown).toEqual([{ rate: 10, base: 200, amount: 20 }]);
  });
});

describe('VAT breakdown tables', () => {
  it('reads a German breakdown table with the rate bare under "Steuersatz", two rates, after the items', () => {
    const plain = read([
      'Pos   Beschreibung          Menge     Preis      Betrag',
      '1     Beratung                  2    100,00      200,00',
      '2     Fachbuch                  1     50,00       50,00',
      '',
      'Umsatzsteueraufschlüsselung',
      'Kategorie        Basisbetrag     Steuersatz     Steuerbetrag',
      'Umsatzsteuer S        200,00             19            38,00',
      'Umsatzsteuer S         50,00              7             3,50',
      '',
      'Rechnungssumme ohne USt.                 250,00',
      'Steuerbetrag                              41,50',
      'Bruttosumme                              291,50',
    ]);
    expect(plain.lines.map((l) => l.amount)).toEqual([200, 50]);
    expect(plain.tax_breakdown).toEqual([
      { rate: 19, base: 200, amount: 38 },
      { rate: 7, base: 50, amount: 3.5 },
    ]);
    expect(results(plain, 'BR-CO-14')[0]!.status).toBe('pass');
    // A breakdown apart from the VAT total that adds up to it raises the total's confidence.
    const table = (taxTotal: string) => extractInvoiceFields({ words: wordsFromLayoutText([
      'Kategorie        Basisbetrag     Steuersatz     Steuerbetrag',
      'Umsatzsteuer S        200,00             19            38,00',
      'Umsatzsteuer S         50,00              7             3,50',
      `Steuerbetrag                              ${taxTotal}`,
    ].join('\n')) });
    expect(scoreInvoiceFields(table('41,50'), '').tax!.evidence).toContain('arithmetic:tax=Σbreakdown:holds');
    expect(scoreInvoiceFields(table('41,90'), '').tax!.evidence).toContain('arithmetic:tax=Σbreakdown:fails');
  });

  it('reads a "Tax | Base | Amount" table with the rate inside the category name (en)', () => {
    const plain = read(['Tax                               Base          Amount', 'VAT 20% services             1,000.00 €        200.00 €', 'VAT 5.5% books                  40.00 €          2.20 €', 'Tax Total                                      202.20 €']);
    expect(plain.tax_breakdown).toEqual([
      { rate: 20, base: 1000, amount: 200 },
      { rate: 5.5, base: 40, amount: 2.2 },
    ]);
  });

  it("leaves out the table's sum row (fr)", () => {
    const plain = read(['Taux TVA        Base HT        Montant TVA', '20 %            100,00              20,00', '10 %             50,00               5,00', '                150,00              25,00', 'Total TTC                          175,00']);
    expect(plain.tax_breakdown).toEqual([
      { rate: 20, base: 100, amount: 20 },
      { rate: 10, base: 50, amount: 5 },
    ]);
  });

  it('a credit note: negative bases and taxes, BR-CO-17 rounding half away from zero', () => {
    const plain = read([
      'Gutschrift Nr. G-9',
      'Art            Basisbetrag     Steuersatz [%]     Steuerbetrag',
      'Umsatzsteuer        -4,85              19              -0,92',
      'Umsatzsteuer        -2,82               7              -0,20',
      'Rechnungssumme ohne USt.         -7,67',
      'Steuerbetrag                     -1,12',
      'Bruttosumme                      -8,79',
    ]);
    expect(plain.tax_breakdown).toEqual([
      { rate: 19, base: -4.85, amount: -0.92 },
      { rate: 7, base: -2.82, amount: -0.2 },
    ]);
    expect(results(plain, 'BR-CO-14')[0]!.status).toBe('pass');
    expect(results(plain, 'BR-CO-17').map((r) => r.status)).toEqual(['pass', 'pass']);
  });
});

describe('no VAT breakdown', () => {
  it('a page with a tax total and no rate has none, and BR-CO-14/17 are not applicable', () => {
    const plain = read(['Invoice No. 5', 'Subtotal      100.00', 'Tax            19.00', 'Total         119.00']);
    expect(plain.tax_breakdown).toEqual([]);
    expect(results(plain, 'BR-CO-14')[0]!.status).toBe('not-applicable');
    expect(results(plain, 'BR-CO-17')[0]!.status).toBe('not-applicable');
  });

  it('rates inside item rows, a VAT identifier and an insurance tax note are no breakdown rows', () => {
    const plain = read([
      'Description        Qty    Price    VAT     Amount',
      'Widget               1    10.00    19%      10.00',
      'Enthält 19% Versicherungssteuer = 12,77 €',
      'VAT: DE123456789',
      'Total                                       10.00',
    ]);
    expect(plain.tax_breakdown).toEqual([]);
  });
});

describe('VAT breakdown of prices that include the tax', () => {
  // A till's receipt, written from the convention (prices include GST; the GST line prints the gross and the tax in it).
  const till = (gstLine: string) => [
    'KEDAI CONTOH SDN BHD (123456-X)',
    'GST ID: 001122334455',
    'TAX INVOICE',
    'Receipt No: R00123      Date: 09/02/2017 11:12',
    'BREAD                           12.00 SR',
    'COFFEE                          10.00 SR',
    'Total RM Including GST 6%       22.00',
    'Total Rounded                   22.00',
    gstLine,
    'Amt. Excl. GST                  20.75',
    'CASH                            50.00',
    'CHANGE                          28.00',
  ];

  it('reads "GST SR 6% 22.00 1.25" as the gross and the tax in it: base 20.75, and BR-CO-17 holds', () => {
    const plain = read(till('GST SR 6%    22.00    1.25'));
    expect(plain.tax_breakdown).toEqual([{ rate: 6, base: 20.75, amount: 1.25 }]);
    expect(results(plain, 'BR-CO-17').map((r) => r.status)).toEqual(['pass']);
    const rows = extractInvoiceFields({ words: wordsFromLayoutText(till('GST SR 6%    22.00    1.25').join('\n')) }).tax_breakdown;
    expect(rows[0]).toMatchObject({ baseFromGross: true, baseFromSubtotal: false });
  });

  it('keeps a base the row prints when the tax is that base times the rate, and a row that fits neither fails', () => {
    expect(read(till('GST SR 6%    20.75    1.25')).tax_breakdown).toEqual([{ rate: 6, base: 20.75, amount: 1.25 }]);
    // 1.40 is neither 6 % of 22.00 nor the 6 % a gross 22.00 includes: the row stands as printed and BR-CO-17 shows it.
    const wrong = read(till('GST SR 6%    22.00    1.40'));
    expect(wrong.tax_breakdown).toEqual([{ rate: 6, base: 22, amount: 1.4 }]);
    expect(results(wrong, 'BR-CO-17').map((r) => r.status)).toEqual(['fail']);
  });
});

/**
 * The totals block's other amounts on small synthetic pages in English, German and French: amount due, amount paid
 * (labelled, brought forward, or only implied by total − due), allowances and charges with their signs chosen by
 * BR-CO-13, a cash discount that is not an allowance, a credit note, and a page printing none of them.
 */
import { describe, expect, it } from 'vitest';
import { evaluateInvoiceRules } from './rules/index.js';
import { extractInvoiceFields, toPlainFields, wordsFromLayoutText } from './index.js';

const read = (lines: string[]) => toPlainFields(extractInvoiceFields({ words: wordsFromLayoutText(lines.join('\n')) }));
const rule = (plain: ReturnType<typeof read>, name: string) => evaluateInvoiceRules(plain).find((r) => r.rule === name)!;

describe('amount due and amount paid', () => {
  it('reads "Amount due" after a deposit (en) and BR-CO-16 holds', () => {
    const plain = read([
      'Invoice No. INV-204                       Date: 2024-03-01',
      'Subtotal                                  1,000.00',
      'VAT 20%                                     200.00',
      'Total                                     1,200.00',
      'Less deposit                               -300.00',
      'Amount due                                  900.00',
    ]);
    expect(plain).toMatchObject({ total: 1200, prepaid: 300, amount_due: 900 });
    expect(rule(plain, 'BR-CO-16').status).toBe('pass');
  });

  it('reads "Zahlbetrag" and a received down payment printed without a sign (de)', () => {
    const plain = read([
      'Rechnung Nr. 2024-17                 Datum: 01.03.2024',
      'Rechnungssumme ohne USt.                 500,00',
      'MwSt. 19 %                                95,00',
      'Bruttosumme                              595,00',
      'Erhaltene Anzahlungen                    100,00',
      'Zahlbetrag                               495,00',
    ]);
    expect(plain).toMatchObject({ total: 595, prepaid: 100, amount_due: 495 });
    expect(rule(plain, 'BR-CO-16').status).toBe('pass');
  });

  it('reads "Net à payer" after an "Acompte versé" (fr)', () => {
    const plain = read([
      'Facture n° F-889                     Date : 01/03/2024',
      'Total HT                              1 000,00 €',
      'TVA 20 %                                200,00 €',
      'Total TTC                             1 200,00 €',
      'Acompte versé                           400,00 €',
      'Net à payer                             800,00 €',
    ]);
    expect(plain).toMatchObject({ total: 1200, prepaid: 400, amount_due: 800 });
  });

  it('adds an amount brought forward: "Offene Zahlungen" make the amount due larger than the total', () => {
    const plain = read(['Bruttosumme                              220,00', 'Offene Zahlungen                         220,00', 'Zahlbetrag                               440,00']);
    expect(plain).toMatchObject({ total: 220, prepaid: -220, amount_due: 440 });
    expect(rule(plain, 'BR-CO-16').status).toBe('pass');
  });

  it('takes an unlabelled payment from total − due where the page prints it', () => {
    const plain = read(['Total                        2,076.76 €', 'Payment      11/17/2017        623.00 €      Residual      1,453.76 €']);
    expect(plain).toMatchObject({ total: 2076.76, prepaid: 623, amount_due: 1453.76 });
  });

  it('keeps a printed amount due that does not close the arithmetic, so BR-CO-16 can fail', () => {
    const plain = read(['Total                 120.00', 'Balance due            110.00']);
    expect(plain).toMatchObject({ total: 120, amount_due: 110, prepaid: null });
    expect(rule(plain, 'BR-CO-16').status).toBe('fail');
  });

  it('reads an amount due set under its label', () => {
    const plain = read(['Invoice # 42        Balance Due', '                    $127.50', '', 'Total: $127.50']);
    expect(plain.amount_due).toBe(127.5);
  });
});

describe('allowances and charges', () => {
  it('reads a discount and shipping and finds their signs from BR-CO-13 (en)', () => {
    const plain = read([
      'Description          Qty     Unit price     Amount',
      'Widget                 2         50.00      100.00',
      'Bolt                   4          5.00       20.00',
      '',
      'Discount 10%                                -12.00',
      'Shipping                                      8.00',
      'Total excl. VAT                             116.00',
      'VAT 20%                                      23.20',
      'Total                                       139.20',
    ]);
    expect(plain).toMatchObject({ allowances: 12, charges: 8, subtotal: 116 });
    expect(rule(plain, 'BR-CO-13').status).toBe('pass');
  });

  it('a US totals block: the subtotal before shipping is the line total, the total without tax is derived', () => {
    const plain = read(['Invoice # 7781', 'Subtotal            $100.00', 'Shipping & Handling  $10.00', 'Sales Tax            $8.00', 'Total               $118.00']);
    expect(plain).toMatchObject({ line_total: 100, charges: 10, subtotal: 110, tax: 8, total: 118 });
    for (const name of ['BR-CO-13', 'BR-CO-15']) expect(rule(plain, name).status).toBe('pass');
  });

  it('reads "Gesamtbetrag der Abschläge/Zuschläge" and the line total (de)', () => {
    const plain = read([
      'Positionssumme                               300,00',
      'Gesamtbetrag der Zuschläge                    10,00',
      'Gesamtbetrag der Abschläge                   -15,00',
      'Rechnungssumme ohne USt.                     295,00',
      'Steuerbetrag                                  56,05',
      'Bruttosumme                                  351,05',
    ]);
    expect(plain).toMatchObject({ line_total: 300, charges: 10, allowances: 15, subtotal: 295 });
    expect(rule(plain, 'BR-CO-13').status).toBe('pass');
  });

  it('reads "Remise" and "Frais de port" (fr)', () => {
    const plain = read(['Total lignes HT', 'Total des lignes                 250,00 €', 'Remise                           -25,00 €', 'Frais de port                     15,00 €', 'Total HT                         240,00 €']);
    expect(plain).toMatchObject({ line_total: 250, allowances: 25, charges: 15, subtotal: 240 });
  });

  it('a cash discount for early payment (Skonto) is a payment term, not an allowance', () => {
    const plain = read(['Nettobetrag                 100,00', 'Zahlbar innerhalb 10 Tagen mit 2 % Skonto    2,00', 'Rabatt bei Zahlung bis 10.03.: 2,00', 'Gesamtbetrag                119,00']);
    expect(plain.allowances).toBeNull();
  });

  it('leaves out a generic discount that breaks the arithmetic (already in the line amounts)', () => {
    const plain = read(['Positionssumme                 90,00', 'Rabatt                         10,00', 'Summe netto                    90,00']);
    expect(plain).toMatchObject({ line_total: 90, allowances: null });
  });

  it('a credit note: a printed positive allowance is negative where the totals are', () => {
    const plain = read([
      'Gutschrift Nr. G-5',
      'Positionssumme                   -7,90',
      'Gesamtbetrag der Zuschläge        0,00',
      'Gesamtbetrag der Abschläge        0,23',
      'Rechnungssumme ohne USt.         -7,67',
      'Steuerbetrag                     -1,12',
      'Bruttosumme                      -8,79',
      'Erhaltene Anzahlungen            -0,00',
      'Zahlbetrag                       -8,79',
    ]);
    expect(plain).toMatchObject({ line_total: -7.9, allowances: -0.23, charges: 0, subtotal: -7.67, total: -8.79, amount_due: -8.79 });
    expect(Math.abs(plain.prepaid!)).toBe(0);
    for (const name of ['BR-CO-13', 'BR-CO-15', 'BR-CO-16']) expect(rule(plain, name).status).toBe('pass');
  });

  it('a page printing none of them: every settlement amount is null and their rules are not applicable', () => {
    const plain = read(['Invoice No. 7', 'Subtotal      100.00', 'Tax            19.00', 'Total         119.00']);
    expect(plain).toMatchObject({ line_total: null, allowances: null, charges: null, prepaid: null, amount_due: null });
    expect(rule(plain, 'BR-CO-16').status).toBe('not-applicable');
    expect(rule(plain, 'BR-CO-13').status).toBe('not-applicable');
  });
});

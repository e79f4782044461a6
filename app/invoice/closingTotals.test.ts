import { describe, expect, it } from 'vitest';
import { line } from '../../testing/syntheticWords.js';

type LayoutWord = ReturnType<typeof line>[number];
import { extractInvoiceFields } from './extractFields.js';
import { scoreInvoiceFields } from './fieldConfidence.js';

/** Cells of one row at the given x positions. */
const row = (y: number, cells: [number, string][]): LayoutWord[] => cells.flatMap(([x, text]) => line(text, x, y));
const totals = (words: LayoutWord[]) => {
  const f = extractInvoiceFields({ words });
  return { subtotal: f.subtotal?.value ?? null, tax: f.tax?.value ?? null, total: f.total?.value ?? null };
};

describe('totals that close (EN 16931: BT-109 + BT-110 = BT-112)', () => {
  it("reads a per-rate totals table's sum row, not its first rate's row (a credit note's 19 % and 7 % rows)", () => {
    const words = [
      ...line('Gutschrift Nr. 4711', 40, 40),
      ...row(200, [[40, 'Warenwert'], [300, 'Nettobetrag'], [500, 'MwSt-Betrag'], [700, 'MwSt-%'], [900, 'Endbetrag']]),
      ...row(230, [[40, '-5,00'], [300, '-4,85'], [500, '-0,92'], [700, '19,0'], [900, '-5,77']]),
      ...row(260, [[40, '-2,90'], [300, '-2,82'], [500, '-0,20'], [700, '7,0'], [900, '-3,02']]),
      ...row(300, [[40, '-7,90'], [300, '-7,67'], [500, '-1,12'], [700, 'EUR'], [900, '-8,79']]),
    ];
    expect(totals(words)).toEqual({ subtotal: -7.67, tax: -1.12, total: -8.79 });
  });

  it('reads a one-rate table with its sum row ("BTW % | Grondslag | BTW bedrag | Totaal")', () => {
    const words = [
      ...row(200, [[300, 'BTW %'], [450, 'Grondslag'], [650, 'BTW bedrag'], [900, 'Totaal']]),
      ...row(230, [[300, '21 %'], [450, '41,31'], [650, '8,68'], [900, '49,99']]),
      ...row(260, [[450, '41,31'], [650, '8,68'], [900, '49,99']]),
    ];
    expect(totals(words)).toEqual({ subtotal: 41.31, tax: 8.68, total: 49.99 });
  });

  it('leaves a per-rate column without a sum row to other evidence', () => {
    const words = [
      ...row(200, [[40, 'Art'], [300, 'Nettobetrag'], [500, 'Steuerbetrag']]),
      ...row(230, [[40, 'Standard'], [300, '-4,85'], [500, '-0,92']]),
      ...row(260, [[40, 'Ermäßigt'], [300, '-2,82'], [500, '-0,20']]),
    ];
    expect(totals(words).tax).toBeNull();
  });

  it('takes the VAT the identity implies where the page prints it (its sign on the line above, a rate row misread)', () => {
    const words = [
      ...row(100, [[40, 'Rechnungssumme ohne USt.'], [600, '-7,67']]),
      ...row(130, [[40, 'Umsatzsteuer (S)'], [300, '-2,82'], [600, '-0,20']]),
      ...row(160, [[40, 'Steuerbetrag in EUR'], [500, '-']]),
      ...row(185, [[600, '1,12']]),
      ...row(210, [[40, 'Bruttosumme'], [600, '-8,79']]),
    ];
    expect(totals(words)).toEqual({ subtotal: -7.67, tax: -1.12, total: -8.79 });
    const fields = extractInvoiceFields({ words });
    // Supplied by the identity, the VAT earns no bonus from it.
    expect(scoreInvoiceFields(fields, '').tax!.evidence).toContain('derived:total=subtotal+tax');
  });

  it('takes no tax the identity would give against the total\'s sign: a total below its subtotal had a deduction', () => {
    // A till's rounding: "Subtotal 12.61", "Rounding -0.01", "Total 12.60" owes no tax of -0.01.
    const words = [...row(100, [[40, 'Subtotal'], [600, '12.61']]), ...row(130, [[40, 'Rounding Adj'], [600, '-0.01']]), ...row(160, [[40, 'Total'], [600, '12.60']])];
    expect(totals(words)).toEqual({ subtotal: 12.61, tax: null, total: 12.6 });
    // Above it, the difference printed is the tax (as before).
    const taxed = [...row(100, [[40, 'Subtotal'], [600, '12.00']]), ...row(130, [[40, 'Service'], [600, '0.72']]), ...row(160, [[40, 'Total'], [600, '12.72']])];
    expect(totals(taxed)).toEqual({ subtotal: 12, tax: 0.72, total: 12.72 });
  });

  it('reads a subtotal equal to the total, beside the tax it includes at a printed rate, as gross: no net, the tax kept', () => {
    // Prices that include the tax (a till's "Sub Total" is the gross): the identity would otherwise make the tax the
    // 0.00 the rounding line prints, and the rules would fail on a document whose figures agree.
    const till = (gst: string) => [
      ...row(100, [[40, 'Sub Total'], [600, '67.85']]),
      ...row(130, [[40, 'GST 6%'], [600, gst]]),
      ...row(160, [[40, 'Rounding Adj'], [600, '0.00']]),
      ...row(190, [[40, 'Total'], [600, '67.85']]),
    ];
    expect(totals(till('3.84'))).toEqual({ subtotal: null, tax: 3.84, total: 67.85 });
    // Not included at that rate (6 % of 67.85 is 4.07, the 6 % in 67.85 is 3.84): the identity decides, as before.
    expect(totals(till('4.07'))).toEqual({ subtotal: 67.85, tax: 0, total: 67.85 });
  });

  it('completes a total whose label the page does not give, from subtotal + tax printed', () => {
    const words = [...row(100, [[40, 'Nettobetrag'], [600, '2000,00']]), ...row(130, [[40, 'Steuerbetrag'], [600, '0,00']]), ...row(160, [[40, 'Br uttosumme'], [600, '2000,00']])];
    expect(totals(words)).toEqual({ subtotal: 2000, tax: 0, total: 2000 });
  });

  it('reads net / tax at a printed rate / gross lines that close, without a total label', () => {
    const words = [
      ...row(100, [[40, 'Privathaftpflicht'], [600, '50,00 €']]),
      ...row(130, [[40, 'Lebensgefährte/in zur Privathaftpflicht'], [600, '0,00 €']]),
      ...row(160, [[40, 'Gesamtbeitrag'], [600, '50,00 €']]),
      ...row(190, [[40, 'Versicherungsteuer 19 %'], [600, '9,50 €']]),
      ...row(220, [[40, 'Rechnungsbeitrag'], [600, '59,50 €']]),
    ];
    expect(totals(words)).toEqual({ subtotal: 50, tax: 9.5, total: 59.5 });
  });

  it('reads a gross amount and the tax it includes at the printed rate', () => {
    const words = [
      ...row(100, [[40, 'Kfz-Haftpflicht'], [600, '80,00 €']]),
      ...row(130, [[40, 'Vollkasko'], [600, '140,00 €']]),
      ...row(160, [[40, 'vierteljährlicher Beitrag inklusive 19 % Versicherungsteuer'], [900, '220,00 €']]),
      ...row(190, [[40, 'in diesem Beitrag enthaltene Versicherungsteuer'], [900, '(35,13 €)']]),
    ];
    expect(totals(words)).toMatchObject({ tax: 35.13, total: 220 });
  });

  it('reads the two lines above a labelled total that add up to it, the second naming a tax', () => {
    const words = [
      ...row(100, [[40, 'Gesamtbeitrag'], [600, '1.000,00 €']]),
      ...row(130, [[40, 'Versicherungsteuer zur Wohngebäudeversicherung'], [900, '163,40 €']]),
      ...row(160, [[40, 'Rechnungsbetrag'], [600, '1.163,40 €']]),
    ];
    expect(totals(words)).toEqual({ subtotal: 1000, tax: 163.4, total: 1163.4 });
  });

  it('keeps lines that do not close (no rate, no tax word) out', () => {
    const words = [...row(100, [[40, 'Item A'], [600, '10,00']]), ...row(130, [[40, 'Item B'], [600, '5,00']]), ...row(160, [[40, 'Item C'], [600, '15,00']])];
    expect(totals(words)).toEqual({ subtotal: null, tax: null, total: null });
  });
});

/**
 * Line items beyond a plain header-and-rows table, on small synthetic invoices in English, German and French: tables
 * without a header row, header cells run together, rows read by OCR (lost decimal marks, misread quantities, ruling
 * artefacts) and the arithmetic that chooses between the readings a row offers.
 */
import { describe, expect, it } from 'vitest';
import { extractInvoiceFields, toPlainFields, wordsFromLayoutText, wordsToLines } from './index.js';
import { amountReadings, columnFormatAmounts, consistentPriceAndAmount, consistentSum } from './itemArithmetic.js';
import { splitHeaderCells } from './lineItems.js';

const read = (lines: string[]) => toPlainFields(extractInvoiceFields({ words: wordsFromLayoutText(lines.join('\n')) }));

/** A row with its amount right-aligned at column 60, as invoices print their amount column. */
const row = (left: string, amount: string): string => left.padEnd(60 - amount.length) + amount;

describe('items without a header row', () => {
  it('takes the outermost rows of a block whose amounts add up to the total, not their breakdown rows (en)', () => {
    const plain = read([
      'Invoice Number: 42183017',
      'Summary',
      row('   Service Charges', '$4.11'),
      row('      Charges', '$4.11'),
      row('      Credits', '$0.00'),
      row('      Tax *', '$0.00'),
      row('Total for this invoice', '$4.11'),
      '',
      'Detail',
      row('   Data Transfer', '$0.01'),
      row('      Charges', '$0.01'),
      row('      VAT **', '$0.00'),
      '',
      row('   Elastic Compute Cloud', '$1.87'),
      row('      Charges', '$1.87'),
      row('      VAT **', '$0.00'),
      '',
      row('   Glacier', '$2.22'),
      row('      Charges', '$2.22'),
      row('      VAT **', '$0.00'),
      '',
      row('   Simple Storage Service', '$0.01'),
      row('      Charges', '$0.01'),
      row('      VAT **', '$0.00'),
    ]);
    expect(plain.total).toBe(4.11);
    expect(plain.lines).toEqual([
      { description: 'Data Transfer', quantity: null, unit_price: null, amount: 0.01 },
      { description: 'Elastic Compute Cloud', quantity: null, unit_price: null, amount: 1.87 },
      { description: 'Glacier', quantity: null, unit_price: null, amount: 2.22 },
      { description: 'Simple Storage Service', quantity: null, unit_price: null, amount: 0.01 },
    ]);
  });

  it('reads rows that add up to the subtotal, in 1.234,56 format (de)', () => {
    const plain = read([
      'Rechnungsnummer: R-2024-1',
      '',
      row('Beratung Projekt Nord', '1.200,00 EUR'),
      row('Reisekosten', '234,56 EUR'),
      row('Zwischensumme', '1.434,56 EUR'),
      row('MwSt. 19 %', '272,57 EUR'),
      row('Gesamtbetrag', '1.707,13 EUR'),
    ]);
    expect(plain.lines.map((l) => [l.description, l.amount])).toEqual([
      ['Beratung Projekt Nord', 1200],
      ['Reisekosten', 234.56],
    ]);
    expect(plain).toMatchObject({ subtotal: 1434.56, tax: 272.57, total: 1707.13 });
  });

  it('reads quantity and unit price where quantity × price = amount (en)', () => {
    const plain = read(['Invoice no. A-17', row('Widget      3      $5.00', '$15.00'), row('Gadget      1      $5.00', '$5.00'), row('Total', '$20.00')]);
    expect(plain.lines).toEqual([
      { description: 'Widget', quantity: 3, unit_price: 5, amount: 15 },
      { description: 'Gadget', quantity: 1, unit_price: 5, amount: 5 },
    ]);
  });

  it('takes no rows whose amounts add up to nothing the invoice states (fr)', () => {
    const plain = read([
      'Facture n° F-1',
      row('Sous-total HT', '100,00 €'),
      row('Frais de port', '10,00 €'),
      row('Remise', '-5,00 €'),
      row('Total TTC', '105,00 €'),
    ]);
    expect(plain.total).toBe(105);
    expect(plain.lines).toEqual([]);
  });

  it('takes no rows under an amount whose description was not read: they may break that amount down', () => {
    const plain = read(['Invoice Number: 1', row('', '$4.11'), row('   Charges', '$4.11'), row('   Credits', '$0.00'), row('Total', '$4.11')]);
    expect(plain.lines).toEqual([]);
  });

  it('needs two rows: a single row equal to the total is no evidence of a table', () => {
    expect(read(['Invoice Number: 1', row('Service Charges', '$4.11'), row('Total', '$4.11')]).lines).toEqual([]);
  });
});

describe('item table headers', () => {
  const segment = (text: string) => wordsToLines(wordsFromLayoutText(text), 99)[0]!.segments[0]!;

  it('splits a column name from an unknown column run into it, keeps two-word names whole', () => {
    expect(splitHeaderCells(segment('BTW Hoeveelheid')).map((s) => s.text)).toEqual(['BTW', 'Hoeveelheid']);
    expect(splitHeaderCells(segment('Total price')).map((s) => s.text)).toEqual(['Total price']);
    expect(splitHeaderCells(segment('Unit price')).map((s) => s.text)).toEqual(['Unit price']);
    expect(splitHeaderCells(segment('Item   Qty')).map((s) => s.text)).toEqual(['Item', 'Qty']);
    expect(splitHeaderCells(segment('The total amount for each item is shown')).map((s) => s.text)).toHaveLength(1);
  });

  it('reads the quantity under a column name run together with the tax column (nl)', () => {
    const plain = read(['Omschrijving          Prijs    BTW Hoeveelheid    Bedrag', 'Onderhoudsset         49,99    21 %     1 PCS     49,99', '', '                 Factuur totaal EUR               49,99']);
    expect(plain.lines).toEqual([{ description: 'Onderhoudsset', quantity: 1, unit_price: 49.99, amount: 49.99 }]);
  });

  it('OCR ruling artefacts do not run header cells together (de)', () => {
    const lines = wordsToLines(wordsFromLayoutText('Beschreibung      VK-Preis ~~ Zeilenbetrag\n                  Ohne      Ohne MwSt.'));
    expect(lines[0]!.segments.map((s) => s.text)).toEqual(['Beschreibung', 'VK-Preis', 'Zeilenbetrag']);
    const plain = read([
      'Beschreibung      Menge    VK-Preis ~~ Zeilenbetrag',
      '                            Ohne      Ohne MwSt.',
      'Exchange 2010       1        3,89          3,89',
      'Exchange Plus       2        5,39         10,78',
      '',
      '                     Total EUR            14,67',
    ]);
    expect(plain.subtotal).toBe(14.67);
  });

  it('a row ending in a sentence with an amount is a note, not an item (en)', () => {
    const plain = read([
      'Product      Title                 Qty    Price     Total',
      'Memory card  SanDisk Ultra 16 GB    1     278.61    319.00',
      'FSN: ABC123  Price is inclusive of Promotional Discount of Rs 40.00,',
      'Hosting      Basic plan             1     12.00     USD 12.00 per month',
      '                                  Grand Total       331.00',
    ]);
    expect(plain.lines.map((l) => l.amount)).toEqual([319, 12]);
  });
});

describe('arithmetic of OCR readings', () => {
  it('reads a unit price that lost its decimal mark where quantity × price = amount', () => {
    expect(amountReadings({ value: 4999, text: '4999' })).toEqual([4999, 49.99]);
    expect(amountReadings({ value: 49.99, text: '49,99' })).toEqual([49.99]);
    expect(amountReadings({ value: 12, text: '12' })).toEqual([12]);
    expect(consistentPriceAndAmount(1, { value: 4999, text: '4999' }, { value: 49.99, text: '49,99' })).toEqual({ unitPrice: 49.99, amount: 49.99 });
    // Consistent as read, or inconsistent in every reading: as read.
    expect(consistentPriceAndAmount(2, { value: 5, text: '5.00' }, { value: 10, text: '10.00' })).toEqual({ unitPrice: 5, amount: 10 });
    expect(consistentPriceAndAmount(1, { value: 278.61, text: '278.61' }, { value: 319, text: '319.00' })).toEqual({ unitPrice: 278.61, amount: 319 });
    const plain = read(['Artikel          Aantal    Prijs     Bedrag', 'Filter              1       4999      €49,99', '', '            Totaal             €49,99']);
    expect(plain.lines).toEqual([{ description: 'Filter', quantity: 1, unit_price: 49.99, amount: 49.99 }]);
  });

  it('reads an item amount that lost its decimal mark where only that reading adds up to the stated total', () => {
    expect(consistentSum([10, 424], [[10], [424, 4.24]], [14.24])).toEqual([10, 4.24]);
    expect(consistentSum([10, 424], [[10], [424, 4.24]], [434])).toEqual([10, 424]);
    expect(consistentSum([10, 424], [[10], [424, 4.24]], [null])).toEqual([10, 424]);
    const plain = read(['Description       Amount', 'Hosting           €10,00', 'Levy              €424', '', 'Total             €14,24']);
    expect(plain.lines.map((l) => l.amount)).toEqual([10, 4.24]);
  });

  it('reads an amount the OCR was unsure of as bare digits with two decimals where the rest of its column prints them', () => {
    const ocr = (text: string, value: number, confidence: number | null = 0.9) => ({ text, value, confidence });
    const column = [ocr('€399,00', 399), ocr('€424', 424, 0.72), ocr('€69,99', 69.99), ocr('€12499', 124.99, 0.8)];
    // The last one's row arithmetic already read it (1 × 124,99): it neither changes nor speaks for the column.
    expect(columnFormatAmounts(column, [false, false, false, true])).toEqual([399, 4.24, 69.99, 124.99]);
    // Read with confidence, from a text layer (no confidence), or in a column of round amounts: as read.
    expect(columnFormatAmounts([column[0]!, ocr('€424', 424, 0.95), column[2]!], [false, false, false])).toEqual([399, 424, 69.99]);
    expect(columnFormatAmounts([column[0]!, ocr('€424', 424, null), column[2]!], [false, false, false])).toEqual([399, 424, 69.99]);
    expect(columnFormatAmounts([ocr('€399', 399), ocr('€424', 424, 0.5), column[2]!], [false, false, false])).toEqual([399, 424, 69.99]);
    const words = wordsFromLayoutText(['Artikel                Aantal      Bedrag', 'iPad Air                  1       €399,00', 'Thuiskopieheffing         1          €424', 'Cover                     1        €69,99', '', '              Totaal             €468,99'].join('\n'));
    const unsure = words.map((w) => ({ ...w, confidence: w.text === '€424' ? 0.6 : 0.93 }));
    expect(toPlainFields(extractInvoiceFields({ words: unsure })).lines.map((l) => l.amount)).toEqual([399, 4.24, 69.99]);
  });

  it('reads a quantity OCR gave as a letter, or under an unread column name, where quantity × price = amount', () => {
    const plain = read(['Description    Qty    Unit price    Amount', 'Widget          l       $5.00        $5.00', 'Service A      12      $10.00      $120.00', '', '                        Total      $125.00']);
    expect(plain.lines.map((l) => l.quantity)).toEqual([1, 12]);
    const noQtyName = read(['Item                  Rate      Amount', 'Service A      12    $10.00    $120.00', 'Service B       5     $1.50      $7.50', '', '            Total             $127.50']);
    expect(noQtyName.lines.map((l) => [l.quantity, l.unit_price, l.amount])).toEqual([
      [12, 10, 120],
      [5, 1.5, 7.5],
    ]);
  });
});

describe('short labels with a colon', () => {
  it('reads "Due:" and "Issued:" as the due and issue dates', () => {
    const plain = read(['Invoice no. BL-0932', 'Issued: 2 November 2024', 'Due: 2 December 2024', 'Amount due   EUR 3,024.00', 'Payment due to a bank holiday may be late.']);
    expect(plain).toMatchObject({ issue_date: '2024-11-02', due_date: '2024-12-02', total: 3024 });
  });
});

import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { extractInvoiceFields, findAmounts, parseAmount, parseDate, toPlainFields, wordsFromLayoutText, wordsToLines } from './index.js';
import { findDates } from './dates.js';

describe('parseAmount', () => {
  it('reads both number conventions, symbols and signs', () => {
    expect(parseAmount('1,234.56')).toBe(1234.56);
    expect(parseAmount('1.234,56')).toBe(1234.56);
    expect(parseAmount('1 234,56 €')).toBe(1234.56);
    expect(parseAmount("1'234.50")).toBe(1234.5);
    expect(parseAmount('$4.11')).toBe(4.11);
    expect(parseAmount('€ -9,32')).toBe(-9.32);
    expect(parseAmount('(12.00)')).toBe(-12);
    expect(parseAmount('EUR 49,99')).toBe(49.99);
    expect(parseAmount('1,234')).toBe(1234);
    expect(parseAmount('1.234.567')).toBe(1234567);
    expect(parseAmount('12,5')).toBe(12.5);
    expect(parseAmount('Rs 1939')).toBe(1939);
    expect(parseAmount('12.34.5')).toBeNull();
    expect(parseAmount('abc')).toBeNull();
    expect(parseAmount('1,2,3')).toBeNull();
  });
  it('finds amounts in text and skips percentages, dates and identifiers', () => {
    const found = findAmounts('Tax 15% on $ 112.90   $ 16.94 ref INV/2023/03 and AB12.50');
    expect(found.map((a) => a.value)).toEqual([112.9, 16.94]);
    expect(findAmounts('Total HT : 46,68 €')[0]).toMatchObject({ value: 46.68, hasCurrency: true, hasDecimals: true });
  });
});

describe('parseDate', () => {
  it('reads a till\'s date with the time joined on by a hyphen, not a date inside a longer run of groups', () => {
    expect(findDates('12/06/2016-13:30:10-28-CASHIER').map((d) => d.iso)).toEqual(['2016-06-12']);
    expect(findDates(': 01/05/2016-13: 19: 16').map((d) => d.iso)).toEqual(['2016-05-01']);
    expect(findDates('1/2/2016-5')).toEqual([]);
    expect(findDates('05.22.95.66.66')).toEqual([]);
  });
  it('reads numeric and named-month dates in four languages', () => {
    expect(parseDate('2014-08-03')).toBe('2014-08-03');
    expect(parseDate('August 3 , 2014')).toBe('2014-08-03');
    expect(parseDate('Jan 31, 2022')).toBe('2022-01-31');
    expect(parseDate('7. Mai 2014')).toBe('2014-05-07');
    expect(parseDate('02 Juillet 2015')).toBe('2015-07-02');
    expect(parseDate('19 april 2014')).toBe('2014-04-19');
    expect(parseDate('1er mars 2020')).toBeNull();
    expect(parseDate('20.10.2015')).toBe('2015-10-20');
    expect(parseDate('8-9-2022')).toBe('2022-09-08');
    expect(parseDate('8-9-2022', { monthFirst: true })).toBe('2022-08-09');
    expect(parseDate('03/20/2023')).toBe('2023-03-20');
    expect(parseDate('21.05.14')).toBe('2014-05-21');
    expect(parseDate('31.02.2020')).toBeNull();
  });

  it('reads a named month dashed or with a two-digit year, never a time for the year', () => {
    expect(parseDate('05-Jan-2017 03:17:50 PM')).toBe('2017-01-05');
    expect(parseDate('24 Mar-2018 03:44:22 PM')).toBe('2018-03-24');
    expect(parseDate('30 Dec 17 18:40:57')).toBe('2017-12-30');
    expect(parseDate('28-MAR-18')).toBe('2018-03-28');
    expect(parseDate('5 Mar 12:30')).toBeNull();
    expect(parseDate('Lieferung 3 Mai 2014')).toBe('2014-05-03');
    expect(parseDate('12 Dec 123')).toBeNull();
    // A run of dotted groups is a (French) phone number, not a date.
    expect(parseDate('Tel. : 05.22.95.66.66')).toBeNull();
    expect(parseDate('le 30/03/2018 a 12:36')).toBe('2018-03-30');
  });
});

describe('layout', () => {
  it('groups pseudo-words into lines and splits segments at wide gaps', () => {
    const lines = wordsToLines(wordsFromLayoutText('Invoice Number:      42183017\nTotal   $4.11'));
    expect(lines.map((l) => l.segments.map((s) => s.text))).toEqual([['Invoice Number:', '42183017'], ['Total', '$4.11']]);
  });
});

describe('wordsToLines: a box several lines tall', () => {
  it('joins no lines above and below it (a smudge read as a word across three lines of a receipt)', () => {
    const word = (text: string, x1: number, y1: number, x2: number, y2: number, confidence = 0.95) => ({ text, box: [x1, y1, x2, y2] as [number, number, number, number], confidence });
    const words = [
      word('Total', 38, 491, 81, 505), word('Inclusive', 87, 491, 163, 505), word('GST:', 169, 491, 210, 505),
      word('Jay', 306, 457, 438, 536, 0.08),
      word('CASH', 38, 519, 87, 533), word('20.00', 373, 517, 398, 532),
      word('Change', 38, 542, 103, 560), word('9.55', 363, 540, 398, 555),
    ];
    const texts = wordsToLines(words).map((l) => l.text.replace(/\s+/g, ' '));
    expect(texts).toContain('CASH 20.00');
    expect(texts.find((t) => t.startsWith('Total'))).not.toContain('20.00');
    // A tall word still stands on its own line's band, with the words beside its centre.
    const title = wordsToLines([word('INVOICE', 10, 0, 200, 60), word('No.', 220, 25, 250, 37), word('42', 260, 25, 280, 37), word('Date', 10, 80, 50, 92), word('1.2.2024', 60, 80, 120, 92)]);
    expect(title.map((l) => l.text.replace(/\s+/g, ' '))).toEqual(['INVOICE No. 42', 'Date 1.2.2024']);
    // Large print OCR is sure of lends its whole box: a name's words a little apart in height stay one line.
    const body = [0, 1, 2].flatMap((row) => [word('Jalan', 2365, 1900 + 80 * row, 2500, 1950 + 80 * row), word('Permas', 2520, 1900 + 80 * row, 2700, 1950 + 80 * row)]);
    const name = wordsToLines([word('MOOKATA', 2365, 1663, 2862, 1826, 0.91), word('HOUSE', 2895, 1612, 3243, 1802, 0.93), ...body]);
    expect(name.map((l) => l.text.replace(/\s+/g, ' '))).toEqual(['MOOKATA HOUSE', 'Jalan Permas', 'Jalan Permas', 'Jalan Permas']);
  });
});

describe('extractInvoiceFields', () => {
  it('reads labelled fields to the right, below and inside a segment, with their words', () => {
    const text = [
      'ACME GmbH',
      'Rechnungsnr.:   RE-2024-0042',
      'Rechnungsdatum  Fällig am',
      '03.04.2024      17.04.2024',
      'Beschreibung          Menge    Einzelpreis    Betrag',
      'Widget                2        10,00          20,00',
      'Gadget service        1        1.234,50       1.234,50',
      'Zwischensumme                                 1.254,50 EUR',
      'MwSt. 19%                                     238,36 EUR',
      'Gesamtbetrag                                  1.492,86 EUR',
    ].join('\n');
    const fields = extractInvoiceFields({ words: wordsFromLayoutText(text) });
    const plain = toPlainFields(fields);
    expect(plain).toMatchObject({
      invoice_number: 'RE-2024-0042',
      issue_date: '2024-04-03',
      due_date: '2024-04-17',
      seller: 'ACME GmbH',
      currency: 'EUR',
      subtotal: 1254.5,
      tax: 238.36,
      total: 1492.86,
    });
    expect(plain.lines).toEqual([
      { description: 'Widget', quantity: 2, unit_price: 10, amount: 20 },
      { description: 'Gadget service', quantity: 1, unit_price: 1234.5, amount: 1234.5 },
    ]);
    expect(fields.total!.words.map((w) => w.text)).toContain('1.492,86');
    expect(fields.invoice_number!.label).toMatch(/Rechnungsnr/);
    expect(fields.total!.words[0]!.box[1]).toBe(9 * 12); // line 10 of the layout
  });

  it('works from Markdown with a pipe table and French labels', () => {
    const md = '# Facture n° F-77\n\nDate : 05/06/2023\n\n| Désignation | Qté | Prix | Montant |\n|---|---|---|---|\n| Conseil | 2 | 100,00 € | 200,00 € |\n\nTotal HT : 200,00 €\n\nTVA 20 % : 40,00 €\n\nTotal TTC : 240,00 €';
    const plain = toPlainFields(extractInvoiceFields({ markdown: md }));
    expect(plain).toMatchObject({ invoice_number: 'F-77', issue_date: '2023-06-05', subtotal: 200, tax: 40, total: 240, currency: 'EUR' });
    expect(plain.lines).toEqual([{ description: 'Conseil', quantity: 2, unit_price: 100, amount: 200 }]);
  });

  it('reads items across section subtotals and stops at the total', () => {
    const text = [
      'Description            Quantity    Unit Price    Amount',
      '--- Food ---',
      'Olive oil              2           5.00          10.00',
      'Extra virgin, cold pressed',
      '                                   Subtotal      10.00',
      '--- Tools ---',
      'Hammer                 1           20.00         20.00',
      '',
      '',
      'Footer note in the same column as descriptions',
      '                                   Total         30.00',
      'Refund line            1           1.00          1.00',
    ].join('\n');
    const plain = toPlainFields(extractInvoiceFields({ words: wordsFromLayoutText(text) }));
    expect(plain.lines).toEqual([
      { description: 'Olive oil\nExtra virgin, cold pressed', quantity: 2, unit_price: 5, amount: 10 },
      { description: 'Hammer', quantity: 1, unit_price: 20, amount: 20 },
    ]);
    expect(plain.total).toBe(30);
  });

  it('returns nulls, not errors, for empty or label-free input', () => {
    const plain = toPlainFields(extractInvoiceFields({ markdown: '' }));
    expect(plain).toMatchObject({ invoice_number: null, total: null, issue_date: null, lines: [] });
    expect(toPlainFields(extractInvoiceFields({ markdown: 'Just a letter. Kind regards.' })).total).toBeNull();
  });
});

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const invoiceDir = path.resolve(repoRoot, '..', 'shared', 'testdata', 'invoice2data');
const haveInvoices = existsSync(path.join(invoiceDir, 'groundtruth_pdftotext'));
if (!haveInvoices) console.warn(`invoice2data absent at ${invoiceDir}: real-invoice extraction test skipped`);

describe.skipIf(!haveInvoices)('invoice2data text layers', () => {
  it('reads invoice number, date and total of every document that prints them', () => {
    let correct = 0;
    let total = 0;
    for (const file of readdirSync(path.join(invoiceDir, 'groundtruth_pdftotext'))) {
      const stem = file.replace('.layout.txt', '');
      const truth = JSON.parse(readFileSync(path.join(invoiceDir, 'tests', 'compare', `${stem}.json`), 'utf8'))[0];
      const plain = toPlainFields(extractInvoiceFields({ words: wordsFromLayoutText(readFileSync(path.join(invoiceDir, 'groundtruth_pdftotext', file), 'utf8')) }));
      const checks: [unknown, unknown][] = [
        [plain.invoice_number?.replace(/^#/, ''), String(truth.invoice_number).replace(/^#/, '')],
        [plain.issue_date, truth.date],
        [plain.total, truth.amount],
      ];
      for (const [actual, expected] of checks) {
        if (expected === undefined) continue;
        total++;
        if (actual === expected) correct++;
        else console.log(`${stem}: expected ${String(expected)}, got ${String(actual)}`);
      }
    }
    console.log(`invoice number / date / total: ${correct}/${total}`);
    expect(correct / total).toBeGreaterThanOrEqual(0.95);
  });
});

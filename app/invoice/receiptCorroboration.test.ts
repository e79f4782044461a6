/**
 * Receipts written from the till's arithmetic (not copied from any document): the amount paid that the receipt's own
 * sums confirm, where OCR misread the total line or the card line.
 */
import { describe, expect, it } from 'vitest';
import { extractInvoiceFields, toPlainFields, wordsFromLayoutText } from './index.js';
import { wordsToLines } from './layout.js';
import { corroboratedPaid, paidChecks } from './receiptCorroboration.js';
import { receiptTotalAlternatives } from './receiptReading.js';

const read = (lines: string[]) => toPlainFields(extractInvoiceFields({ words: wordsFromLayoutText(lines.join('\n')) }));
const linesOf = (lines: string[]) => wordsToLines(wordsFromLayoutText(lines.join('\n')));

const header = ['CONTOH PHARMACY SDN BHD (123456-X)', 'GST ID: 001122334455', 'TAX INVOICE', 'RECEIPT #: CS00123 DATE: 29/01/2018'];

describe('the amount paid held against the receipt\'s own arithmetic', () => {
  it('a total line misread (48.20) under subtotal + tax that make the card\'s 46.20: the card paid it', () => {
    const receipt = [...header, 'PANADOL 4 3.00 12.00', 'VITAMIN C 6 3.49 20.94', 'SUB-TOTAL 44.94', 'DISC 0.00', 'GST 1.26', 'ROUNDING 0.00', 'TOTAL 48.20', 'MASTER 46.20', 'CHANGE 0.00', 'THANK YOU'];
    const fields = read(receipt);
    expect(fields.total).toBe(46.2);
    // Without the subtotal and tax there is nothing to tell which print is right: the total line stands.
    expect(read(receipt.filter((l) => !/^(SUB-TOTAL|GST)/.test(l))).total).toBe(48.2);
  });

  it('the last total line misread (3.00) where the tax summary confirms the one above it (9.00)', () => {
    const receipt = [...header, 'SOAP 2 4.50 9.00 SR', 'Total Sales (Incl GST @6%) 9.00', 'Rounding Adjustment 0.00', 'Net Total 3.00', 'GST Summary Sales Amt Tax Amt', 'SR (6%) 8.49 0.51', 'THANK YOU'];
    expect(read(receipt).total).toBe(9);
    // A summary row whose tax is not its base × rate confirms nothing.
    expect(read(receipt.map((l) => (l.startsWith('SR (6%)') ? 'SR (6%) 8.49 0.71' : l))).total).toBe(3);
  });

  it('cash − change where the only total read is the tax it includes, confirmed by that tax at its rate', () => {
    const receipt = ['Burger Contoh', 'Contoh Host Sdn Bhd (434286-P)', 'Date: 2018/03/27 23:30:45', 'Whopper 4 40.60', 'Tea 2 12.80', 'Coke 1 5.30', 'Americano 1 5.20', '(Bill Inclusive of 6% GST : RM3.62)', 'CASH RM70.00', 'Change RM6.10', 'Thank You'];
    expect(read(receipt).total).toBe(63.9);
  });

  it('a total the arithmetic confirms stands, and so does one where nothing can be checked', () => {
    const confirmed = [...header, 'SUB-TOTAL 10.00', 'GST 0.60', 'TOTAL 10.60', 'CASH 20.00', 'CHANGE 9.40'];
    expect(read(confirmed).total).toBe(10.6);
    const lines = linesOf(confirmed);
    const chosen = { value: 10.6, text: '10.60', words: [], label: 'TOTAL 10.60' };
    expect(corroboratedPaid(lines, chosen, receiptTotalAlternatives(lines), paidChecks({ lines, subtotal: 10, tax: 0.6, breakdown: [] }))).toBeNull();
    expect(corroboratedPaid(lines, chosen, receiptTotalAlternatives(lines), [])).toBeNull();
  });

  it('a weak check alone (subtotal + tax) does not overturn a printed total for another printed one, only for tendered − change', () => {
    const lines = linesOf([...header, 'Sub Total 20.00', 'GST 1.20', 'Total 21.20', 'Net Total 19.20', 'VISA 19.20']);
    const alternatives = receiptTotalAlternatives(lines);
    expect(alternatives.tillPaid).toBeNull();
    expect(alternatives.printed.map((a) => a.value)).toEqual([19.2, 21.2]);
    const checks = paidChecks({ lines, subtotal: 20, tax: 1.2, breakdown: [] });
    expect(checks.map((c) => c.strong)).toEqual([false]);
    expect(corroboratedPaid(lines, alternatives.printed[0]!, alternatives, checks)).toBeNull();
  });

  it('a total whose difference from an earlier one is printed between them stands (a saving the summary does not show)', () => {
    const receipt = [...header, 'SOAP 4 5.30 21.20 SR', 'Total 21.20', 'Member Savings 2.00', 'Net Total 19.20', 'VISA 19.20', 'GST Summary Amount Tax', 'SR 6% 20.00 1.20'];
    expect(read(receipt).total).toBe(19.2);
    // Without the saving's line the summary's 21.20 outweighs the last total line alone.
    expect(read(receipt.filter((l) => !l.startsWith('Member'))).total).toBe(21.2);
  });

  it('a subtotal the tax summary confirms, where the line read as the total is the amount before tax ("Excl." misread)', () => {
    const receipt = [...header, 'ACRYLIC YARN 10 x 13.00 130.00 SR', 'Subtotal: 130.00', 'Total Exal. of GST 122.64', 'Total Inc. of GST', 'Total Amt Rounded', 'Payment :', 'Change 0.00', 'GST Summary Amount (RM) Tax (RM)', 'SR @6% 122.64 7.36', 'THANK YOU'];
    expect(read(receipt)).toMatchObject({ total: 130 });
    // A summary whose tax is not its amount × the rate confirms nothing: the line read as the total stands.
    expect(read(receipt.map((l) => (l.startsWith('SR @6%') ? 'SR @6% 122.64 7.96' : l))).total).not.toBe(130);
    // A subtotal only the weak check (the subtotal + tax printed) would confirm is never taken for the amount paid.
    const weak = [...header, 'ACRYLIC YARN 10 x 13.00 130.00 SR', 'Subtotal: 130.00', 'GST 7.36', 'Total Exal. of GST 122.64', 'Payment :', 'Change 0.00', 'THANK YOU'];
    expect(read(weak).total).not.toBe(130);
  });

  it('reads tax summary rows by their own arithmetic, not a service charge at a rate, and a row printed twice once', () => {
    const lines = linesOf(['Subtotal: 31.70', 'Srv Chrg 10% 31.70 3.17', 'GST: 6% 34.87 2.09', 'Total 36.96', 'GST Summary Amount Tax', 'GST: 6% 34.87 2.09']);
    const strong = paidChecks({ lines, subtotal: null, tax: null, breakdown: [] }).filter((c) => c.strong);
    expect(strong).toHaveLength(1);
    expect(strong[0]!.why).toBe('tax summary 34.87 + 2.09');
    expect(strong[0]!.holds(36.96)).toBe(true);
  });
});

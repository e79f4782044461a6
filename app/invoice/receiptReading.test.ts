/**
 * Receipts written from the conventions receiptReading.ts states (not copied from any document): the merchant with
 * its legal form or registration number in the first lines, the amount paid as the total before the payment lines,
 * cash − change choosing among totals, day first where GST or ringgit say so.
 */
import { describe, expect, it } from 'vitest';
import { extractInvoiceFields, toPlainFields, wordsFromLayoutText } from './index.js';
import { wordsToLines } from './layout.js';
import { LAST_RESORT_CEILING, scoreInvoiceFields } from './fieldConfidence.js';
import { SLIP_REPAIRED_CEILING } from './ocrDateRepair.js';
import { itemsBeforeTheFoot, LARGEST_PRINTED, NO_TOTAL_LINE, receiptEvidence, receiptMerchant, receiptTotal, runTogetherDate, tillText, legalFormSpelled, timedDate, TILL_IDENTITY, SUBTOTAL_AND_CHARGES } from './receiptReading.js';

const linesOf = (lines: string[]) => wordsToLines(wordsFromLayoutText(lines.join('\n')));
const read = (lines: string[]) => toPlainFields(extractInvoiceFields({ words: wordsFromLayoutText(lines.join('\n')) }));

const tillReceipt = [
  'Welcome',
  'KEDAI RUNCIT CONTOH SDN BHD (123456-X)',
  'NO 5, JALAN CONTOH 3, TAMAN CONTOH',
  '43000 KAJANG, SELANGOR',
  'TEL: 03-1234 5678',
  'GST ID: 001122334455',
  'TAX INVOICE',
  'Receipt No: R00123      Date: 09/02/17 11:12',
  'Cashier: 01',
  'MINERAL WATER 2 x 1.20          2.40 SR',
  'BREAD                           3.50 SR',
  'Total Qty: 3',
  'Total Sales (Excluding GST)     5.57',
  'Total GST                       0.33',
  'Total Sales (Inclusive of GST)  5.90',
  'Rounding Adj                    0.00',
  'CASH                           10.00',
  'CHANGE                          4.10',
  'GST SUMMARY   Amount   Tax',
  'SR 6%   Total :  5.57   0.33',
  'Thank you, please come again',
];

describe('receipt reading', () => {
  it('tells a till receipt from an invoice by what only a sale at a till prints', () => {
    expect(receiptEvidence(linesOf(tillReceipt))).toMatchObject({ isReceipt: true });
    const invoice = ['Muster GmbH', 'Rechnung Nr. 42', 'Rechnungsdatum: 01.02.2024', 'Rechnungsempfänger: Kunde AG', 'Summe netto 100,00', 'USt 19 % 19,00', 'Gesamtbetrag 119,00', 'Zahlbar innerhalb 14 Tagen'];
    expect(receiptEvidence(linesOf(invoice)).isReceipt).toBe(false);
  });

  it('reads the merchant with its legal form, not a welcome line, its registration number or its address', () => {
    expect(receiptMerchant(linesOf(tillReceipt))?.value).toBe('KEDAI RUNCIT CONTOH SDN BHD');
    expect(receiptMerchant(linesOf(['BUKU CONTOH', 'CO. (M) SDN BHD', 'Lot 1, Jalan Satu', 'Receipt: 7', 'TOTAL 5.00']))?.value).toBe('BUKU CONTOH CO. (M) SDN BHD');
    // The line over a registration number, where no legal form is printed.
    expect(receiptMerchant(linesOf(['BAKERI CONTOH', 'Co. Reg. No: 555111-A', '12 Jalan Dua', 'Bill No 9', 'TOTAL 5.00']))?.value).toBe('BAKERI CONTOH');
    expect(receiptMerchant(linesOf(['12, JALAN DUA', 'TEL 03-1111 2222', 'TOTAL 5.00']))).toBeNull();
  });

  it('joins a one-word name and its legal form to the line over it where that line ran to the print\'s width', () => {
    const wrapped = ['KEDAI UBAT & RUNCIT CONTOH', '    MAJU SDN. BHD.', '     (123456-X)', '  LOT 1, JALAN SATU', 'Receipt: 7', 'TOTAL 5.00'];
    expect(receiptMerchant(linesOf(wrapped))?.value).toBe('KEDAI UBAT & RUNCIT CONTOH MAJU SDN. BHD.');
    // The line over it stops short of the widest: the name stands alone.
    expect(receiptMerchant(linesOf(['    KEDAI CONTOH', '  MAJU SDN. BHD. (123456-X)', '  LOT 1, JALAN SATU, TAMAN DUA', 'Receipt: 7']))?.value).toBe('MAJU SDN. BHD.');
    // Two words of name before the legal form: a whole name under a trade or brand line.
    expect(receiptMerchant(linesOf(['KEDAI UBAT & RUNCIT CONTOH', '  MAJU JAYA SDN. BHD.', '     (123456-X)', 'Receipt: 7']))?.value).toBe('MAJU JAYA SDN. BHD.');
    // A brand in display type over its company, as wide as the print: not one name.
    const words = wordsFromLayoutText(wrapped.join('\n')).map((w) => (w.box[1] === 0 ? { ...w, box: [w.box[0], w.box[1] - 12, w.box[2], w.box[3]] as typeof w.box } : w));
    expect(receiptMerchant(wordsToLines(words))?.value).toBe('MAJU SDN. BHD.');
  });

  it('reads a look-alike digit inside a merchant\'s name word as its letter', () => {
    expect(receiptMerchant(linesOf(['URBAN 1DEA SDN BHD', '(123456-X)', 'Receipt: 7', 'TOTAL 5.00']))?.value).toBe('URBAN IDEA SDN BHD');
  });

  it('the amount paid: the total including tax before the cash line, equal to cash − change; not a tax or summary total', () => {
    expect(receiptTotal(linesOf(tillReceipt))?.value).toBe(5.9);
    const r = read(tillReceipt);
    expect({ seller: r.seller, total: r.total, date: r.issue_date }).toEqual({ seller: 'KEDAI RUNCIT CONTOH SDN BHD', total: 5.9, date: '2017-02-09' });
  });

  it('a total of something else than money paid — a discount, weight, voucher, rebate, the amount without tax — is no total', () => {
    for (const other of ['Total Disc. 1.00', 'Total Taxable 10.00', 'Total Excluded Tx 10.00', 'Total Voucher 5.00', 'Total Weight 1.25', 'Total Rebate 0.50', 'Total Exclusive of GST 10.00']) {
      const lines = ['KEDAI CONTOH SDN BHD', 'Cashier: 2', 'ITEM A      10.60', 'TOTAL  10.60', other, 'CASH  20.00'];
      expect(receiptTotal(linesOf(lines))?.value, other).toBe(10.6);
    }
  });

  it('cash − change finds the amount paid where its total label is misread', () => {
    const lines = ['KEDAI CONTOH SDN BHD', 'Cashier: 2', 'ITEM A      4.00', 'ITEM B      3.00', 'T0TAI  RM  7.00', 'CASH  RM 10.00', 'CHANGE  RM 3.00'];
    expect(receiptTotal(linesOf(lines))?.value).toBe(7);
  });

  it('a tax line is not the amount paid unless the total includes the tax; an amount split after its decimal point is read whole', () => {
    const lines = ['KEDAI CONTOH SDN BHD', 'Cashier: 2', 'ITEM A      49.39', 'GST Payable:   2.80', 'Total RM Incl. of GST  49. 39', 'Rounding Adj  0.01', 'Total RM  49. 40', 'Cash  50. 00', 'CHANGE  0.60'];
    expect(receiptTotal(linesOf(lines))?.value).toBe(49.4);
    expect(read(lines).total).toBe(49.4);
  });

  it('a date whose separators OCR lost is read in the page\'s order, never from a phone number', () => {
    const lines = ['KEDAI CONTOH SDN BHD', 'TEL 87686092', 'Cashier: 2', 'Date 27032018 No: CS-202', 'TOTAL  5.00', 'CASH  5.00', 'CHANGE  0.00'];
    expect(read(lines).issue_date).toBe('2018-03-27');
    expect(runTogetherDate(linesOf(['Date 27/0618']), false)?.value).toBe('2018-06-27');
    expect(runTogetherDate(linesOf(['TEL 87686092', 'No 13572468']), false)).toBeNull();
    expect(runTogetherDate(linesOf(['Tarikh 20180428 14:22']), false)?.value).toBe('2018-04-28');
    expect(runTogetherDate(linesOf(['Tarikh 20180428 14:22']), true)?.value).toBe('2018-04-28');
    expect(runTogetherDate(linesOf(['Ref 20181399']), false)).toBeNull();
    // One separator lost and the other read as a digit, under a date label: nine digits, one real date.
    expect(runTogetherDate(linesOf(['Doc No CS001 Date 251202018']), false)).toMatchObject({ value: '2018-12-25', label: expect.stringContaining('read through OCR slips') });
    expect(runTogetherDate(linesOf(['Date: 25/1202018 8:13 PM']), false)?.value).toBe('2018-12-25');
    // The slash printed after the day: the month follows it, whatever a digit after the day would make.
    expect(runTogetherDate(linesOf(['Date: 12/0102018']), false)?.value).toBe('2018-01-12');
    expect(runTogetherDate(linesOf(['Date: 1201/02018']), false)).toBeNull();
    expect(runTogetherDate(linesOf(['Tarikh 160372018']), false)?.value).toBe('2018-03-16');
    expect(runTogetherDate(linesOf(['Date 120102018']), false)).toBeNull(); // 12/01 or 12/10: two dates, none read
    expect(runTogetherDate(linesOf(['Invoice 251202018']), false)).toBeNull(); // no date label: a number
    expect(read(['KEDAI CONTOH SDN BHD', 'Cashier: 2', 'Date 251202018', 'TOTAL  5.00', 'CASH  5.00', 'CHANGE  0.00']).issue_date).toBe('2018-12-25');
    // The till's date-time stamp with the time run together after the date.
    expect(runTogetherDate(linesOf(['Date/Time  : 20180428/191204 7120']), false)?.value).toBe('2018-04-28');
    expect(runTogetherDate(linesOf(['Ref 20180428/996699']), false)).toBeNull();
    expect(runTogetherDate(linesOf(['Item 201804281912']), false)).toBeNull();
    // On a page not recognised as a receipt, only followed by a time of day.
    expect(runTogetherDate(linesOf(['00440010036 25032018 13:11:54 0003']), false, { timed: true })?.value).toBe('2018-03-25');
    expect(runTogetherDate(linesOf(['Account 25032018 ref 7']), false, { timed: true })).toBeNull();
    expect(read(['Contoh Care Stores Sdn Bhd', 'Loyalty points 2264', '00440010036 25032018 13:11:54 0003']).issue_date).toBe('2018-03-25');
  });

  it('a GST line makes a receipt day first even where a dollar sign is printed', () => {
    const r = read(['SHOP CONTOH SDN BHD', 'GST Reg: 000111222333', 'Date: 09/02/17', 'Cashier 1', 'ITEM  $2.00', 'TOTAL  2.00', 'CASH  5.00', 'CHANGE  3.00']);
    expect(r.issue_date).toBe('2017-02-09');
  });

  it('the tendered amount above the change line decides, whatever OCR made of its label; change 0.00 pays the total exactly', () => {
    const misreadTender = ['KEDAI CONTOH SDN BHD', 'Cashier: 2', 'BREAD  8  2.40  19.20', 'fty  19.20', 'Rounding Adj  0.00', 'fue  19.20', 'Fay  20.00', 'Change  0.80'];
    expect(receiptTotal(linesOf(misreadTender))?.value).toBe(19.2);
    const exact = ['KEDAI CONTOH SDN BHD', 'Bill No: 77', 'Sub Total  :  RM  68.87', 'GST/TAX 6%  :  RM  4.13', 'TOBE  RM  73.00', 'CA.  3  RM  73.00', 'CHANGE:  RM  0.00'];
    expect(receiptTotal(linesOf(exact))?.value).toBe(73);
    expect(receiptTotal(linesOf(['SHOP CONTOH', 'Receipt C800', 'SUB-TOTAL :  13.00', 'TOTAL  13.80', 'CASH  18.80', 'CHANGE  0.00']))?.value).toBe(13.8);
    expect(receiptTotal(linesOf(['SHOP CONTOH', 'Receipt C800', 'TOTAL', 'CASH  18.80', 'CHANGE  0.00']))?.value).toBe(18.8);
    // The total printed through one slip, cash and change agreeing: its decimal point lost, or (change given) one
    // digit read as a look-alike; a total two slips away is no witness.
    expect(receiptTotal(linesOf(['SHOP CONTOH', 'Receipt C800', 'SUB-TOTAL (GST)  12.19', 'TOTAL  1215', 'CASH  50.15', 'CHANGE  38.00']))).toMatchObject({ value: 12.15, label: expect.stringContaining('decimal point lost') });
    expect(receiptTotal(linesOf(['SHOP CONTOH', 'Receipt C800', 'Total Sales  RM 230.00', 'Cash  RM 300.00', 'Change  RM 50.00']))).toMatchObject({ value: 250, label: expect.stringContaining('look-alike digit') });
    expect(receiptTotal(linesOf(['SHOP CONTOH', 'Receipt C800', 'Total Sales  RM 210.00', 'Cash  RM 300.00', 'Change  RM 50.00']))?.value).toBe(210);
    // Two total lines that print the same amount outweigh cash − change one look-alike away: the change was misread.
    expect(receiptTotal(linesOf(['SHOP CONTOH', 'Receipt C800', 'TOTAL SALES INCL GST  35.80', 'TOTAL PAYABLE  35.80', 'CASH  50.00', 'CHANGE  16.20']))?.value).toBe(35.8);
    // So do the total and its subtotal printing the same amount (no tax): the change lost a digit ("2.50" for 92.50).
    expect(receiptTotal(linesOf(['SHOP CONTOH', 'Receipt C800', 'Total Sales (Excluding GST)  1,007.50', 'Total GST  0.00', 'Total Sales (Inclusive of GST) :  1,007.50', 'CASH :  1,100.00', 'Change :  2.50']))?.value).toBe(1007.5);
    expect(tillText('§ TOT AL  26.50')).toBe('§ Total  26.50');
    expect(tillText('otal Sales (Incl GST)  RM367.10')).toBe('Total Sales (Incl GST)  367.10');
    // The last total line before the cash lost its amount: tendered − change, not the subtotal above it.
    expect(receiptTotal(linesOf(['SHOP CONTOH', 'Receipt C800', 'Sub TOTAL  64.00', 'GST 6%  3.84', 'NET TOTAL  Ni 5', 'Cash  100.00', 'CHANGE  32.15']))).toMatchObject({ value: 67.85, label: expect.stringContaining('its amount lost') });
    expect(receiptTotal(linesOf(['SHOP CONTOH', 'Receipt C800', 'Sub TOTAL', 'TOTAL  64.00', 'Cash  100.00', 'CHANGE  32.15']))?.value).toBe(64);
    // Change given but no printed amount equals tendered − change: no arithmetic makes one up, and an item's line
    // over the tender (its quantity and unit price beside its amount) is no total.
    expect(receiptTotal(linesOf(['SHOP CONTOH', 'Cashier 1', 'ITEM  1 x 5.00  5.00', 'Paid  20.00', 'Change  3.00']))).toBeNull();
  });

  it('a subtotal over a total line that lost its amount, something added or taken off between them, is not what was paid', () => {
    const total = (lines: string[]) => receiptTotal(linesOf(['SHOP CONTOH', 'Cashier 1', ...lines]));
    expect(total(['3  SUB TOTAL  21.00', 'SERVICE CHARGE  1.26', 'ROUNDING ADJ  -0.01', 'NET TOTAL  ad', 'Cash  22.25'])).toMatchObject({ value: 22.25, label: expect.stringContaining('cash, no change') });
    // Nothing between them: the subtotal is the total too (a tax-inclusive till).
    expect(total(['2  SubTotal  25.00', 'Net Total', 'Tax Summary', 'SR @6%  23.58  1.42'])?.value).toBe(25);
  });

  it('a total line ending in bare digits lost its decimal point, unless that reading is under an amount above it', () => {
    const total = (lines: string[]) => receiptTotal(linesOf(['SHOP CONTOH', 'Cashier 1', ...lines]));
    expect(total(['2  347959  2.36  4.72 SR', '1  2266  18.77  18.77 SR', 'Total Inclusive GST  2490'])).toMatchObject({ value: 24.9, label: expect.stringContaining('decimal point lost: 2490') });
    // Rounded down to the coin, under its subtotal by a coin's fraction.
    expect(total(['SUB-TOTAL (GST)  12.19', 'ROUNDING  -0.04', 'TOTAL  1215'])?.value).toBe(12.15);
    // 6.76 is less than an item above it: the cents may have been lost, or the amount above misread — none read.
    expect(total(['3  108.00  340.00 SR', '2  68.00  136.00 SR', 'Net Total:  676'])).toBeNull();
    expect(total(['Tol Amt Incl. GST @ 6%:  189.00', 'Total Amt Payable  15900'])).toBeNull();
    // Nothing printed with cents above to tell; digits after an amount cut at its point are noise.
    expect(total(['Total  2490'])).toBeNull();
    expect(total(['ITEM  1  45.00', 'NET TOTAL:  45. 130'])?.value).not.toBe(130);
    // A closing mark OCR read from the print's edge after the digits is passed over; a bracketed total likewise.
    const summary = ['Total Sales (Excluding GST) :  18.87', 'Total GST :  1.13'];
    expect(total([...summary, 'Total Sales (Inclusive of GST) :  2000)'])).toMatchObject({ value: 20, label: expect.stringContaining('decimal point lost: 2000') });
    expect(total([...summary, 'Total Sales (Inclusive of GST) :  2000|'])?.value).toBe(20);
    expect(total([...summary, 'Total Sales (Inclusive of GST) :  ( 2000)'])?.value).toBe(20);
    expect(total([...summary, 'Total Sales (Inclusive of GST) :  2000))'])?.value).not.toBe(20);
    // A repair, not a reading: low, unless cash − change gives the same amount.
    const head = ['CONTOH STATIONERY SDN BHD (123456-X)', 'GST Reg: 001122334455', 'TAX INVOICE', 'CB#: 389772  17/01/2018 8.08:53', 'Qty Description Price Total', '1  2266  18.77  18.77 SR'];
    const repaired = extractInvoiceFields({ words: wordsFromLayoutText([...head, 'Total Inclusive GST  1877', 'Thank you'].join('\n')) });
    expect(repaired.total?.value).toBe(18.77);
    expect(scoreInvoiceFields(repaired, '').total).toMatchObject({ confidence: SLIP_REPAIRED_CEILING, evidence: expect.arrayContaining(['ocr:slips-repaired']) });
    const paid = extractInvoiceFields({ words: wordsFromLayoutText([...head, 'Total Inclusive GST  1877', 'Cash  20.00', 'Change  1.23', 'Thank you'].join('\n')) });
    expect(paid.total?.value).toBe(18.77);
    expect(scoreInvoiceFields(paid, '').total?.evidence).not.toContain('ocr:slips-repaired');
  });

  it('the total\'s whole line lost: cash − change where the subtotal and the amounts under it add up to it', () => {
    const total = (lines: string[]) => receiptTotal(linesOf(['SHOP CONTOH', 'Cashier 1', '1 SET C RM49.90  49.90 SR', '3 HERBAL TEA  6.00 SR', 'Item Count 4', ...lines]));
    // 55.90 + 2.80 = 100.00 − 41.30: 58.70, printed on no line OCR read.
    expect(total(['SUBTOTAL:  55.90', 'SRVC 5%  2.80', 'CASH  100.00', 'CASH CHANGE  41.30'])).toMatchObject({ value: 58.7, label: expect.stringContaining(SUBTOTAL_AND_CHARGES) });
    // A rounding taken off counts with its sign: 55.90 + 2.80 − 0.02 = 58.68.
    expect(total(['SUBTOTAL:  55.90', 'SRVC 5%  2.80', 'Rounding  -0.02', 'CASH  100.00', 'CHANGE  41.32'])?.value).toBe(58.68);
    // The sums disagree (a charge misread, or a discount printed without its sign): the identity alone decides nothing.
    expect(total(['SUBTOTAL:  55.90', 'SRVC 5%  2.60', 'CASH  100.00', 'CASH CHANGE  41.30'])?.value).not.toBe(58.7);
    // An item's line between them: the subtotal is no sum of the sale.
    expect(total(['SUBTOTAL:  55.90', '1 MUG 2.80  2.80', 'CASH  100.00', 'CASH CHANGE  41.30'])?.value).not.toBe(58.7);
  });

  it('the payment with its decimal points lost decides where a total printed before it agrees in the same scale', () => {
    const total = (lines: string[]) => receiptTotal(linesOf(['SHOP CONTOH', 'Cashier 1', ...lines]));
    // Every point lost alike: 2000 − 800 = 1200, the total line's bare digits, over a garbled item's large amount.
    const lost = ['FCasteh  187057.75  Tackk  2  SR  12.00', 'Total Amt Payable :  1200', 'Paid Amount  2000', 'Change :  800'];
    expect(total(lost)).toMatchObject({ value: 12, label: expect.stringContaining('cash − change, decimal point lost: 1200') });
    // A total with its cents, the change's point lost: 50.00 − 37.85.
    expect(total(['ITEM A  1  12.15', 'TOTAL  12.15', 'CASH  50.00', 'CHANGE  3785'])).toMatchObject({ value: 12.15, label: expect.stringContaining('decimal point lost in the payment') });
    // Nothing printed before the payment agrees: the lost points decide nothing.
    expect(total(['FCasteh  187057.75  Tackk  2  SR  12.00', 'Total Amt Payable :  1300', 'Paid Amount  2000', 'Change :  800'])?.value).not.toBe(12);
  });

  it('a rounded total one slip from the total above plus the rounding adjustment is read through the identity', () => {
    const total = (lines: string[]) => receiptTotal(linesOf(['SHOP CONTOH', 'Cashier 1', '3pc @ 13.69  41.07', 'Great Saving  9.60', ...lines]));
    // Its "1" lost: 31.47 − 0.02 = 31.45, printed "3.45"; a look-alike digit: "37.45" (1 read as 7).
    expect(total(['Total RM Incl. of GST  31.47', 'Rounding Adj  -0.02', 'Total RM  3.45', 'Cash  31.45'])).toMatchObject({ value: 31.45, label: expect.stringContaining('read through OCR slips') });
    expect(total(['Total RM Incl. of GST  31.47', 'Rounding Adj  -0.02', 'Total RM  37.45'])?.value).toBe(31.45);
    // A repair, held low.
    const fields = extractInvoiceFields({ words: wordsFromLayoutText(['SHOP CONTOH SDN BHD', 'Cashier 1', '3pc @ 13.69  41.07', 'Total RM Incl. of GST  31.47', 'Rounding Adj  -0.02', 'Total RM  3.45'].join('\n')) });
    expect(fields.total?.value).toBe(31.45);
    expect(scoreInvoiceFields(fields, '').total?.confidence).toBeLessThanOrEqual(SLIP_REPAIRED_CEILING);
    // The printed total as read where it is the identity's, or more than one slip from it.
    expect(total(['Total RM Incl. of GST  31.47', 'Rounding Adj  -0.02', 'Total RM  31.45'])?.value).toBe(31.45);
    expect(total(['Total RM Incl. of GST  31.47', 'Rounding Adj  -0.02', 'Total RM  28.45'])?.value).toBe(28.45);
    // Another amount between them (a discount) takes part in the sum: 38.47 − 30.00 − 0.02 is the 8.45 printed, no
    // digit lost from 38.45; a payment line printing the total as read says it was read right.
    expect(total(['Total  38.47', 'Member Discount  30.00', 'Rounding Adj  -0.02', 'Net Total  8.45'])?.value).toBe(8.45);
    expect(total(['Total RM Incl. of GST  31.47', 'Rounding Adj  -0.02', 'Total RM  37.45', 'CASH  37.45'])?.value).toBe(37.45);
    // An adjustment of 0.00 ties nothing to the coin: two prints a look-alike apart, the rounded one stands; a digit
    // lost is read back all the same.
    expect(total(['Total  277.90', 'Rounding Adj  0.00', 'Total Inclusive GST:  277.00'])?.value).toBe(277);
    expect(total(['Total  277.90', 'Rounding Adj  0.00', 'Total Inclusive GST:  27.90'])?.value).toBe(277.9);
  });

  it('a total read with a minus is the amount the cash under it pays exactly', () => {
    const total = (lines: string[]) => receiptTotal(linesOf(['SHOP CONTOH', 'Cashier 1', '3  @7.00  21.00', 'SUB TOTAL  21.00', 'GST 6%  1.26', 'ROUNDING ADJ  -0.01', ...lines]));
    expect(total(['# NET TOTAL  -22.25', 'Cash', '22.25', 'Change  0.00'])?.value).toBe(22.25);
    // No cash paying it: the minus stands (the total line is no amount paid).
    expect(total(['# NET TOTAL  -22.25', 'Cash', '50.00'])?.value).not.toBe(22.25);
  });

  it('change printed with a minus or under its label, a bare cash label, a rounding adjustment in a wrapped total label', () => {
    // Change given is never negative: tendered − |change|.
    expect(receiptTotal(linesOf(['SHOP CONTOH', 'Cashier 1', 'ITEM A  1  46.25', 'Round+', 'Paid  100.00', 'Change:  -53.75']))).toMatchObject({ value: 46.25, label: expect.stringContaining('cash − change') });
    // The change's amount alone on the line under its label.
    expect(receiptTotal(linesOf(['SHOP CONTOH', 'Cashier 1', 'TOTAL', 'CASH ;  40.00', 'Change ;', '7.30']))).toMatchObject({ value: 32.7, label: expect.stringContaining('its amount lost') });
    // A bare cash label between the total and the change: its amount lost ("CASH -": 50.00 − 21.00 paid the 29.00),
    // or read onto the total's line — nothing tells, the total line's amount stands.
    expect(receiptTotal(linesOf(['SHOP CONTOH', 'Cashier 1', 'ITEM A  1  29.00', 'Total Inclusive GST:  29.00', 'CASH  -', 'Change  21.00']))?.value).toBe(29);
    // A wrapped label "Total Sales (Inclusive … of GST)" with the rounding beside its first line: 0.02 is the
    // adjustment, never the total.
    const wrapped = ['SHOP CONTOH', 'Cashier 1', 'Total Sales (Excluding GST)  31.03', 'Total GST  1.65', 'Total Sales (Inclusive  Rounding:  0.02', 'of GST)', 'CASH  40.00', 'Change  7.30'];
    expect(receiptTotal(linesOf(wrapped))?.value).toBe(32.7);
    // An item costing what cash − change gives is no witness to it: the total line's amount stands.
    expect(receiptTotal(linesOf(['SHOP CONTOH', 'Cashier 1', 'ITEM  2 x 2.50  5.03', 'Total  5.00', 'Cash', '10.03', 'CHANGE', '5.00']))?.value).toBe(5);
  });

  it('a total cut short after its decimal point is completed from the payment under it, never taken from the next line', () => {
    const fuel = ['SHELL CONTOH SDN BHD', 'Invoice number: 600', 'FuelSave 95  RM  88.17', 'Total  RH  88.1', 'Visa  RM  88.17', 'Total Gross  RM  88.17', 'Thank you'];
    expect(receiptTotal(linesOf(fuel))).toMatchObject({ value: 88.17, label: expect.stringContaining('completed from') });
    // "25. J": its amount broke off on its own line; the cash under it is another amount.
    expect(receiptTotal(linesOf(['SHOP CONTOH', 'Cashier: 1', 'Net Total  25. J', 'c  50.00']))).toBeNull();
    expect(receiptTotal(linesOf(['SHOP CONTOH', 'Cashier: 1', 'Net Total  25. J', 'c  25.00', 'Thank you']))?.value).toBe(25);
    // The change is never the total's missing decimals.
    expect(receiptTotal(linesOf(['SHOP CONTOH', 'Cashier: 1', 'Total  12.3', 'Cash  20.00', 'Change  12.35']))?.value).not.toBe(12.35);
  });

  it('two label–amount pairs side by side: the total\'s pair, not the saving beside it; a decimal point read as a space', () => {
    const foot = (total: string) => ['MART CONTOH SDN BHD', 'Cashier 1', 'TEA LEAF  1  14.00', total, 'Thank you'];
    expect(receiptTotal(linesOf(foot('Total Saving  0.00      Total  14.00')))).toMatchObject({ value: 14, words: [expect.objectContaining({ text: '14.00' })] });
    expect(receiptTotal(linesOf(foot('Total Saving  0 00      Total  14 00')))?.value).toBe(14);
    expect(receiptTotal(linesOf(['SHOP CONTOH', 'Cashier 1', 'Total  41 50', 'Thank you']))?.value).toBe(41.5);
    // The pair beside a saving that is itself a tax or a count stays no total.
    expect(receiptTotal(linesOf(['SHOP CONTOH', 'Cashier 1', 'Total Sales (Excluding GST)  5.57   Total GST  0.33', 'Thank you']))).toBeNull();
  });

  it('a total in brackets is the amount asked for, not a credit', () => {
    const lines = ['SHOP CONTOH SDN BHD', 'Document No. 18', 'TOWEL  1UNIT  13.50  0.00  13.50 SR', 'Rounding Adjustment :  0.00', 'Rounded Total (RM):  (13.50)', 'Cash  oun  1350'];
    expect(receiptTotal(linesOf(lines))?.value).toBe(13.5);
  });

  it('no total line read: the amount printed just over the tender is the amount paid, not an item, a tax or more than the tender', () => {
    const lines = ['BAKERY CONTOH', 'REG C01 04-05-2018 16:07', 'Bacon  4.90', 'Walnut Raisin  8.60', 'Dark Rye Bun  6.90', 'SUBTC:TA  20.40', 'CASH  20.40', 'THANK YOU'];
    expect(receiptTotal(linesOf(lines))).toMatchObject({ value: 20.4, label: expect.stringContaining('tendered') });
    // Its label lost, change given (and misread): the amount over the tender still is the amount to pay.
    expect(receiptTotal(linesOf(['MART CONTOH SDN BHD', 'Trans # 322563', 'Total Item Count 2', 'Ronde jal  0.00', 'fata] Alldr(Rounding  21.40', 'Cash  30.00', 'CHANGE  28.60']))?.value).toBe(21.4);
    expect(receiptTotal(linesOf(['BAKERY CONTOH', 'REG C01', 'Bacon  1  4.90  4.90', 'CASH  20.00', 'THANK YOU']))).toBeNull();
    expect(receiptTotal(linesOf(['BAKERY CONTOH', 'REG C01', 'Bread  24.90', 'CASH  20.00', 'THANK YOU']))).toBeNull();
    expect(receiptTotal(linesOf(['BAKERY CONTOH', 'REG C01', 'GST 6%  20.40', 'CASH  20.40', 'THANK YOU']))).toBeNull();
  });

  it('a total label whose amount OCR lost, over a cash line and no change: the cash is the amount paid', () => {
    const lines = ['BHPetrol Contoh Jaya', 'Lot 1, Jalan Contoh', 'Cashier: 465', 'Item  U\\Price  Qnty Amount', 'TOTAL AMOUNT', 'CASH  RM  6.00', 'Thank You. Please Come Again'];
    expect(receiptTotal(linesOf(lines))?.value).toBe(6);
    expect(receiptTotal(linesOf(['SHOP CONTOH', 'Cashier 1', 'TOTAL AMOUNT', 'CASH  RM  10.00', 'Change']))).toBeNull();
    // The amount over that total line is an item's, not the amount over the tender.
    expect(receiptTotal(linesOf(['SHOP CONTOH', 'Cashier 1', 'DIESEL  5.00', 'TOTAL AMOUNT', 'CASH  RM  6.00', 'Thank You']))?.value).toBe(6);
  });

  it('a currency glued to the amount and its misreadings, a glued or one-letter-misread total word', () => {
    expect(tillText('Total  M1.00')).toBe('Total  1.00');
    expect(tillText('Grand rotalRM15.40')).toBe('Grand Total 15.40');
    expect(tillText('MNetTotal  48.00')).toBe('MNet Total  48.00');
    // A label word glued to its amount; an item code or a unit with digits stays as printed.
    expect(tillText('Total Amt Rounded130.00')).toBe('Total Amt Rounded 130.00');
    expect(tillText('SBTOTAL28.70 SUBTOTAL')).toBe('SBTOTAL 28.70 SUBTOTAL');
    expect(tillText('A4 PAPER 80GSM  12.50')).toBe('A4 PAPER 80GSM  12.50');
    expect(receiptTotal(linesOf(['KEDAI CONTOH', 'Cashier 1', 'YARN  10  13.00  130.00', 'Total Amt Rounded130.00', 'Payment', 'Change Due  0.00']))?.value).toBe(130);
    expect(tillText('Tatal Sales (Inclusive of GST)  32.70')).toBe('Total Sales (Inclusive of GST)  32.70');
    expect(receiptTotal(linesOf(['PARKING CONTOH SDN BHD', 'Ticket No. 123', 'Parking Fee  RM0.94', 'Total  M1.00', 'Paid  M1.00', 'Change  fM0.00']))?.value).toBe(1);
  });

  it('the till\'s long labels read through a stray character or a look-alike letter, not any one edit', () => {
    expect(tillText('Changef  5.00 RM')).toBe('Change  5.00 RM');
    expect(tillText('Anount Incl. GST  5.00')).toBe('Amount Incl. GST  5.00');
    expect(tillText('Roundimg Adj  0.01')).toBe('Rounding Adj  0.01');
    expect(tillText('Service Charge  5.00')).toBe('Service Charge  5.00');
    // A change line that names the cash it is given in ("CASH CHANGE 41.30") is the change; a line printing the cash
    // tendered beside the change ("Cash 50.00 Change 10.00") is none (its amount over the change is no tender).
    expect(receiptTotal(linesOf(['KEDAI CONTOH', 'Cashier 1', 'SUBTOTAL: 55.90', 'TOTAL: 58. oo', 'CASH 100.00', 'CASH CHANGE 41.30']))?.value).toBe(58.7);
    expect(receiptTotal(linesOf(['KEDAI CONTOH', 'Cashier 1', 'SUBTOTAL (QTY 4) RM41.45', 'CASH RM51.50', 'CHANGE CASH RM10.05']))?.value).toBe(41.45);
    expect(receiptTotal(linesOf(['KEDAI CONTOH', 'Cashier 1', 'BREAD 1 3.50', 'Total', 'Cash 50.00 Change 10.00']))?.value).not.toBe(40);
    // One letter lost inside a faded label, its first and last kept: "Cange" gives the till's identity.
    expect(tillText('Cange  0.10')).toBe('Change  0.10');
    expect(tillText('hange  0.10')).toBe('hange  0.10');
    expect(receiptTotal(linesOf(['KEDAI CONTOH', 'Cashier 1', 'POT  1X  26.90', 'Total Qty: 1', 'Cash  27.00', 'Cange  0.10']))?.value).toBe(26.9);
    expect(tillText('CHANGE  3.00')).toBe('CHANGE  3.00');
    // The change line read through its slip gives the till's identity: 10.00 − 5.00 is the amount, not the "total" tendered.
    const ticket = ['PARKING CONTOH SDN BHD', 'Ticket No. 123', 'Pay parking ticket  5.00', 'Anount Incl. GST  5.00', 'Accapted total  10.00', 'Changef  5.00'];
    expect(receiptTotal(linesOf(ticket))).toMatchObject({ value: 5, label: expect.stringContaining(TILL_IDENTITY) });
  });

  it('"Due" alone names the amount to pay on a till (its "Total" lost), a due date does not', () => {
    const lines = ['CONTOH MART', 'Cashier 2', 'ITEM A  9.20', 'ITEM B  10.00', 'Rounding Adj  0.00', 'Due  19.20', 'Pay  120.00', 'Change  0.80'];
    expect(receiptTotal(linesOf(lines))?.value).toBe(19.2);
    expect(receiptTotal(linesOf(['CONTOH MART', 'Cashier 2', 'Due date  19.02.2018', 'ITEM  5.00', 'Cash  5.00']))).toBeNull();
  });

  it('the merchant: the stray half of a bracket before a wrapped legal form, lower-case noise is no legal form, else the first capitalised line', () => {
    expect(receiptMerchant(linesOf(['POPULAR CONTOH.', ')  CO.  (M) SDN BHD', '(Company No. 113825-W)', 'No 8, Jalan 7/118B', '07/01/18 14:41  Slip No.: 70']))?.value).toBe('POPULAR CONTOH. CO. (M) SDN BHD');
    expect(receiptMerchant(linesOf(['MBB ag 100', '4', 'KEDAI PAPAN CONTOH', '(0005583085-K)', 'LOT 276 JALAN CONTOH', 'Date 17/03/2018']))?.value).toBe('KEDAI PAPAN CONTOH');
    expect(receiptMerchant(linesOf(['J Rms', '}', 'BHPetrol Contoh Jaya 2', 'LOT PTD 101051', 'Jalan Contoh 10/10', '10-04-2018 08:11:53']))?.value).toBe('BHPetrol Contoh Jaya 2');
    expect(receiptMerchant(linesOf(['tan chay yee', 'Jalan Contoh 10/10', '10-04-2018 08:11:53']))).toBeNull();
  });

  it('the merchant\'s name wrapped over two lines joined, a country line over the registration number is no name', () => {
    const head = (lines: string[]) => receiptMerchant(linesOf([...lines, 'Cashier: 1', '12/03/2018 10:01']))?.value;
    expect(head(['THE CONTOH BEAN', '& TEA LEAF (M) SDN. BHD.', 'Company No. :441970-H', 'Lot 1, Jalan Contoh'])).toBe('THE CONTOH BEAN &TEA LEAF (M) SDN. BHD.');
    expect(head(['PASAR RAYA CONTOH MAJU', '(SEMENYIH) SDN BHD', '(767840-W)', 'NO 24, JALAN CONTOH'])).toBe('PASAR RAYA CONTOH MAJU (SEMENYIH) SDN BHD');
    expect(head(['LIAN CHI CONTOH VEGETARIAN', 'RESTAURANT SDN BHD', '(123456-X)', 'NO 3, JALAN CONTOH'])).toBe('LIAN CHI CONTOH VEGETARIAN RESTAURANT SDN BHD');
    expect(head(['CONTOH BAKERY &', 'CAFE SDN BHD', 'GST ID: 000123456789'])).toBe('CONTOH BAKERY & CAFE SDN BHD');
    // A line above with a name of its own stays apart; so does noise with a bracket left open in it.
    expect(head(['SIZZLING CONTOH', 'Dimiliki Oleh : Contoh Holdings Sdn Bhd', 'GST ID: 000123456789'])).toBe('Dimiliki Oleh : Contoh Holdings Sdn Bhd');
    expect(head(['Tovet Rel( » Coffeo', 'TF Contoh-Mart Sdn Bhd', 'GST ID: 000123456789'])).toBe('TF Contoh-Mart Sdn Bhd');
    expect(head(['GL CONTOH & TAILORING', '19, JALAN CONTOH,', '55100 KUALA LUMPUR', 'MALAYSIA', 'Company Reg No. :75495-W'])).toBe('GL CONTOH & TAILORING');
    // A registration glued to the legal form or labelled on the name's line is cut; "CO. REG" is no legal form.
    expect(head(['CONTOH RETAIL SB(306295-X) FKA CONTOH STORES SB', 'Lot 1, Jalan Contoh'])).toBe('CONTOH RETAIL SB');
    expect(head(['Contoh Fuel Enterprise CO. REG. NO: 00015335-T', 'Lot 1, Jalan Contoh'])).toBe('Contoh Fuel Enterprise');
    // A first line of a stamp's digits does not end the header at "Tax INVOICE"; the letterhead's trading line and
    // the registered name under an address: the registered name, its registration line no part of it.
    expect(head(['406 140', 'Tax INVOICE', 'Contoh Fuel Enterprise', 'CO. REG. NO: 00015335-T'])).toBe('Contoh Fuel Enterprise');
    // A till's section line is no name.
    expect(receiptMerchant(linesOf(['Cashier [P.CONTOH]', 'Lot 1, Jalan Contoh', '12/03/2018 10:01']))).toBeNull();
  });

  it('the merchant without the bracketed registration after it, its legal form spelled as the vocabulary has it', () => {
    expect(receiptMerchant(linesOf(['Contoh Realties Sdn Bhd (Co, N0:20154-T)', '(GST Registration No : 000850247680)', 'Level 2, 27, Jalan Contoh', '30/05/18 11:01']))?.value).toBe('Contoh Realties Sdn Bhd');
    expect(legalFormSpelled('AMANO CONTOH SON BHD')).toBe('AMANO CONTOH SDN BHD');
    expect(legalFormSpelled('10 GRAM Contoh Shn Bhd')).toBe('10 GRAM Contoh Sdn Bhd');
    expect(legalFormSpelled("KING'S CONTOH §/B")).toBe("KING'S CONTOH S/B");
    expect(legalFormSpelled('SUN BHD TRADING')).toBe('SDN BHD TRADING');
    expect(legalFormSpelled('SONIC BHD')).toBe('SONIC BHD');
    expect(legalFormSpelled('SUPER CONTOH CASH & CARRY SDN 3HD')).toBe('SUPER CONTOH CASH & CARRY SDN BHD');
    expect(legalFormSpelled('CONTOH HARDWARE SIN BHI')).toBe('CONTOH HARDWARE SDN BHD');
    // BHD's own letters through OCR's confusions (B/R/8, H/N, D/O/0), only after an Sdn.
    expect(legalFormSpelled('Contoh Cash & Carry Sdn.Rhd')).toBe('Contoh Cash & Carry Sdn.Bhd');
    expect(legalFormSpelled('KEDAI CONTOH SON 8HD')).toBe('KEDAI CONTOH SDN BHD');
    expect(legalFormSpelled('KEDAI CONTOH SDN BNO')).toBe('KEDAI CONTOH SDN BHD');
    expect(legalFormSpelled('KEDAI CONTOH SON EHD')).toBe('KEDAI CONTOH SDN BHD');
    expect(legalFormSpelled('RHD CONTOH TRADING')).toBe('RHD CONTOH TRADING');
    // An Sdn at the name's end with one or two marks after it: its Bhd faded.
    expect(legalFormSpelled('CONTOH SEAFOOD RESTAURANT SDN i.')).toBe('CONTOH SEAFOOD RESTAURANT SDN BHD');
    expect(legalFormSpelled('Contoh Sdn B')).toBe('Contoh Sdn Bhd');
    // "(M)" before the legal form read as the registered-mark sign; a brand's sign elsewhere stays.
    expect(legalFormSpelled('CONTOH ( ® ) SDN. BHD.')).toBe('CONTOH (M) SDN. BHD.');
    expect(legalFormSpelled('CONTOH ® BHD')).toBe('CONTOH (M) BHD');
    expect(legalFormSpelled('CONTOH® CAFE')).toBe('CONTOH® CAFE');
    // Its M read as a digit or a bar, the closing bracket perhaps lost; a registration in brackets stays.
    expect(legalFormSpelled('Contoh Advertising (7) Sdn Bhd')).toBe('Contoh Advertising (M) Sdn Bhd');
    expect(legalFormSpelled('Contoh Advertising (1 Sdn Bhd')).toBe('Contoh Advertising (M) Sdn Bhd');
    expect(legalFormSpelled('Contoh Advertising (| SDN BHD')).toBe('Contoh Advertising (M) SDN BHD');
    expect(legalFormSpelled('CONTOH (M SDN BHD')).toBe('CONTOH (M) SDN BHD');
    expect(legalFormSpelled('CONTOH (1234-X) SDN BHD')).toBe('CONTOH (1234-X) SDN BHD');
    expect(legalFormSpelled('CONTOH 2 (KL) SDN BHD')).toBe('CONTOH 2 (KL) SDN BHD');
    expect(legalFormSpelled('CONTOH SDN 12 JALAN')).toBe('CONTOH SDN 12 JALAN');
    // An Sdn ending the name lost its Bhd to OCR altogether.
    expect(legalFormSpelled('CONTOH PERMAS CITY SDN')).toBe('CONTOH PERMAS CITY SDN BHD');
    expect(legalFormSpelled('Contoh Sdn.')).toBe('Contoh Sdn. Bhd');
    // A slash spaced off ("S/ B"), and an Sdn's Bhd read as another short word from B at the name's end ("Bil.").
    expect(legalFormSpelled('Contoh Asian Food S/ B')).toBe('Contoh Asian Food S/B');
    expect(legalFormSpelled('Buy Contoh Trade Sdn. Bil.')).toBe('Buy Contoh Trade Sdn. Bhd');
    expect(legalFormSpelled('Buy Contoh Trade Sdn. Bhul.')).toBe('Buy Contoh Trade Sdn. Bhd');
    expect(legalFormSpelled('Buy Contoh Trade Sdn. Ei.')).toBe('Buy Contoh Trade Sdn. Bhd');
    expect(legalFormSpelled('CONTOH SDN ENAK')).toBe('CONTOH SDN ENAK');
    // S/B ending the name, its B read as a digit; a slashed number elsewhere stays.
    expect(legalFormSpelled('99 CONTOH MART 5/8')).toBe('99 CONTOH MART S/B');
    expect(legalFormSpelled('CONTOH CASH & CARRY (FC) $/3')).toBe('CONTOH CASH & CARRY (FC) S/B');
    expect(legalFormSpelled('CONTOH S/8 (306295-X)')).toBe('CONTOH S/B (306295-X)');
    expect(legalFormSpelled('JALAN SS 5/8 CONTOH')).toBe('JALAN SS 5/8 CONTOH');
    // A legal form's letter read as a digit makes no address of a name with a place in it.
    expect(receiptMerchant(linesOf(['CONTOH BOOK (TAMAN DAYA) SDN 8HD', '79117-W', 'NO. 5, JALAN SAGU 16', '12/03/2018 10:00']))?.value).toBe('CONTOH BOOK (TAMAN DAYA) SDN BHD');
    // An address line that ends with the comma the letterhead's address lines end with is no name, whatever OCR made
    // of its street ("OFF JALAN PUDU," read "OFF JALAN PLC,": a legal form).
    expect(receiptMerchant(linesOf(['CONTOH KRAFT & TAILORING', '13, JALAN CONTOH,', 'OFF JALAN PLC,', '55100 KUALA LUMPUR', 'Company Reg No. :75495-W', 'Date : 27/03/2018']))?.value).toBe('CONTOH KRAFT & TAILORING');
    expect(legalFormSpelled('CONTOH SDN. BHD.')).toBe('CONTOH SDN. BHD.');
    expect(legalFormSpelled('CONTOH SDN BERAS')).toBe('CONTOH SDN BERAS');
    // CO.'s O read as a zero before the rest of the legal form, also where it starts the name's second line.
    expect(legalFormSpelled('CONTOH BOOK C0. (M) SDN BHD')).toBe('CONTOH BOOK CO. (M) SDN BHD');
    expect(legalFormSpelled('CONTOH C0 2')).toBe('CONTOH C0 2');
    expect(receiptMerchant(linesOf(['CONTOH BOOK', 'C0.  (M) SDN BHD', '(Co.  No.  113825-W)', 'No 8, Jalan 7/118B', 'Cashier: 1']))?.value).toBe('CONTOH BOOK CO. (M) SDN BHD');
    // A legal form read through such a slip still marks the merchant's line.
    expect(receiptMerchant(linesOf(['Contoh i Cash  Carry Sdn.Rhd', '(317041-0)', 'PT17920, SEKSYEN U9,', 'Invoice No 45691']))?.value).toBe('Contoh i Cash Carry Sdn.Bhd');
  });

  it('the ringgit\'s symbol before an amount or over a column names the currency (MYR); a word ending in RM does not', () => {
    expect(read(['CONTOH MART SDN BHD (123456-X)', 'Date: 12/03/2018 20:11', 'Item Qty Amount (RM)', 'BREAD 1 3.50', 'Total RM 3.50', 'Cash RM10.00', 'Change RM6.50']).currency).toBe('MYR');
    expect(read(['CONTOH FARM TRADING', 'Date: 12/03/2018 20:11', 'FORM 2 3.50', 'Total 3.50']).currency).toBeNull();
  });

  it('a receipt whose total no line names takes its largest amount, low, rounded to the coin where it rounds; an invoice does not', () => {
    const head = ['CONTOH STATIONERY SDN BHD (123456-X)', 'GST Reg: 001122334455', 'TAX INVOICE', 'CB#: 389772  17/01/2018 8.08:53', 'Qty Description Price Total'];
    // The total's amount lost to OCR under a single item: the item is the largest amount, and the total.
    const lost = extractInvoiceFields({ words: wordsFromLayoutText([...head, 'CANON PG-47BK BLACK INK SR', '29.00', '3', 'Rounding Adj', 'Total Inclusive GST:', 'Thank you & please come again.'].join('\n')) });
    expect(lost.total).toMatchObject({ value: 29, label: LARGEST_PRINTED });
    const scores = scoreInvoiceFields(lost, '');
    expect(scores.total?.confidence).toBeLessThanOrEqual(LAST_RESORT_CEILING);
    expect(scores.total?.evidence).toContain('guess:largest-amount');
    // Not a multiple of the coin where the receipt rounds: rounded, as the till's own total would be.
    expect(read([...head, 'SUBTOTAL (QTY 4) 41.43', 'ROUNDING 0.02', 'Thank you']).total).toBe(41.45);
    // No total line, but cash tendered under its label and change: cash − change before the largest amount (the
    // cash), as low; an amount over the change under no cash label may be the subtotal, and the largest stands.
    const tendered = extractInvoiceFields({ words: wordsFromLayoutText([...head, 'PEN 1 3.50', 'BOOK 1 36.50', 'Received Cash  RM50.00', 'Change  RM10.00', 'Thank you'].join('\n')) });
    expect(tendered.total).toMatchObject({ value: 40, label: expect.stringContaining(NO_TOTAL_LINE) });
    expect(scoreInvoiceFields(tendered, '').total).toMatchObject({ confidence: LAST_RESORT_CEILING, evidence: expect.arrayContaining(['guess:cash-minus-change']) });
    expect(read([...head, 'PEN 1 13.50', 'SUBTOTAL  15.15', 'CHANGE DUE  0.05', 'Thank you']).total).toBe(15.15);
    // No total line and no payment read, but a tax summary whose tax is its amount × its rate: its amount + tax
    // before the largest amount (its own amount), as low; not where a part of the sale prints more than that sum
    // (a row misread: "4.66" for 4.86 under a subtotal of 5.15).
    const till = ['CONTOH MART SDN BHD (123456-X)', 'GST Reg: 001122334455', 'TAX INVOICE', 'Date: 22/03/18 10:18'];
    const summed = extractInvoiceFields({ words: wordsFromLayoutText([...till, 'ICE COOL 1 0.95 S', 'SUBTOTAL 515', 'CHANGE DUE 0.05', 'GST RATE AMT(RM) TAX(RM)', 'S 6% 4.86 0.29', 'Thank you'].join('\n')) });
    expect(summed.total).toMatchObject({ value: 5.15, label: expect.stringContaining('tax summary 4.86 + 0.29') });
    expect(scoreInvoiceFields(summed, '').total?.evidence).toContain('guess:tax-summary');
    expect(scoreInvoiceFields(summed, '').total?.confidence).toBeLessThanOrEqual(LAST_RESORT_CEILING);
    expect(read([...till, 'ICE COOL 1 0.95 S', 'SUBTOTAL 5.15', 'CHANGE DUE 0.05', 'GST RATE AMT(RM) TAX(RM)', 'S 6% 4.66 0.29', 'Thank you']).total).toBe(5.15);
    // A total line read: the largest amount is no rival to it (the cash tendered).
    expect(read([...head, 'PEN 1 3.50', 'Total 3.50', 'Cash 50.00']).total).toBe(3.5);
    // The change given back may exceed the sale: never the largest amount (the tender OCR garbled, so no identity).
    expect(read([...head, 'PEN 1 3.50', 'BOOK 1 25.20', 'SUBTOTAL  28.70', 'RM CASH  100.006', 'CHANGE  71.30', 'Thank you']).total).toBe(28.7);
    // With no change printed the tender paid it exactly: an amount over it is a misread, not what was paid.
    expect(read([...head, '1 MAJESTA HSS  2774.00  8.00 SR', 'Cash Received  8.00', 'Thank you']).total).toBe(8);
    // A tender under the smallest coin is its digits lost, no bound.
    expect(read([...head, 'PEN 1 3.50', 'BOOK 1 25.20', 'Cash Received  0.00', 'Thank you']).total).toBe(25.2);
    // Where change is printed, the tender bounds nothing (it may be the garbled amount): the largest stands.
    expect(read([...head, 'PEN 1 3.50', 'BOOK 1 25.20', 'SUBTOTAL  28.70', 'RM CASH  j00.50', 'CHANGE  71.30', 'Thank you']).total).toBe(28.7);
    // An invoice without a total stays without one.
    expect(read(['Contoh GmbH', 'Rechnung Nr. 42', 'Datum: 12.03.2018', 'Beratung 2 Std. 240,00', 'Reisekosten 35,00']).total).toBeNull();
  });

  it('a currency sign or code weighs by what stands beside it: a scan\'s stray sign, a product named like a code, a fuel grade name none', () => {
    const receipt = (extra: string[]) => read(['CONTOH MART SDN BHD (123456-X)', 'Date: 12/03/2018 20:11', ...extra, 'Total 3.50', 'Cash 10.00', 'Change 6.50']);
    // OCR's noise: a sign among other marks, in a phone number, alone in a line of noise.
    expect(receipt(['*¥* ¥% $0gzm', 'Tel: $4004290047', 'BREAD 1 3.50']).currency).toBeNull();
    expect(receipt(['EERE XEX ¥ LX KKK', 'BREAD 1 3.50']).currency).toBeNull();
    // The ringgit over the column outweighs a stray sign; so does one ringgit by a label whose amount is on the next line.
    expect(receipt(['Qty Item Amount(RM)', 'BREAD 1 3.50', '£ i']).currency).toBe('MYR');
    expect(receipt(['Parking fee RM', '3.50', 'Tel $0']).currency).toBe('MYR');
    // A code inside an item's name, a fuel grade glued to its number: no currency.
    expect(receipt(['TAU SAR PNEAH 1 3.50', 'RON95 1 3.50']).currency).toBeNull();
    // A code or sign by an amount, or a label's value, is the currency.
    expect(receipt(['BREAD 1 USD 3.50']).currency).toBe('USD');
    expect(receipt(['Currency: SGD', 'BREAD 1 3.50']).currency).toBe('SGD');
    expect(receipt(['BREAD 1 €3.50']).currency).toBe('EUR');
  });

  it('the total before the cash rounding ("Bef. Rounding") is the amount paid where no total line is read, rounded to the coin; "before discount" is not', () => {
    const head = ['CONTOH MOOKATA SDN BHD (123456-X)', 'GST ID: 001122334455', 'Date: 12/03/2018 20:11', 'QTY ITEM PRICE TOTAL', '1x Set 48.00 48.00', '1x Tea 5.00 5.00'];
    expect(read([...head, 'Bef. Rounding 53.00', 'Change 0.00', 'Thank You']).total).toBe(53);
    expect(read([...head, 'Bef. Rounding 53.02', 'Rounding Adj -0.02', 'VISA 53.00']).total).toBe(53);
    expect(read([...head, 'Sub Total Before Discount 60.00', 'Discount 7.00', 'Total 53.00', 'VISA 53.00']).total).toBe(53);
  });

  it('a till\'s foot is no item where OCR lost the items\' own amounts ("Gross Amt", "GST (6%)", "Change", "Round Adj")', () => {
    const fields = read([
      'CONTOH HARDWARE SDN BHD (123456-X)', 'GST ID No : 000784498688', 'Date :28/07/17 9:48:42 AM', 'Item  Qty  Price  Amount',
      'PTFE THREAD SEAL TAPE @0.94', 'ST00353  3  1.00  300  SR', 'GAS REFILL 50ML @12.17', '95552586  2  12.90  2580  SR',
      'Gross Amt ;  27.17', 'GST (6%):  1.63', 'Net Amt:  28.80', 'Received  30.00', 'Change :  1.20', 'Round Adij :  0.00',
    ]);
    expect(fields.total).toBe(28.8);
    expect(fields.lines.map((l) => l.description).filter((d) => /Gross|GST|Received|Change|Round/.test(d))).toEqual([]);
    expect(itemsBeforeTheFoot([{ description: 'CASHEW NUTS' }, { description: 'TOTALLY FRESH MILK' }, { description: 'Change :' }, { description: 'BREAD' }]).map((i) => i.description)).toEqual(['CASHEW NUTS', 'TOTALLY FRESH MILK']);
  });

  it('a bracket inside the name ("( M )") is the name\'s own; the registration\'s bracket after it is not', () => {
    const lines = ['HOME CONTOH @ 1 CONTOH SHOPPING CENTRE', 'MONCONTOH ( M ) SDN. BHD. ( 121889-4 )', '{ GST REG. NO. 000992739328 )', 'Lot S319A, 2nd Floor,'];
    expect(receiptMerchant(linesOf(lines))?.value).toBe('MONCONTOH ( M ) SDN. BHD.');
  });

  it('a logo OCR read as noise took the name\'s BHD onto its line: the name under it, its Sdn given its Bhd back, over its registration', () => {
    const lines = linesOf(['Ros>7 BHD', 'CONTOH PERMAS CITY SDN', 'Reg No: 1203194-W', 'JALAN PERMAS UTARA 1,', 'Cashier: 1']);
    lines[0]!.words[0]!.confidence = 0;
    expect(receiptMerchant(lines)?.value).toBe('CONTOH PERMAS CITY SDN BHD');
  });

  it('the merchant\'s name over its registration number joined from its lines; capitals over a name with its legal form stay apart', () => {
    const head = (lines: string[]) => receiptMerchant(linesOf([...lines, 'Cashier: 1', '12/03/2018 10:01']))?.value;
    // Down from the chosen line to the registration, and up where the name has no legal form.
    expect(head(['RESTAURANT CONTOH', 'CONTOH HOUSE', '002693074-K', '13, JLN CONTOH UTAMA 8'])).toBe('RESTAURANT CONTOH CONTOH HOUSE');
    expect(head(['AOS HZ', '14', 'THE CONTOH POLO KITCH', 'BUKIT CONTOH', 'GST Reg No: 001403346944', 'Tax Invoice'])).toBe('THE CONTOH POLO KITCH BUKIT CONTOH');
    // A name that ends with its legal form ends there: the line under it is its branch.
    expect(head(['KEDAI CONTOH SDN BHD', 'CAWANGAN SETIA', '(123456-X)', 'Tax Invoice'])).toBe('KEDAI CONTOH SDN BHD');
    // An address line between the name and its tax number starts the address.
    expect(head(['KEDAI CONTOH MAJU', 'TAMAN CONTOH', 'GST ID: 000123456789', 'Tax Invoice'])).toBe('KEDAI CONTOH MAJU');
    // A brand or trade name over the registered name is no part of it.
    expect(head(['KIKU CONTOH RESTAURANT', 'TK CONTOH KITCHEN SDN BHD', '(123456-X)', 'NO 3, JALAN CONTOH'])).toBe('TK CONTOH KITCHEN SDN BHD');
    // Three lines: a line that starts with its legal form or closes the bracket the line above opened continues the
    // name; a bare number closed by a bracket under it is its registration.
    expect(head(['CONTOH HUAT HARDWARE', 'ENTERPRISE (SETIA', 'ALAM) SON EHD', '820737),', 'NO. 17-G, JALAN CONTOH'])).toBe('CONTOH HUAT HARDWARE ENTERPRISE (SETIA ALAM) SDN BHD');
    // A mark standing alone after the name is the frame's.
    expect(head(['RESTAURANT CONTOH |', 'Lot 1, Jalan Contoh'])).toBe('RESTAURANT CONTOH');
  });

  it('the merchant: a trade line marks the name over it, a greeting or "TQ" slogan is no name', () => {
    const head = (lines: string[]) => receiptMerchant(linesOf([...lines, 'Cashier: 1', '12/03/2018 10:01']))?.value;
    expect(head(['THREE CONTOH', 'BISTRO & CAFE', '109, 5521/14,', 'DAMANSARA CONTOH', 'GST ID : 001661886464'])).toBe('THREE CONTOH');
    expect(head(['TQ FOR SHOPPING WITH myCONTOH', 'OASIS CONTOH', 'LOUNGE 2, GROUND FLOOR, NO 2', '47301,PETALING JAYA', 'CONTOH RETAIL SB(306295-X) FKA CONTOH STORES SB'])).toBe('CONTOH RETAIL SB');
    // The slogan's space lost to OCR, the registration's bracket read as a curly one, and "S/B" read as "$8": no price
    // ends the header there.
    expect(head(['TQFOR SHOPPING WITH myCONTOH', 'OASIS CONTOH', 'LOUNGE 2, GROUND FLOOR, NO 2', '47301,PETALING JAYA', 'CONTOH RETAIL SB{306295-X FKA CONTOH STORES $8'])).toBe('CONTOH RETAIL SB');
    expect(head(['TQFOR SHOPPING WITH CONTOH', 'OASIS CONTOH', 'LOUNGE 2, GROUND FLOOR, NO 2', '47301,PETALING JAYA'])).toBe('OASIS CONTOH');
    expect(head(['TQUFOR SHOPPING WITH CONTOH', 'OASIS CONTOH', 'LOUNGE 2, GROUND FLOOR, NO 2', '47301,PETALING JAYA'])).toBe('OASIS CONTOH');
    expect(head(['WELCOME', 'KEDAI CONTOH', 'Lot 1, Jalan Contoh'])).toBe('KEDAI CONTOH');
  });

  it('the merchant under the previous receipt\'s tail: the first capitals line over its registration number; a registration\'s own label is no name', () => {
    const roll = ['= 0K  8 00  or  ae', 'THANK YOU AND DO VISIT US AGAIN.', 'Cashier [P.CONTOH]  Machine [003]', '[19/06/17] [11:37]', 'lg y 4 BL', 'FIVE  CONTOH CASH & CARRY', '(1365663-P)', '6.23 & 0.22, Plaza Contoh,'];
    expect(receiptMerchant(linesOf(roll))?.value).toBe('FIVE CONTOH CASH & CARRY');
    // A registration's own label is no name.
    expect(receiptMerchant(linesOf(['1 CONTOH & TAIL CRING', '19, JALAN CONTOH,', 'MALAYSIA', 'Company Reg No. 7540540', 'TAX INVOICE']))?.value).toBe('1 CONTOH & TAIL CRING');
  });

  it('the merchant: not the tail of the previous receipt on the roll (its thank-you and returns lines)', () => {
    const roll = ['Thank You, Please come again.', 'Goods Sold Are Not Returnable.', 'For Feedback Please Call:', 'To  011-3194 0284', 'Contoh Kitchen Corner', 'Jalan Satu 12', 'TOTAL 5.00'];
    expect(receiptMerchant(linesOf(roll))?.value).toBe('Contoh Kitchen Corner');
    expect(receiptMerchant(linesOf(['Goods Sold Are Not Refundable', 'Thank You Come Again', 'Jalan Satu 12', 'TOTAL 5.00']))).toBeNull();
    // Its thank-you with the first letter lost to a faded edge.
    expect(receiptMerchant(linesOf(['... .HANK YOU AND DO VISIT US AGAIN. x ev', 'Cashier [P.CONTOH]', '[19/06/17] [11:37]', 'CONTOH STAR CASH & CARRY', '(1365663-P)', 'TOTAL 5.00']))?.value).toBe('CONTOH STAR CASH & CARRY');
  });

  it('unlabelled, the date printed with the time of the sale, not a counter number that reads as a date', () => {
    const lines = ['CONTOH CAKE HOUSE SDN BHD', 'Table 5  Counter 8/08/04-1016866', 'Total (Incl GST)  RM21.85', 'Cash  RM50.00', 'Change  RM28.15', '04/06/2018 18:17:54'];
    expect(timedDate(linesOf(lines), false)?.value).toBe('2018-06-04');
    expect(read(lines).issue_date).toBe('2018-06-04');
    expect(read(['CONTOH SDN BHD', 'Date: 09/02/2017', 'Cashier 1', 'TOTAL  2.00', 'CASH  5.00', 'CHANGE  3.00', '10/02/2017 11:12']).issue_date).toBe('2017-02-09');
  });

  it('a shop\'s loyalty points printed under the sale count as till evidence (its cash and change lines faded)', () => {
    expect(receiptEvidence(linesOf(['CONTOH PERSONAL CARE SDN BHD', 'SUBTOTAL  41.43', 'Loyalty acc.number 99260', 'Opening Balance 2264', 'Earned Points 43'])).signals).toEqual(['loyalty']);
    expect(receiptEvidence(linesOf(['CONTOH CONSULTING GMBH', 'Invoice No. 12', 'Delivery point: Dock 4', 'Points of contact: see below'])).signals).toEqual([]);
  });

  it('a faded thank-you line still counts as till evidence', () => {
    expect(receiptEvidence(linesOf(['RELAIS CONTOH', 'le 30/03/2018 a 12:36 CAISSIER 1', 'REGLE PAR ESPECE 56.00 DH'])).signals).toEqual(['tendered', 'till']);
    expect(receiptEvidence(linesOf(['CONTOH PARKING SDN BHD', 'Ticket No. 0X332', 'Thark You'])).signals).toEqual(['receiptNumber', 'thanks']);
    expect(receiptEvidence(linesOf(['CONTOH SDN BHD', 'Invoice No. 12', 'Thank yau'])).signals).toEqual(['thanks']);
  });

  it('a page not recognised as a receipt whose invoice readers find no total: the till\'s total line as a last resort', () => {
    const page = ['CONTOH CHICKEN SDN BHD', 'Unit G-13, Ground Floor', 'Sub Total  129.30', 'Amt Due  129.30', 'GSTSummary  Amount(RM)  GST(RM)'];
    expect(receiptEvidence(linesOf(page)).isReceipt).toBe(false);
    expect(read(page).total).toBe(129.3);
  });

  it('a tax summary\'s total row ending on the tax column is not the amount paid; its row of net, tax and gross may be', () => {
    const head = ['CONTOH KOPI', 'Receipt# CS001', 'COFFEE  1  2.30  2.30'];
    expect(receiptTotal(linesOf([...head, 'Sub Total  10.94', 'Total GST  0.66', 'Total  11.60', 'GST SUMMARY', 'Tax Code  %  Amount  GST', 'SR  6  10.94  0.66', 'Total :  10.94  0.66', 'THANK YOU']))?.value).toBe(11.6);
    expect(receiptTotal(linesOf([...head, 'Total Inclusive GST:', 'GST Summary', 'Code % Net Amt  GST  Total', 'SR 6%  9.85  0.59  10.44', 'Total  9.85  0.59  10.44']))?.value).toBe(10.44);
  });

  it('a rounding adjustment makes the amount paid a multiple of the smallest coin', () => {
    const receipt = (rounding: string) => ['CONTOH CAFE SDN BHD', 'Cashier A', 'TRA DA  1.50  SR', 'Total (Inclusive of GST):  23.26', rounding, 'Thank you'];
    expect(receiptTotal(linesOf(receipt('Rounding  -0.01')))?.value).toBe(23.25);
    expect(receiptTotal(linesOf(receipt('Rounding Adj')))?.value).toBe(23.25);
    expect(receiptTotal(linesOf(receipt('Rounding Adj  0.00')))?.value).toBe(23.26);
    // The adjustment's minus sign lost to OCR: only −0.01 brings 23.26 onto the coin; +0.04 stays +.
    expect(receiptTotal(linesOf(receipt('Rounding Adj:  0.01')))).toMatchObject({ value: 23.25, label: expect.stringContaining('its sign lost') });
    expect(receiptTotal(linesOf(receipt('Rounding Adj:  0.04')))?.value).toBe(23.3);
    expect(receiptTotal(linesOf(['CONTOH CAFE', 'Cashier A', 'Total  23.26', 'Thank you']))?.value).toBe(23.26);
    // The rounding line before a tax summary's total (the amount before rounding), its own amount lost: rounded too.
    expect(receiptTotal(linesOf(['CONTOH CAFE', 'Cashier A', 'Rounding Adj', 'Total Inclusive GST:', 'GST Summary', 'Total  9.85  0.59  10.44', 'Thank you']))?.value).toBe(10.45);
    // A total the invoice readers found after the payment lines, on a receipt with a rounding line: rounded as well.
    expect(read(['CONTOH CAFE SDN BHD', 'Cashier A', 'Receipt No 12', 'Rounding Adj', 'Cash', 'Change  9.55', 'Total  10.44']).total).toBe(10.45);
    expect(read(['CONTOH CAFE SDN BHD', 'Cashier A', 'Receipt No 12', 'Cash', 'Change  9.55', 'Total  10.44']).total).toBe(10.44);
  });

  it('a receipt names its buyer only under a label', () => {
    // A second address block (the branch the till stands in) is what an invoice's window would be: not a buyer here.
    const branch = ['KEDAI BUKU CONTOH SDN BHD', '(Co. No. 113825-W)', 'No 8, Jalan Contoh 7/118B', '56000 Kuala Lumpur', '', '', 'CONTOH MALL BRANCH', 'Lot 2-15, Jalan Pasar', '55100 Kuala Lumpur', '', 'Slip No: 7010385084  Date: 07/01/18 14:41', 'Cashier: 3', 'PEN BLUE  2  3.50', 'Total  7.00', 'Cash  10.00', 'Change  3.00'];
    expect(read(branch).buyer).toBeNull();
    expect(read(tillReceipt).buyer).toBeNull();
    const labelled = [...tillReceipt.slice(0, 8), 'Customer: ACME TRADING SDN BHD', ...tillReceipt.slice(8)];
    expect(read(labelled).buyer).toContain('ACME TRADING');
  });
});

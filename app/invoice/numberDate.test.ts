import { describe, expect, it } from 'vitest';
import { extractInvoiceFields, toPlainFields, wordsFromLayoutText } from './index.js';
import { wordsToLines } from './layout.js';
import { LAST_RESORT_CEILING, scoreInvoiceFields } from './fieldConfidence.js';
import { DATE_IN_NUMBER, dateInDocumentNumber } from './numberDate.js';

const linesOf = (lines: string[]) => wordsToLines(wordsFromLayoutText(lines.join('\n')));

describe('dateInDocumentNumber: the day a till wrote into a receipt number', () => {
  it('reads a year, month and day inside a receipt or shift number of nine digits or more', () => {
    expect(dateInDocumentNumber(linesOf(['Tax Invoice S1P03201705170016', 'TOTAL 5.00']))?.value).toBe('2017-05-17');
    expect(dateInDocumentNumber(linesOf(['POS: TC12 Shf:201806171']))).toMatchObject({ value: '2018-06-17', text: 'Shf:201806171', label: DATE_IN_NUMBER });
    // The same day in two numbers is one day.
    expect(dateInDocumentNumber(linesOf(['MT161201805120055', 'Shf:201805121']))?.value).toBe('2018-05-12');
  });

  it('reads no product code, short number, impossible or future day, and no day where two numbers disagree', () => {
    expect(dateInDocumentNumber(linesOf(['9556201705170 1 3.55']))).toBeNull(); // an EAN-13
    expect(dateInDocumentNumber(linesOf(['Inv 20170517']))).toBeNull(); // the date itself, read elsewhere
    expect(dateInDocumentNumber(linesOf(['S1P03201702300016']))).toBeNull(); // 30 February
    expect(dateInDocumentNumber(linesOf(['S1P03209905170016']), 2027)).toBeNull();
    expect(dateInDocumentNumber(linesOf(['MT161201805120055', 'S1P03201705170016']))).toBeNull();
  });

  it('gives a receipt whose printed date OCR lost that day, shown low; a receipt with a date keeps it', () => {
    const receipt = ['KEDAI CONTOH SDN BHD', '(123456-X)', 'Tax Invoice S1P03201705170016', 'Cashier: A', 'ITEM 1 5.00', 'TOTAL 5.00', 'CASH 10.00', 'CHANGE 5.00'];
    const fields = extractInvoiceFields({ words: wordsFromLayoutText(receipt.join('\n')) });
    expect(fields.issue_date?.value).toBe('2017-05-17');
    const scores = scoreInvoiceFields(fields, '');
    expect(scores.issue_date?.confidence).toBeLessThanOrEqual(LAST_RESORT_CEILING);
    expect(scores.issue_date?.evidence).toContain('guess:date-in-number');
    const dated = [...receipt.slice(0, 3), 'Date: 18/05/2017 10:12', ...receipt.slice(3)];
    expect(toPlainFields(extractInvoiceFields({ words: wordsFromLayoutText(dated.join('\n')) })).issue_date).toBe('2017-05-18');
  });
});

import { describe, expect, it } from 'vitest';
import type { Word } from '../model/extraction.js';
import { extractInvoiceFields } from './extractFields.js';
import { scoreInvoiceFields } from './fieldConfidence.js';
import { wordsToLines } from './layout.js';
import { findRepairedDates, READ_THROUGH_SLIPS, slipRepairedDate, withinOneEdit } from './ocrDateRepair.js';

// Fixed, so that "a year no receipt can have" does not move with the clock.
const options = { latestYear: 2019 };
const repaired = (text: string, monthFirst = false): string[] => findRepairedDates(text, { ...options, monthFirst }).map((d) => d.iso);

/** Words of a page written out line by line (one word per token, 20 px a line). */
function page(lines: string[]): Word[] {
  return lines.flatMap((line, row) => {
    let x = 10;
    return line.split(' ').map((text) => {
      const word: Word = { text, box: [x, 20 * row, x + 8 * text.length, 20 * row + 12], confidence: 0.9 };
      x += 8 * text.length + 8;
      return word;
    });
  });
}

describe('findRepairedDates: the confusion classes', () => {
  it('reads a letter or mark OCR printed for a digit', () => {
    const classes: [string, string][] = [
      ['O', '01'], ['o', '01'], ['D', '01'], ['Q', '01'], // 0
      ['l', '01'], ['I', '01'], ['i', '01'], ['|', '01'], ['!', '01'], // 1
      ['Z', '02'], ['z', '02'], ['S', '05'], ['s', '05'], ['$', '05'], ['B', '08'], ['G', '06'], ['b', '06'], ['g', '09'], ['q', '09'],
    ];
    for (const [letter, month] of classes) {
      const printed = /[OoDQ]/.test(letter) ? `17/${letter}1/2018` : `17/0${letter}/2018`;
      expect(repaired(`Date ${printed}`), printed).toEqual([`2018-${month}-17`]);
    }
    expect(repaired('Date 28/03/201B')).toEqual(['2018-03-28']);
    expect(repaired('Date 25/03/2OIB')).toEqual([]); // three slips in one date: too many
    expect(repaired('Date 28/03/20lB')).toEqual([]); // a year keeps three digits of its own
    expect(repaired('Date 17/AB/2018')).toEqual([]); // a group keeps a digit of its own
  });

  it('reads a colon, comma or space printed for a separator where the other one is a slash or dash', () => {
    expect(repaired('17/01:2018')).toEqual(['2018-01-17']);
    expect(repaired('17,01/2018')).toEqual(['2018-01-17']);
    expect(repaired('17-01 2018')).toEqual(['2018-01-17']);
    expect(findRepairedDates('17/01:2018', options)[0]!.slips).toEqual([':→/']);
  });

  it('repairs a year no receipt can have where one digit gives the only plausible year', () => {
    const [date] = findRepairedDates('Date  co  D3/06/3017 5:02:54 PM', options);
    expect(date).toMatchObject({ iso: '2017-06-03', label: 'Date', timed: true });
    expect(date!.slips).toEqual(['D→0', 'year 3017→2017']);
    expect(repaired('03/06/1817')).toEqual([]); // no year one digit away from 1817 is plausible (1987, 2017 are two)
  });

  it('repairs an impossible month or day where one look-alike digit gives the only valid date', () => {
    const [date] = findRepairedDates('CB#: 289720  17/61:2018 4 2153', options);
    expect(date!.iso).toBe('2018-01-17');
    expect(date!.slips).toEqual([':→/', '61→01']);
    expect(repaired('Date: 36/03/2018')).toEqual(['2018-03-30']); // 6→0 (3→5, 8, 9 make no day either)
  });

  it('reads a month name one edit away with a day and a year beside it and a date label or time', () => {
    const [date] = findRepairedDates('fate  1 05 lan 2017 12:41pm', options);
    expect(date).toMatchObject({ iso: '2017-01-05', label: 'fate', timed: true });
    expect(date!.slips).toEqual(['lan→jan']);
    expect(repaired('Datum: 7. Jyni 2018')).toEqual(['2018-06-07']);
    expect(repaired('Datum: 7. Mal 2018')).toEqual([]); // one edit from both März (mar) and Mai
    expect(repaired('Tarikh: Dex 5, 2018')).toEqual(['2018-12-05']);
    expect(repaired('O5 JAN 2017')).toEqual(['2017-01-05']); // an exact month name, a letter for a digit
  });

  it('reads a date whose year has the time\'s first digits glued after it, only as printed and not after a phone label', () => {
    expect(findRepairedDates('CB#: 289720 17/01/20184 4 2153', options)).toMatchObject([{ iso: '2018-01-17', text: '17/01/2018', slips: ['space lost before 4'] }]);
    expect(repaired('17-01-201812 41')).toEqual(['2018-01-17']);
    expect(repaired('31/02/20184')).toEqual([]);
    expect(repaired('17/01/20184567')).toEqual([]);
    expect(repaired('Tel 03-12-20184')).toEqual([]);
    expect(repaired('17/01-20184')).toEqual([]);
    // With the month's name, exact ("05/Apr/201812 :49"); a name one slip from a month is too weak on top of it.
    expect(findRepairedDates('CB#: 212039 05/Apr/201812 :49 11pm', options)).toMatchObject([{ iso: '2018-04-05', text: '05/Apr/2018', slips: ['space lost before 12'] }]);
    expect(repaired('05/Apz/201812')).toEqual([]);
    expect(repaired('31/Feb/201812')).toEqual([]);
  });

  it('reads a date whose second separator OCR read as a stroke or spaced off from the year, not after a phone label', () => {
    expect(findRepairedDates('Doc No ~CS00011956 Date 02/1212017', options)).toMatchObject([{ iso: '2017-12-02', slips: ['1→/'] }]);
    expect(repaired('Date : 21-03- 2018 16:08:24')).toEqual(['2018-03-21']);
    expect(repaired('Tel 03/1212017')).toEqual([]);
    expect(repaired('12-34- 2018')).toEqual([]);
    expect(repaired('02/12/2017')).toEqual([]);
    // A slash read as 7, only in a date's context: a phone number's digits may run so.
    expect(findRepairedDates('Dawe  25/1272018 8:13.39 PH', options)).toMatchObject([{ iso: '2018-12-25', slips: ['7→/'] }]);
    expect(repaired('Ref 25/1272018')).toEqual([]);
  });

  it('reads a date whose second separator OCR lost, the month run into the year, only beside a date label or a time', () => {
    expect(findRepairedDates('Date  :28/0717 9:48:42 AM', options)).toMatchObject([{ iso: '2017-07-28', text: '28/0717', slips: ['/ lost before 17'] }]);
    expect(repaired('Date: 13/072017')).toEqual(['2017-07-13']);
    expect(repaired('03-1218 10:15')).toEqual(['2018-12-03']);
    // A number of that shape without a date's context, an impossible month, or after a phone label.
    expect(repaired('Inv 12/0717')).toEqual([]);
    expect(repaired('Date: 28/1317')).toEqual([]);
    expect(repaired('Tel 03-1218 10:15')).toEqual([]);
    // A month and its year ("Exp 9/2016 10:15", "Date: 12/2018") run no day into them.
    expect(repaired('Date: 12/2018')).toEqual([]);
    expect(repaired('Exp 9/2016 10:15')).toEqual([]);
  });

  it('reads a year split by a space before its last digit, only beside a date label or a time', () => {
    expect(findRepairedDates('Date:08-03-201 8 05 01.12PM', options)).toMatchObject([{ iso: '2018-03-08', text: '08-03-201 8', slips: ['space inside the year 201 8'] }]);
    expect(repaired('27/11/201 7 14:02')).toEqual(['2017-11-27']);
    // Without a date's context it may be a number and a count ("Qty 12-03-201 8"), or the digits make no year.
    expect(repaired('Ref 08-03-201 8 pcs')).toEqual([]);
    expect(repaired('Date: 08-03-301 8')).toEqual([]);
    expect(repaired('Tel 08-03-201 8 10:15')).toEqual([]);
  });

  it('reads a month split by a space, only beside a date label or a time, not over an exact date', () => {
    expect(findRepairedDates('V2.82 06/1 2/2016 20:09:40', options)).toMatchObject([{ iso: '2016-12-06', text: '06/1 2/2016', slips: ['space inside 1 2'] }]);
    expect(repaired('Date: 17/0 3/2018')).toEqual(['2018-03-17']);
    expect(repaired('Ref 06/1 2/2016 pcs')).toEqual([]);
    expect(repaired('Date: 16/1 9/2016')).toEqual([]); // no month
    // "1 2/03/2018 10:01": a count before an exact date, or a day split in two; the date stands as printed.
    expect(repaired('Date: 1 2/03/2018 10:01')).toEqual([]);
  });

  it('reads a separator read as a space beside a one-digit day or month, only beside a date label or a time', () => {
    expect(findRepairedDates('Date = 5 3/2018 22 52 33', options)).toMatchObject([{ iso: '2018-03-05', text: '5 3/2018', slips: ['space→/'] }]);
    expect(repaired('Date: 17/3 2018')).toEqual(['2018-03-17']);
    expect(repaired('5 3/2018 10:01')).toEqual(['2018-03-05']);
    expect(repaired('Qty 5 3/2018')).toEqual([]);
    expect(repaired('Tel: 5 3/2018 10:01')).toEqual([]);
    expect(repaired('Date: 5 33/2018')).toEqual([]); // no month
  });

  it('reads a year-first date with a slip', () => {
    expect(repaired('2018-O3-21')).toEqual(['2018-03-21']);
  });
});

describe('findRepairedDates: refusals', () => {
  it('never reads an exact date (dates.ts does)', () => {
    expect(repaired('Date: 20/03/2018 12:42')).toEqual([]);
    expect(repaired('05 Jan 2017')).toEqual([]);
  });

  it('does not guess a lost year digit', () => {
    expect(repaired('DATE: 20/03/201¢')).toEqual([]);
    expect(repaired('DATE: 20/03/201')).toEqual([]);
  });

  it('never turns a phone, registration or invoice number into a date', () => {
    for (const text of ['TEL :07-386 7524  FAX: 07-386 3793', 'Tel: 03-7728 1234', '012-345 6789', 'H/P 011-3194 6284', 'GST NO : 000800580824', 'Co. Reg 725186-V', 'No :CS-20243', 'Bil No BM-161113', '(13-78459183', '187087-75 Tack-k']) {
      expect(repaired(text), text).toEqual([]);
    }
  });

  it('never turns a time into a date', () => {
    for (const text of ['TIME: 12:41:00', '5:02:54 PM', '18.47.80', '12:41 2017']) expect(repaired(text), text).toEqual([]);
  });

  it('refuses an ambiguous repair', () => {
    expect(repaired('05/00/2018')).toEqual([]); // 06, 08, 09 are all a look-alike away
    expect(repaired('12/05/2081')).toEqual([]); // 2001, 2011, 2021 are all one digit away
  });

  it('refuses a word one edit from a month without a date label or time', () => {
    expect(repaired('1 set 2018')).toEqual([]); // an item line, not 1 September
    expect(repaired('Date 1 man 2018')).toEqual([]); // "man" is one edit from both mar and may
    expect(repaired('Date: 1 set 2018')).toEqual(['2018-09-01']);
  });

  it('reads a date label through one edit only', () => {
    expect(withinOneEdit('fate', 'date')).toBe(true);
    expect(withinOneEdit('dat', 'date')).toBe(true);
    expect(withinOneEdit('tarik', 'tarikh')).toBe(true);
    expect(withinOneEdit('fats', 'date')).toBe(false);
  });
});

describe('slipRepairedDate: weighed against exact dates', () => {
  const lines = (texts: string[]) => wordsToLines(page(texts));

  it('takes a repaired date only where no exact one is read', () => {
    const exact = { value: '2018-01-10', text: '10/01/2018', words: [], label: null };
    expect(slipRepairedDate(lines(['Total 12.00', '17/01:2018']), exact, options)).toBe(exact);
    expect(slipRepairedDate(lines(['Total 12.00', '17/01:2018']), null, options)?.value).toBe('2018-01-17');
  });

  it('takes a repaired date beside a date label over an exact one without a label, never over a labelled one', () => {
    const unlabelled = { value: '2018-01-10', text: '10/01/2018', words: [], label: null };
    const labelled = { ...unlabelled, label: 'Date' };
    const text = ['Date: 17/01:2018', 'Printed 10/01/2018'];
    expect(slipRepairedDate(lines(text), unlabelled, options)?.value).toBe('2018-01-17');
    expect(slipRepairedDate(lines(text), labelled, options)).toBe(labelled);
  });

  it('reads a receipt whose only date OCR printed with slips, with a low confidence', () => {
    const words = page(['BROADVIEW MARKETING SDN BHD', 'GST Reg No: 000203587564', 'Bil No BM-161113', 'Date co D3/06/3017 5:02:54 PM', 'TOTAL 18.00', 'CASH 20.00', 'CHANGE 2.00', 'Thank you']);
    const fields = extractInvoiceFields({ words });
    expect(fields.issue_date?.value).toMatch(/^2017-06-03$/);
    expect(fields.issue_date?.label).toContain(READ_THROUGH_SLIPS);
    const score = scoreInvoiceFields(fields, words.map((w) => w.text).join(' ')).issue_date!;
    expect(score.confidence).toBeLessThanOrEqual(0.2);
    expect(score.evidence).toContain('ocr:slips-repaired');
  });
});

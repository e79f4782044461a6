/**
 * A scanned receipt's supplier recognised through OCR noise (written from the phenomenon, not copied from a scan):
 * its name misread by a letter or two, its GST number by one digit, its fixed lines no longer exact.
 */
import { describe, expect, it } from 'vitest';
import type { Word } from '../../model/extraction.js';
import { line } from '../../../testing/syntheticWords.js';
import { extractInvoiceFields, toPlainFields } from '../extractFields.js';
import { genericScores, learnLesson, readWithMemory, SupplierIndex, type ConfirmedValues } from './index.js';
import { memoryPage } from './pageText.js';
import { printedWithinNoise, substringEditDistance } from './textForms.js';

function receipt(v: { name: string; gst: string; total: string; date: string; cash: string; change: string; footer: string }): Word[] {
  return [
    ...line(v.name, 60, 20),
    ...line('NO 7, JALAN CONTOH 2, 43000 KAJANG', 40, 50),
    ...line(`GST ID: ${v.gst}`, 60, 80),
    ...line(`Receipt No: 1234   Date: ${v.date}`, 20, 120),
    ...line('Cashier: 01', 20, 150),
    ...line('TEH TARIK', 20, 200),
    ...line(v.total, 300, 200),
    ...line('TOTAL', 20, 240),
    ...line(v.total, 300, 240),
    ...line('CASH', 20, 270),
    ...line(v.cash, 300, 270),
    ...line('CHANGE', 20, 300),
    ...line(v.change, 300, 300),
    ...line(v.footer, 20, 340),
  ];
}

const confirmed: ConfirmedValues = { invoice_number: null, issue_date: '2018-03-12', due_date: null, seller: 'KEDAI KOPI CONTOH SDN BHD', buyer: null, currency: null, subtotal: null, tax: null, total: 4.5 };
const first = receipt({ name: 'KEDAI KOPI CONTOH SDN BHD', gst: '001234567890', total: '4.50', date: '12/03/2018', cash: '5.00', change: '0.50', footer: 'THANK YOU PLEASE COME AGAIN' });
const index = new SupplierIndex([{ supplierId: 's1', supplierName: confirmed.seller!, pageId: 'p1', lesson: learnLesson(first, confirmed) }]);

const readNext = (words: Word[]) => {
  const fields = extractInvoiceFields({ words });
  return readWithMemory(words, toPlainFields(fields), index, new Map(), genericScores(fields, words.map((w) => w.text).join(' ')));
};

describe('a scanned supplier', () => {
  it('finds a name through one edit in six characters, not more', () => {
    expect(substringEditDistance('kedaikopicontohsdnbhd', 'xxtkedaik0picontohsdnbhdyy', 5)).toBe(1);
    expect(printedWithinNoise('kedaikopicontohsdnbhd', 'rkedaik0picontohsdnbhd')).toBe(true);
    expect(printedWithinNoise('kedaikopicontohsdnbhd', 'kedaitehtarikhsdnbhd')).toBe(false);
    expect(printedWithinNoise('abcd', 'abce')).toBe(false);
  });

  it('is recognised where OCR misread its name and its GST number, and its name is carried as confirmed', () => {
    const next = receipt({ name: 'KEDAI K0PI CONTOH SDN BHD', gst: '001234567899', total: '7.20', date: '14/03/2018', cash: '10.00', change: '2.80', footer: 'THANK Y0U PLEASE C0ME AGAlN' });
    const memory = readNext(next);
    expect(memory?.supplierId).toBe('s1');
    expect(memory?.fields.seller?.value).toBe('KEDAI KOPI CONTOH SDN BHD');
    expect(memory?.fields.total?.value ?? toPlainFields(extractInvoiceFields({ words: next })).total).toBe(7.2);
  });

  it('another merchant with the same legal form and street is not taken for it', () => {
    const other = receipt({ name: 'RESTORAN MAJU JAYA SDN BHD', gst: '009988776655', total: '7.20', date: '14/03/2018', cash: '10.00', change: '2.80', footer: 'THANK YOU PLEASE COME AGAIN' });
    expect(readNext(other)?.supplierId).toBeUndefined();
    expect(memoryPage(other).ids).toContain('009988776655');
  });

  it('is recognised by its telephone number where OCR lost its name and its GST number', () => {
    const withPhone = (name: string, gst: string, phone: string) => [...receipt({ name, gst, total: '4.50', date: '12/03/2018', cash: '5.00', change: '0.50', footer: 'THANK YOU' }), ...line(`TEL: ${phone}`, 60, 95)];
    const taught = learnLesson(withPhone('KEDAI KOPI CONTOH SDN BHD', '001234567890', '03-8768 6092'), confirmed);
    expect(taught.identity.phones).toEqual(['0387686092']);
    const byPhone = new SupplierIndex([{ supplierId: 's1', supplierName: confirmed.seller!, pageId: 'p1', lesson: taught }]);
    const read = (words: Word[]) => {
      const fields = extractInvoiceFields({ words });
      return readWithMemory(words, toPlainFields(fields), byPhone, new Map(), genericScores(fields, words.map((w) => w.text).join(' ')));
    };
    expect(read(withPhone('KFDAl K0P1 C0NT0H 5DN 8HD', '0O1Z345G7B9O', '03 8768 6092'))?.supplierId).toBe('s1');
    // Another merchant's number is not it.
    expect(read(withPhone('KFDAl K0P1 C0NT0H 5DN 8HD', '0O1Z345G7B9O', '03-5512 0000'))?.supplierId).toBeUndefined();
  });

  it('reads its date at the learned place where OCR printed it with slips, and learns the place from such a date', () => {
    const slipped = receipt({ name: 'KEDAI KOPI CONTOH SDN BHD', gst: '001234567890', total: '7.20', date: '14/O3/2018', cash: '10.00', change: '2.80', footer: 'THANK YOU' });
    const memory = readNext(slipped);
    expect(memory?.supplierId).toBe('s1');
    expect(memory?.fields.issue_date?.value).toBe('2018-03-14');
    expect(memory?.fields.issue_date?.evidence).toContain('ocr:slips-repaired');
    expect(memory?.fields.issue_date?.confidence).toBeLessThanOrEqual(0.2);
    const taught = learnLesson(receipt({ name: 'KEDAI KOPI CONTOH SDN BHD', gst: '001234567890', total: '4.50', date: '12/03/3018', cash: '5.00', change: '0.50', footer: 'THANK YOU' }), confirmed);
    expect(taught.hints.issue_date?.length).toBeGreaterThan(0);
  });

  it('a total the till identity witnesses leads against memory that learned the tendered line of an exactly paid receipt', () => {
    // Taught from a ticket paid exactly: the accepted (tendered) amount equals the amount, and its "total" label led.
    const ticket = (amount: string, accepted: string, change: string | null): Word[] => [
      ...line('PARKIR CONTOH SDN BHD', 60, 20),
      ...line('GST ID: 001122334455', 60, 50),
      ...line('Receipt No: 77   Date: 12/03/2018 10:01', 20, 90),
      ...line('Amount Incl. GST', 20, 140),
      ...line(amount, 300, 140),
      ...line('Accepted total', 20, 170),
      ...line(accepted, 300, 170),
      ...(change ? [...line('Change', 20, 200), ...line(change, 300, 200)] : []),
      ...line('Thank you', 20, 240),
    ];
    const taught: ConfirmedValues = { ...confirmed, seller: 'PARKIR CONTOH SDN BHD', total: 5 };
    const memoryIndex = new SupplierIndex([{ supplierId: 'p', supplierName: taught.seller!, pageId: 'p1', lesson: learnLesson(ticket('5.00', '5.00', null), taught) }]);
    const next = ticket('5.00', '10.00', '5.00');
    const fields = extractInvoiceFields({ words: next });
    expect(fields.total?.value).toBe(5);
    const memory = readWithMemory(next, toPlainFields(fields), memoryIndex, new Map(), genericScores(fields, next.map((w) => w.text).join(' ')));
    expect(memory?.supplierId).toBe('p');
    expect(memory?.fields.total).toMatchObject({ value: 5, source: 'page' });
    expect(memory?.fields.total?.evidence).toContain('arithmetic:cash-minus-change');
    // Without the change line nothing witnesses the page's reading: memory's place stands.
    const unwitnessed = ticket('5.00', '10.00', null);
    const plain = extractInvoiceFields({ words: unwitnessed });
    expect(readWithMemory(unwitnessed, toPlainFields(plain), memoryIndex, new Map(), genericScores(plain, unwitnessed.map((w) => w.text).join(' ')))?.fields.total?.value).toBe(10);
  });

  it('a total the page rounded to the smallest coin leads against memory\'s place of the amount before rounding', () => {
    // Taught where the till's total line printed its amount: memory learned the tax summary's gross, the same there.
    const till = (items: string, total: string | null, summary: string): Word[] => [
      ...line('KEDAI CONTOH COMPANY', 60, 20),
      ...line('Company Reg. No. : 725186-V', 60, 50),
      ...line('CB#: 389772 17/01/2018 8:08:53', 20, 90),
      ...line('Cashier: C1000', 20, 120),
      ...line('GLUE STICK', 20, 160),
      ...line(items, 300, 160),
      ...line('Rounding Adj', 20, 190),
      ...line('Total Inclusive GST:', 20, 220),
      ...(total ? line(total, 300, 220) : []),
      ...line('GST Summary', 20, 260),
      ...line('Code % Net Amt GST Total', 20, 290),
      ...line(`SR 6% ${summary}`, 20, 320),
      ...line(`Total ${summary}`, 20, 350),
      ...line('Thank you & Please come again.', 20, 390),
    ];
    const taught: ConfirmedValues = { ...confirmed, seller: 'KEDAI CONTOH COMPANY', issue_date: '2018-01-17', total: 10.45 };
    const memoryIndex = new SupplierIndex([{ supplierId: 'k', supplierName: taught.seller!, pageId: 'p1', lesson: learnLesson(till('10.45', null, '9.86 0.59 10.45'), taught) }]);
    const next = till('10.44', null, '9.85 0.59 10.44');
    const fields = extractInvoiceFields({ words: next });
    expect(fields.total?.value).toBe(10.45);
    const memory = readWithMemory(next, toPlainFields(fields), memoryIndex, new Map(), genericScores(fields, next.map((w) => w.text).join(' ')));
    expect(memory?.supplierId).toBe('k');
    expect(memory?.fields.total).toMatchObject({ value: 10.45, source: 'page' });
    expect(memory?.fields.total?.evidence).toContain('arithmetic:cash-rounding');
  });

  it('a receipt\'s total under the smallest coin is no reading, from the page or from memory: the place held the rounding\'s 0.00', () => {
    const next = receipt({ name: 'KEDAI KOPI CONTOH SDN BHD', gst: '001234567890', total: '0.00', date: '14/03/2018', cash: '7.20', change: '', footer: 'THANK YOU PLEASE COME AGAIN' });
    const fields = extractInvoiceFields({ words: next });
    expect(fields.total?.value).toBe(7.2); // the largest amount, low: the cash paid
    const memory = readNext(next);
    expect(memory?.supplierId).toBe('s1');
    expect(memory?.fields.total?.value ?? fields.total?.value).not.toBe(0);
  });
});

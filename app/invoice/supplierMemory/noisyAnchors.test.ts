/**
 * A scanned supplier's second receipt read through memory where OCR garbled the labels memory learned, its name, its
 * GST number's label and its letterhead (hand-made words with the noise a scan shows, not copied from a scan): the
 * anchors are found within one edit per six characters, the letterhead stands in for the layout, and where an anchor
 * is not printed memory reads nothing and the page's own reading stands.
 */
import { describe, expect, it } from 'vitest';
import type { Word } from '../../model/extraction.js';
import { line } from '../../../testing/syntheticWords.js';
import { extractInvoiceFields, toPlainFields } from '../extractFields.js';
import { genericScores, learnLesson, parseLesson, readWithMemory, SupplierIndex, type ConfirmedValues } from './index.js';
import { textAt } from './hintPlaces.js';
import { readThroughMemory } from './readThroughMemory.js';
import { letterheadOf, letterheadShare, pageHeadForms } from './letterhead.js';
import { memoryPage } from './pageText.js';
import { editDistance } from './textForms.js';

interface Receipt {
  name: string;
  street: string;
  town: string;
  gstLine: string;
  dateLabel: string;
  date: string;
  totalLabel: string;
  total: string;
  cash: string;
  change: string;
  items: [string, string][];
}

const clean: Receipt = {
  name: 'RESTORAN SRI MURNI SDN BHD',
  street: 'LOT 12, JALAN BUNGA RAYA 3, TAMAN SERI INDAH',
  town: '43000 KAJANG, SELANGOR DARUL EHSAN',
  gstLine: 'GST REG NO: 000123456789',
  dateLabel: 'Receipt Date',
  date: '12/03/2018',
  totalLabel: 'NETT TOTAL',
  total: '23.40',
  cash: '50.00',
  change: '26.60',
  items: [['NASI LEMAK', '8.00'], ['TEH TARIK', '2.40']],
};

function receipt(r: Receipt): Word[] {
  return [
    ...line(r.name, 60, 20),
    ...line(r.street, 20, 50),
    ...line(r.town, 20, 80),
    ...line(r.gstLine, 60, 110),
    ...line(`${r.dateLabel} ${r.date}`, 20, 150),
    ...r.items.flatMap(([item, amount], i) => [...line(item, 20, 200 + 15 * i), ...line(amount, 400, 200 + 15 * i)]),
    ...line('SUBTOTAL', 20, 270),
    ...line('22.08', 400, 270),
    ...line(r.totalLabel, 20, 300),
    ...line(r.total, 400, 300),
    ...line('CASH', 20, 330),
    ...line(r.cash, 400, 330),
    ...line('CHANGE', 20, 360),
    ...line(r.change, 400, 360),
  ];
}

const confirmed: ConfirmedValues = { invoice_number: null, issue_date: '2018-03-12', due_date: null, seller: clean.name, buyer: null, currency: null, subtotal: null, tax: null, total: 23.4 };
const lesson = learnLesson(receipt(clean), confirmed);
const index = new SupplierIndex([{ supplierId: 'murni', supplierName: clean.name, pageId: 'p1', lesson }]);

const readNext = (words: Word[]) => {
  const fields = extractInvoiceFields({ words });
  return readWithMemory(words, toPlainFields(fields), index, new Map(), genericScores(fields, words.map((w) => w.text).join(' ')));
};

/** The next receipt as OCR reads it: another date and total, the labels memory learned misread by a letter. */
const noisy = (r: Partial<Receipt>): Word[] =>
  receipt({ ...clean, name: 'RESTORAN SRl MURNl SDN BHD', dateLabel: 'Receipt Dale', date: '14/03/2018', totalLabel: 'NETT TOTA!', total: '31.70', cash: '40.00', change: '8.30', items: [['MEE GORENG', '9.50'], ['KOPI O', '1.80']], ...r });

describe('anchors through OCR noise', () => {
  it('learns the labels beside the total and the date', () => {
    expect(lesson.hints.total?.[0]).toMatchObject({ anchor: 'nett total', relation: 'right', step: 1 });
    expect(lesson.hints.issue_date?.[0]).toMatchObject({ anchor: 'receipt date', relation: 'inline' });
  });

  it('ranks a label of the field over other text beside the value (a tax summary row repeating the total)', () => {
    const withSummary = [...receipt(clean), ...line('SR', 20, 420), ...line('6%', 200, 420), ...line('23.40', 400, 420)];
    const taught = learnLesson(withSummary, confirmed);
    expect(taught.hints.total?.map((h) => h.anchor)).toEqual(['nett total', 'sr']);
  });

  it('finds a learned label misread by one letter, beside or before its value, and says it read through noise', () => {
    const page = memoryPage(noisy({}));
    expect(textAt(page, lesson.hints.total![0]!)).toMatchObject({ text: '31.70', edits: 1 });
    expect(textAt(page, lesson.hints.issue_date![0]!)).toMatchObject({ text: '14/03/2018', edits: 1 });
    const memory = readNext(noisy({}));
    expect(memory?.supplierId).toBe('murni');
    expect(memory?.fields.total).toMatchObject({ value: 31.7, source: 'supplier memory' });
    expect(memory?.fields.total?.evidence[0]).toBe('memory:right~:nett total');
    expect(memory?.fields.issue_date).toMatchObject({ value: '2018-03-14', source: 'supplier memory' });
    expect(memory?.fields.issue_date?.evidence[0]).toBe('memory:inline~:receipt date');
  });

  it('prefers the label printed exactly to one within noise, and allows no noise in a short label', () => {
    const page = memoryPage([...noisy({}), ...line('NETT TOTAL', 20, 420), ...line('99.99', 400, 420)]);
    expect(textAt(page, lesson.hints.total![0]!)).toMatchObject({ text: '99.99', edits: 0 });
    expect(editDistance('total', 'totai', 1)).toBe(1);
    expect(textAt(memoryPage(line('TOTAI 5.00', 20, 20)), { anchor: 'total', relation: 'inline', step: 0, anchorY: 0, shape: null })).toBeNull();
  });

  it('reads nothing where the label is not printed, even within noise: the page’s reading stands', () => {
    // Another till prints "GRAND TOTAL" and "Date": neither is the learned label within one edit per six characters.
    const other = noisy({ totalLabel: 'GRAND TOTAL', dateLabel: 'Date:' });
    const page = memoryPage(other);
    expect(textAt(page, lesson.hints.total![0]!)).toBeNull();
    expect(textAt(page, lesson.hints.issue_date![0]!)).toBeNull();
    const memory = readNext(other);
    expect(memory?.fields.total?.source ?? 'page').toBe('page');
    expect(memory?.fields.issue_date?.source ?? 'page').toBe('page');
    const plain = toPlainFields(extractInvoiceFields({ words: other }));
    expect(plain.total).toBe(31.7);
  });
});

describe('the layout around the fields, on a scan', () => {
  // A receipt that also prints its tax: the lesson has three hinted fields (date, tax, total).
  const withTax = (r: Receipt, taxLabel: string, footer: number): Word[] => [
    ...receipt(r),
    ...line(taxLabel, 20, 390),
    ...line('1.32', 400, 390),
    // A longer footer moves every line's height on the page: no anchor stands where the lesson had it.
    ...Array.from({ length: footer }, (_, i) => line(`THANK YOU LINE ${i}`, 20, 430 + 30 * i)).flat(),
  ];
  const taught = learnLesson(withTax(clean, 'GST 6%', 0), { ...confirmed, tax: 1.32 });
  const byTax = new SupplierIndex([{ supplierId: 'murni', supplierName: clean.name, pageId: 'p1', lesson: taught }]);
  const scanned = { name: 'RESTORAN SRl MURNl SDN BHD', street: 'LOT 12, JALAN BUNGA RAYA 3, TAMAN SER1 INDAH', town: '43000 KAJANG, SELANG0R DARUL EHSAN' };
  /** The page's own reading says the total is the cash tendered (40.00), without evidence that earns it trust. */
  const readAgainst = (words: Word[]) => {
    const page = memoryPage(words);
    const recognised = byTax.recognise(page)!;
    expect(recognised.layout).toBeLessThan(0.5);
    return readThroughMemory(page, recognised, { ...toPlainFields(extractInvoiceFields({ words })), total: 40 }, { kept: 0, corrected: 0 });
  };

  it('holds where the page prints most of the lesson’s anchors through noise, though few fixed lines survive exactly', () => {
    expect(Object.keys(taught.hints).sort()).toEqual(['issue_date', 'tax', 'total']);
    const memory = readAgainst(withTax({ ...clean, ...scanned, dateLabel: 'Receipt Dale', totalLabel: 'NETT TOTA!', total: '31.70', items: [['MEE GORENG', '9.50']] }, 'G5T 6%', 10));
    expect(memory.fields.total).toMatchObject({ value: 31.7, source: 'supplier memory', confidence: 0.5 });
    expect(memory.fields.total?.evidence).toContain('memory:page-disagrees');
  });

  it('is another where the page prints few of them: the page’s reading leads', () => {
    const memory = readAgainst(withTax({ ...clean, ...scanned, dateLabel: 'Tarikh', totalLabel: 'NETT TOTA!', total: '31.70', items: [['MEE GORENG', '9.50']] }, 'SST', 10));
    expect(memory.fields.total).toMatchObject({ value: 40, source: 'page' });
    expect(memory.fields.total?.evidence).toContain('memory:other-layout');
  });
});

describe('a scanned supplier recognised through its letterhead and a GST number whose label OCR lost', () => {
  it('keeps the letterhead’s lines, digits masked, and a lesson without them still parses', () => {
    expect(lesson.identity.letterhead).toEqual(['restoransrimurnisdnbhd', 'lot#jalanbungaraya#tamanseriindah', '#kajangselangordarulehsan', 'gstregno#']);
    const { letterhead: _dropped, ...olderIdentity } = lesson.identity;
    expect(parseLesson(JSON.stringify({ ...lesson, identity: olderIdentity }))?.identity.letterhead).toEqual([]);
  });

  it('is recognised with its name lost, its GST label garbled and a digit misread, by the letterhead through noise', () => {
    const next = noisy({ name: 'R35T0RAN 5R1 MUKN1 5DN 8HD', street: 'LOT 12, JALAN BUNGA RAYA 3, TAMAN SER1 INDAH', town: '43000 KAJANG, SELANG0R DARUL EHSAN', gstLine: 'G5T REQ N0 000123456780' });
    const page = memoryPage(next);
    expect(page.ids).toEqual([]);
    expect(page.digitRuns).toContain('000123456780');
    expect(letterheadShare(lesson.identity.letterhead, pageHeadForms(page.lines))).toBeGreaterThanOrEqual(0.5);
    const memory = readNext(next);
    expect(memory?.supplierId).toBe('murni');
    expect(memory?.recognition).toContain('supplier:identifier~');
    // The fingerprint's exact lines hardly survive: the letterhead through noise carried it.
    expect(memory?.recognition.some((e) => e.startsWith('supplier:letterhead~='))).toBe(true);
    // The name OCR lost is carried from memory: the supplier is known by its own number.
    expect(memory?.fields.seller).toMatchObject({ value: clean.name, source: 'supplier memory' });
    expect(memory?.fields.seller?.evidence).toContain('memory:recognised-by-identifier');
  });

  it('carries the whole name where the page reads a part of it (the rest lost in a logo), and keeps a longer reading', () => {
    const part = readNext(noisy({ name: 'MURNI', gstLine: 'GST REG NO: 000123456789' }));
    expect(part?.fields.seller).toMatchObject({ value: clean.name, source: 'supplier memory' });
    expect(part?.fields.seller?.evidence).toContain('memory:name-part-printed');
    // Too little of it to be a part: the page's reading of someone else, below.
    expect(readNext(noisy({ name: 'SRI', gstLine: 'GST REG NO: 000123456789' }))?.fields.seller?.evidence ?? []).not.toContain('memory:name-part-printed');
  });

  it('another merchant on the same street with its own GST number is not taken for it', () => {
    const neighbour = noisy({ name: 'KEDAI RUNCIT AH SENG', street: 'LOT 14, JALAN BUNGA RAYA 3, TAMAN SERI INDAH', gstLine: 'GST REG NO: 000987654321' });
    expect(readNext(neighbour)).toBeNull();
  });

  it('a lesson that holds only the name (its teaching scan was noise) still recognises the name through noise in the first lines', () => {
    const onlyName = learnLesson(line('~ .: ,', 20, 20), confirmed);
    expect(onlyName.identity).toMatchObject({ name: clean.name, taxNumbers: [], phones: [], letterhead: [] });
    const byName = new SupplierIndex([{ supplierId: 'murni', supplierName: clean.name, pageId: 'p1', lesson: onlyName }]);
    const read = (words: Word[]) => readWithMemory(words, toPlainFields(extractInvoiceFields({ words })), byName, new Map());
    expect(read(noisy({}))?.fields.seller).toMatchObject({ value: clean.name, evidence: ['memory:carried-name', 'memory:name-printed~'] });
    // Printed lower on the page (a thank-you line naming it) it is no letterhead: not searched through noise there.
    const low = noisy({ name: 'WELCOME' });
    expect(read([...low, ...line('RESTORAN SRl MURNl SDN BHD', 20, 900)])).toBeNull();
    // Another merchant's name, two letters per six apart: not it.
    expect(read(noisy({ name: 'RESTORAN SERI MAJU SDN BHD' }))).toBeNull();
  });

  it('the letterhead alone names nobody', () => {
    const unnamed = noisy({ name: 'KEDAI RUNCIT AH SENG', gstLine: 'THANK YOU' });
    expect(readNext(unnamed)).toBeNull();
  });

  it('leaves out a line OCR read as noise over a logo: no other scan reads it alike, and kept it dilutes the share', () => {
    const speck = line('RIE EHeRy', 20, 5).map((w) => ({ ...w, confidence: 0.02 }));
    const lines = memoryPage([...speck, ...line('ACME TRADING GMBH', 20, 20), ...line('LOT 12 JALAN BUNGA RAYA', 20, 50)]).lines;
    expect(letterheadOf(lines, null)).toEqual(['acmetradinggmbh', 'lot#jalanbungaraya']);
  });

  it('stops the letterhead at a buyer’s block', () => {
    const lines = memoryPage([...line('ACME TRADING GMBH', 20, 20), ...line('Bill to', 20, 50), ...line('Northwind Buyer Ltd', 20, 80)]).lines;
    expect(letterheadOf(lines, null)).toEqual(['acmetradinggmbh']);
    expect(letterheadOf(lines.slice(2), 'Northwind Buyer Ltd')).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import type { Word } from '../../model/extraction.js';
import { line } from '../../../testing/syntheticWords.js';
import { extractInvoiceFields, toPlainFields } from '../extractFields.js';
import { learnLesson, readWithMemory, SupplierIndex, type ConfirmedValues } from './index.js';

/**
 * One supplier's layout: its name and VAT ID, a party block with a repeated "Nummer" label, the buyer's name over two
 * lines, and a totals table (one row per VAT rate, then the sum row) whose columns only a header names.
 */
function page(v: { buyer: [string, string]; rates: [string, string, string][]; sums: [string, string, string]; kerned?: boolean }): Word[] {
  const words: Word[] = [
    ...line('Kettler Feinmechanik GmbH', 40, 40),
    ...line('Verkäufer', 40, 100),
    ...line('Nummer', 40, 130),
    ...line('4711', 300, 130),
    ...line('Empfänger', 40, 190),
    ...line('Nummer', 40, 220),
    ...line('0815', 300, 220),
    ...line(v.buyer[0], 40, 250),
    ...line(v.buyer[1], 40, 280),
  ];
  // Header cells far apart: one segment each (a text layer may split a kerned word: "Br utto").
  words.push(...line(v.kerned ? 'Net to' : 'Netto', 400, 500), ...line('Steuer', 600, 500), ...line(v.kerned ? 'Br utto' : 'Brutto', 800, 500));
  v.rates.forEach(([net, tax, gross], i) => words.push(...line(net, 400, 530 + 30 * i), ...line(tax, 600, 530 + 30 * i), ...line(gross, 800, 530 + 30 * i)));
  const y = 530 + 30 * v.rates.length + 20;
  words.push(...line(v.sums[0], 400, y), ...line(v.sums[1], 600, y), ...line(v.sums[2], 800, y));
  words.push(...line('USt-IdNr.: DE123456789', 40, 900));
  return words;
}

const first = page({ buyer: ['Herrn', 'Max Mustermann'], rates: [['100,00', '19,00', '119,00'], ['10,00', '0,70', '10,70']], sums: ['110,00', '19,70', '129,70'] });
const confirmed: ConfirmedValues = {
  invoice_number: null,
  issue_date: null,
  due_date: null,
  seller: 'Kettler Feinmechanik GmbH',
  buyer: 'Herrn\nMax Mustermann',
  currency: 'EUR',
  subtotal: 110,
  tax: 19.7,
  total: 129.7,
};

describe('where memory reads a field', () => {
  const lesson = learnLesson(first, confirmed);
  const index = new SupplierIndex([{ supplierId: 'kettler', supplierName: 'Kettler', pageId: 'p1', lesson }]);
  const read = (words: Word[]) => readWithMemory(words, toPlainFields(extractInvoiceFields({ words })), index, new Map());

  it('learns a table’s sums as the end of their columns, a two-line name, and no anchor printed twice', () => {
    expect(lesson.hints.total?.some((h) => h.relation === 'column-end' && h.anchor === 'brutto')).toBe(true);
    expect(lesson.hints.tax?.some((h) => h.relation === 'column-end' && h.anchor === 'steuer')).toBe(true);
    // "Nummer" is printed twice (seller's and buyer's): the heading printed once anchors the buyer.
    expect(lesson.hints.buyer?.[0]).toMatchObject({ anchor: 'empfänger', relation: 'below', step: 2, lines: 2 });
  });

  it('reads the sums of an invoice with another number of rates, kerned headers and another two-line buyer', () => {
    const next = page({
      kerned: true,
      buyer: ['Frau', 'Erika Musterfrau'],
      rates: [['50,00', '9,50', '59,50'], ['20,00', '1,40', '21,40'], ['5,00', '0,00', '5,00']],
      sums: ['75,00', '10,90', '85,90'],
    });
    const memory = read(next);
    expect(memory?.fields.subtotal?.value).toBe(75);
    expect(memory?.fields.tax?.value).toBe(10.9);
    expect(memory?.fields.total).toMatchObject({ value: 85.9, source: 'supplier memory' });
    // Closed by BT-109 + BT-110 = BT-112: high.
    expect(memory?.fields.total?.confidence).toBeGreaterThanOrEqual(0.95);
    expect(memory?.fields.buyer?.value).toBe('Frau\nErika Musterfrau');
  });
});

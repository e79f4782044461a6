import { describe, expect, it } from 'vitest';
import type { Word } from '../../model/extraction.js';
import { line } from '../../../testing/syntheticWords.js';
import { extractInvoiceFields, toPlainFields } from '../extractFields.js';
import { genericScores, learnLesson, readWithMemory, SupplierIndex, type ConfirmedValues } from './index.js';
import { MEMORY_AGAINST_PAGE } from './readThroughMemory.js';
import { isLabelText } from './valueKinds.js';

/**
 * Memory never makes a reading worse: where the page's own reading is backed by evidence (a label of the field's
 * vocabulary) or memory's place does not hold on this page (a label printed where the lesson had a value), memory
 * defers; its disagreement lowers the confidence instead of replacing the page's value.
 */
const seller = (): Word[] => [...line('Kettler Feinmechanik GmbH', 40, 40), ...line('USt-IdNr.: DE123456789', 40, 70), ...line('Rechnungsnummer', 600, 160), ...line('KF-0007', 900, 160)];

/** The buyer block as one producer prints it: heading, the name, the street. */
const plainBlock = (name: string): Word[] => [...line('Rechnungsempfänger', 40, 300), ...line(name, 40, 330), ...line('Hauptstr. 5', 40, 360)];
/** The same block as another producer prints it: every line under a label of its own, label and value apart. */
const labelledBlock = (name: string): Word[] => [
  ...line('Rechnungsempfänger', 40, 300),
  ...line('Name:', 40, 330),
  ...line(name, 300, 330),
  ...line('Anschrift:', 40, 360),
  ...line('Hauptstr. 5', 300, 360),
];
/** A customer number over the name pushes the name a line down. */
const numberedBlock = (name: string): Word[] => [...line('Rechnungsempfänger', 40, 300), ...line('Kundennr. 4711', 40, 330), ...line(name, 40, 360), ...line('Hauptstr. 5', 40, 390)];

const confirmed: ConfirmedValues = { invoice_number: 'KF-0007', issue_date: null, due_date: null, seller: 'Kettler Feinmechanik GmbH', buyer: 'Brenner Holzbau OHG', currency: null, subtotal: null, tax: null, total: null };
const index = new SupplierIndex([{ supplierId: 'kettler', supplierName: 'Kettler', pageId: 'p1', lesson: learnLesson([...seller(), ...plainBlock('Brenner Holzbau OHG')], confirmed) }]);

function readNext(words: Word[], withScores: boolean) {
  const fields = extractInvoiceFields({ words });
  return { page: toPlainFields(fields), memory: readWithMemory(words, toPlainFields(fields), index, new Map(), withScores ? genericScores(fields, words.map((w) => w.text).join(' ')) : undefined) };
}

describe('memory defers to a page reading backed by evidence', () => {
  it('tells a label from a value: a label\'s colon, or nothing but a label of the vocabulary', () => {
    expect(isLabelText('Anschrift:')).toBe(true);
    expect(isLabelText('Name :')).toBe(true);
    expect(isLabelText('Rechnungsnummer')).toBe(true);
    expect(isLabelText('Brenner Holzbau OHG')).toBe(false);
    expect(isLabelText('Rechnungsnummer 4711')).toBe(false);
    expect(isLabelText('Hauptstr. 5')).toBe(false);
  });

  it('reads nothing where its place holds a label on this page, and the page\'s value stands', () => {
    const words = [...seller(), ...labelledBlock('Ortwin Sägewerk KG')];
    // No evidence given at all: only the place itself says it does not hold.
    const { memory } = readNext(words, false);
    expect(memory?.supplierId).toBe('kettler');
    expect(memory?.fields.buyer).toBeUndefined();
  });

  it('shows the page\'s value read under the field\'s own label where memory\'s place reads another line, disputed', () => {
    const words = [...seller(), ...numberedBlock('Ortwin Sägewerk KG')];
    const { page, memory } = readNext(words, true);
    expect(page.buyer).toContain('Ortwin Sägewerk KG');
    expect(memory?.fields.buyer).toMatchObject({ value: page.buyer, source: 'page', confidence: MEMORY_AGAINST_PAGE });
    expect(memory?.fields.buyer?.evidence).toEqual(expect.arrayContaining(['memory:page-disagrees', 'page:label-specific']));
    expect(memory?.fields.buyer?.evidence.some((e) => e.startsWith('memory:proposed='))).toBe(true);
  });

  it('still reads through memory where the page agrees or reads nothing better', () => {
    const { memory } = readNext([...seller(), ...plainBlock('Ortwin Sägewerk KG')], true);
    expect(memory?.fields.buyer).toMatchObject({ value: 'Ortwin Sägewerk KG', source: 'supplier memory' });
  });
});

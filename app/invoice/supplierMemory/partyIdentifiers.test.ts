import { describe, expect, it } from 'vitest';
import { line } from '../../../testing/syntheticWords.js';
import { extractInvoiceFields, toPlainFields } from '../extractFields.js';
import { learnLesson, memoryPage, readWithMemory, SupplierIndex, type ConfirmedValues } from './index.js';
import { supplierIdentifiers } from './partyIdentifiers.js';

/**
 * Both parties' identifiers on one page: the supplier's GLN under "Lieferant", the buyer's under "Käufer" (and again
 * in the footer), the buyer's VAT ID in its address block with no heading, and one the page labels as the reader's own.
 */
function twoParties(number: string, buyer = 'Nordlicht AG'): ReturnType<typeof line> {
  return [
    ...line('Lieferant', 40, 40),
    ...line('Käufer', 600, 40),
    ...line('GLN 4333741000005', 40, 70),
    ...line('GLN 4304171000002', 600, 70),
    ...line('Brenner Holzbau OHG', 40, 100),
    ...line('Rechnung Nr.', 600, 160),
    ...line(number, 900, 160),
    ...line(buyer, 40, 250),
    ...line('Hafenstrasse 1, 20095 Hamburg', 40, 280),
    ...line('USt-IdNr. DE333333333', 40, 310),
    ...line('Ihre USt-IdNr.: DE222222222', 600, 310),
    ...line('Gesamtbetrag', 500, 500),
    ...line('119,00', 900, 500),
    ...line('USt-IdNr.: DE111111111 Steuernummer: 143/567/89012', 40, 900),
    ...line('GLN 4304171000002', 600, 900),
  ];
}

const confirmed: ConfirmedValues = {
  invoice_number: 'BH-10001',
  issue_date: null,
  due_date: null,
  seller: 'Brenner Holzbau OHG',
  buyer: 'Nordlicht AG',
  currency: 'EUR',
  subtotal: null,
  tax: null,
  total: 119,
};

describe("the supplier's identifiers", () => {
  it('sets aside the buyer’s: under a buyer heading, labelled as the reader’s own, in the confirmed buyer’s block', () => {
    const lines = memoryPage(twoParties('BH-10001')).lines;
    expect(supplierIdentifiers(lines, 'Nordlicht AG')).toEqual({ vat: ['DE111111111'], iban: [], tax: ['14356789012'], gln: ['4333741000005'], phone: [] });
    // Without the confirmed buyer only the headings and labels tell: its block's VAT ID is not known as the buyer's.
    expect(supplierIdentifiers(lines).vat).toEqual(['DE333333333', 'DE111111111']);
  });

  it('a seller heading outranks the confirmed buyer’s block (an engine’s buyer may be a label: "Nummer")', () => {
    const words = [
      ...line('Verkäufer:', 40, 40),
      ...line('Nummer : 12345676', 40, 70),
      ...line('Global Supplies Ltd.', 40, 100),
      ...line('USt.-Id.-Nr. : GB123456789', 40, 130),
      ...line('Käufer:', 40, 200),
      ...line('Nummer : 75969813', 40, 230),
      ...line('Metallbau Leipzig GmbH', 40, 260),
      ...line('USt.-Id.-Nr. : DE123456789', 40, 290),
    ];
    expect(supplierIdentifiers(memoryPage(words).lines, 'Nummer').vat).toEqual(['GB123456789']);
  });

  it('never learns a buyer identifier, and recognises the supplier by its own on its next invoice', () => {
    const lesson = learnLesson(twoParties('BH-10001'), confirmed);
    expect(lesson.identity).toMatchObject({ vatIds: ['DE111111111'], glns: ['4333741000005'], taxNumbers: ['14356789012'] });
    const json = JSON.stringify(lesson.identity);
    for (const buyers of ['DE222222222', 'DE333333333', '4304171000002']) expect(json).not.toContain(buyers);
    // The next invoice goes to another buyer: the supplier's identifiers still name it, with no name learned.
    const index = new SupplierIndex([{ supplierId: 'brenner', supplierName: 'Brenner', pageId: 'p1', lesson: { ...lesson, identity: { ...lesson.identity, name: null } } }]);
    const next = twoParties('BH-10002', 'Südwind KG');
    const memory = readWithMemory(next, toPlainFields(extractInvoiceFields({ words: next })), index, new Map());
    expect(memory?.supplierId).toBe('brenner');
    expect(memory?.recognition).toContain('supplier:identifier');
  });

  it('a page that prints the supplier’s GLN as the buyer’s (the supplier buying) is not that supplier’s', () => {
    const lesson = learnLesson(twoParties('BH-10001'), confirmed);
    const index = new SupplierIndex([{ supplierId: 'brenner', supplierName: 'Brenner', pageId: 'p1', lesson: { ...lesson, identity: { ...lesson.identity, name: null } } }]);
    const buying = [...line('Käufer', 40, 40), ...line('GLN 4333741000005', 40, 70), ...line('Rechnung Nr. 77', 600, 160)];
    expect(readWithMemory(buying, toPlainFields(extractInvoiceFields({ words: buying })), index, new Map())).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import type { Word } from '../../model/extraction.js';
import { extractInvoiceFields, toPlainFields } from '../extractFields.js';
import { line } from '../../../testing/syntheticWords.js';
import { LOW_FIELD_CONFIDENCE } from '../../review/attention.js';
import { learnLesson, parseLesson, readWithMemory, SupplierIndex, type ConfirmedValues, type TaughtLesson } from './index.js';
import { MEMORY_AGAINST_PAGE } from './readThroughMemory.js';

/**
 * One supplier's layout: its name in the letterhead, its VAT ID in the footer; the number printed under a heading
 * that no generic label names ("Beleg"), the date in US order, the buyer beside "Kunde".
 */
function invoicePage(v: { number: string; date: string; buyer: string; net: string; vat: string; gross: string }, seller = 'Kettler Feinmechanik GmbH'): Word[] {
  return [
    ...line(seller, 40, 40),
    ...line('Werkstrasse 4, 12345 Musterstadt', 40, 70),
    ...line('Kunde', 40, 160),
    ...line(v.buyer, 300, 160),
    ...line('Beleg', 700, 160),
    ...line(v.number, 700, 190),
    ...line('Datum', 40, 220),
    ...line(v.date, 300, 220),
    ...line('Netto', 500, 400),
    ...line(v.net, 800, 400),
    ...line('MwSt 19%', 500, 430),
    ...line(v.vat, 800, 430),
    ...line('Gesamtbetrag EUR', 500, 460),
    ...line(v.gross, 800, 460),
    ...line('USt-IdNr.: DE123456789 IBAN DE02120300000000202051', 40, 700),
  ];
}

const first = invoicePage({ number: 'KF-2024-0007', date: '03/04/2024', buyer: 'Nordlicht AG', net: '100,00', vat: '19,00', gross: '119,00' });
const firstConfirmed: ConfirmedValues = {
  invoice_number: 'KF-2024-0007',
  issue_date: '2024-03-04',
  due_date: null,
  seller: 'Kettler Feinmechanik GmbH',
  buyer: 'Nordlicht AG',
  currency: 'EUR',
  subtotal: 100,
  tax: 19,
  total: 119,
};
const second = invoicePage({ number: 'KF-2024-0019', date: '05/06/2024', buyer: 'Südwind KG', net: '250,00', vat: '47,50', gross: '297,50' });

const taught = (lesson = learnLesson(first, firstConfirmed), supplierId = 'kettler'): TaughtLesson => ({ supplierId, supplierName: 'Kettler Feinmechanik GmbH', pageId: 'page-1', lesson });
const readSecond = (lessons: TaughtLesson[], records = new Map()) => readWithMemory(second, toPlainFields(extractInvoiceFields({ words: second })), new SupplierIndex(lessons), records);

describe('supplier memory', () => {
  it('learns where and how fields are printed, never the per-invoice values', () => {
    const lesson = learnLesson(first, firstConfirmed);
    expect(lesson.hints.invoice_number?.[0]).toMatchObject({ anchor: 'beleg', relation: 'below', step: 1 });
    expect(lesson.hints.issue_date?.[0]).toMatchObject({ anchor: 'datum', relation: 'right' });
    expect(lesson.format).toEqual({ monthFirst: true, decimalComma: true, currency: 'EUR' });
    expect(lesson.identity.name).toBe('Kettler Feinmechanik GmbH');
    const json = JSON.stringify(lesson);
    for (const perInvoice of ['KF-2024-0007', '2024-03-04', '03/04/2024', 'Nordlicht', '119']) expect(json).not.toContain(perInvoice);
  });

  it('reads the next invoice of the supplier through its memory, in its date order, and says so', () => {
    const memory = readSecond([taught()]);
    expect(memory?.supplierId).toBe('kettler');
    expect(memory?.taughtBy).toBe('page-1');
    expect(memory?.fields.invoice_number).toMatchObject({ value: 'KF-2024-0019', source: 'supplier memory' });
    // Month first, as the supplier prints it (a German page would read 5 June as 6 May).
    expect(memory?.fields.issue_date?.value).toBe('2024-05-06');
    expect(memory?.fields.buyer?.value).toBe('Südwind KG');
    expect(memory?.fields.seller).toMatchObject({ value: 'Kettler Feinmechanik GmbH', source: 'supplier memory' });
    // The totals close under BT-109 + BT-110 = BT-112 with memory's amounts: high confidence.
    expect(memory?.fields.total).toMatchObject({ value: 297.5 });
    expect(memory?.fields.total?.confidence).toBeGreaterThanOrEqual(0.95);
  });

  it('recognises nobody on another supplier\'s page, and discounts an identifier two suppliers share', () => {
    const other = invoicePage({ number: 'X-1', date: '01/02/2024', buyer: 'Nordlicht AG', net: '1,00', vat: '0,19', gross: '1,19' }, 'Brenner Holzbau OHG');
    const lesson = learnLesson(first, firstConfirmed);
    // A second supplier whose page printed the same VAT ID (the buyer's): that identifier names neither.
    const sharing = taught({ ...lesson, identity: { ...lesson.identity, name: 'Drittfirma Beispiel' } }, 'third');
    const index = new SupplierIndex([taught(), sharing]);
    expect(readWithMemory(other, toPlainFields(extractInvoiceFields({ words: other })), index, new Map())).toBeNull();
  });

  it('files a document under a recognised supplier only if the confirmed seller fits its names', () => {
    const index = new SupplierIndex([taught()]);
    expect(index.fitsName('kettler', 'KETTLER Feinmechanik GmbH')).toBe(true);
    expect(index.fitsName('kettler', 'Kettler Feinmechanik GmbH, Werk 2')).toBe(true);
    expect(index.fitsName('kettler', null)).toBe(true);
    // The same example VAT ID on another seller's page: the analyst's name decides.
    expect(index.fitsName('kettler', 'Taxiunternehmen TX GmbH')).toBe(false);
  });

  it('a memory value the page reading disputes is shown low, low enough to raise needs-attention', () => {
    const plain = toPlainFields(extractInvoiceFields({ words: second }));
    const memory = readWithMemory(second, { ...plain, invoice_number: 'KF-2024-9999' }, new SupplierIndex([taught()]), new Map());
    expect(memory?.fields.invoice_number).toMatchObject({ value: 'KF-2024-0019', confidence: MEMORY_AGAINST_PAGE });
    expect(memory?.fields.invoice_number?.evidence).toContain('memory:page-disagrees');
    expect(MEMORY_AGAINST_PAGE).toBeLessThan(LOW_FIELD_CONFIDENCE);
  });

  it('a supplier whose values keep being corrected loses confidence', () => {
    const trusted = readSecond([taught()]);
    const doubted = readSecond([taught()], new Map([['kettler', { kept: 1, corrected: 5 }]]));
    expect(doubted!.fields.total!.confidence).toBeLessThan(trusted!.fields.total!.confidence);
    expect(doubted!.fields.total!.confidence).toBeLessThan(0.5);
    expect(doubted!.fields.total!.evidence).toContain('memory:track-record=1/6');
  });

  it('refuses crafted lessons', () => {
    expect(parseLesson('not json')).toBeNull();
    expect(parseLesson(JSON.stringify({ version: 1 }))).toBeNull();
    const good = learnLesson(first, firstConfirmed);
    expect(parseLesson(JSON.stringify(good))).toEqual(good);
    const huge = { ...good, identity: { ...good.identity, fingerprint: Array.from({ length: 100_000 }, (_, i) => i) } };
    expect(parseLesson(JSON.stringify(huge))).toBeNull();
    expect(parseLesson(JSON.stringify({ ...good, hints: { issue_date: [{ anchor: 'x'.repeat(5000), relation: 'right', step: 1, anchorY: 0, shape: null }] } }))).toBeNull();
  });
});

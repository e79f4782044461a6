import { describe, expect, it } from 'vitest';
import type { Word } from '../../model/extraction.js';
import { CLOSED_BY_IDENTITY } from '../closingTotals.js';
import { extractInvoiceFields, toPlainFields } from '../extractFields.js';
import { line } from '../../../testing/syntheticWords.js';
import { LOW_FIELD_CONFIDENCE } from '../../review/attention.js';
import { genericScores, learnLesson, readWithMemory, storedScores, SupplierIndex, type ConfirmedValues, type GenericScores } from './index.js';
import { pageLeads, pageTotalsWitnessed } from './pageTrust.js';
import { MEMORY_AGAINST_PAGE } from './readThroughMemory.js';

/** One supplier's layout: the number under a heading no generic label names, the totals beside their labels. */
function invoicePage(v: { number: string; net: string; vat: string; gross: string }): Word[] {
  return [
    ...line('Kettler Feinmechanik GmbH', 40, 40),
    ...line('Beleg', 700, 160),
    ...line(v.number, 700, 190),
    ...line('Netto', 500, 400),
    ...line(v.net, 800, 400),
    ...line('MwSt 19%', 500, 430),
    ...line(v.vat, 800, 430),
    ...line('Gesamtbetrag EUR', 500, 460),
    ...line(v.gross, 800, 460),
    ...line('USt-IdNr.: DE123456789', 40, 700),
  ];
}

const confirmed: ConfirmedValues = { invoice_number: 'KF-7', issue_date: null, due_date: null, seller: 'Kettler Feinmechanik GmbH', buyer: null, currency: 'EUR', subtotal: 100, tax: 19, total: 119 };
const first = invoicePage({ number: 'KF-7', net: '100,00', vat: '19,00', gross: '119,00' });
const second = invoicePage({ number: 'KF-19', net: '250,00', vat: '47,50', gross: '297,50' });
const plain = toPlainFields(extractInvoiceFields({ words: second }));
const read = (lesson: ConfirmedValues, generic = plain, scores?: GenericScores) =>
  readWithMemory(second, generic, new SupplierIndex([{ supplierId: 'kettler', supplierName: 'Kettler', pageId: 'p1', lesson: learnLesson(first, lesson) }]), new Map(), scores);

describe('memory against a trustworthy page reading', () => {
  it('a page value with calibrated high evidence or a specific label leads against memory, low, with memory\'s value in its evidence', () => {
    // The page prints another number under a specific label than the one memory finds in its learned place.
    const generic = { ...plain, invoice_number: 'KF-2024-0099' };
    const trusted: GenericScores = { invoice_number: { confidence: 0.9, label: 'Rechnungsnummer', evidence: ['label:specific', 'calibrated'] } };
    const memory = read(confirmed, generic, trusted);
    expect(memory?.fields.invoice_number).toMatchObject({ value: 'KF-2024-0099', source: 'page', confidence: MEMORY_AGAINST_PAGE });
    expect(memory?.fields.invoice_number?.evidence).toEqual(['memory:page-disagrees', 'page:trusted', 'memory:proposed=KF-19']);
    expect(MEMORY_AGAINST_PAGE).toBeLessThan(LOW_FIELD_CONFIDENCE);
    // Short of the high band but read under a label of the field's own vocabulary: the page still leads.
    for (const specific of [{ confidence: 0.7, evidence: ['label:specific'] }, { confidence: 0.7, label: 'Rechnungsnummer' }]) {
      const labelled = read(confirmed, generic, { invoice_number: specific });
      expect(labelled?.fields.invoice_number).toMatchObject({ value: 'KF-2024-0099', source: 'page', confidence: MEMORY_AGAINST_PAGE });
      expect(labelled?.fields.invoice_number?.evidence).toEqual(['memory:page-disagrees', 'page:label-specific', 'memory:proposed=KF-19']);
    }
    // A generic label short of the high band, or no evidence given: memory's value stands, disputed.
    for (const scores of [{ invoice_number: { confidence: 0.5, label: 'Rechnung', evidence: ['label:generic'] } }, undefined]) {
      expect(read(confirmed, generic, scores)?.fields.invoice_number).toMatchObject({ value: 'KF-19', source: 'supplier memory', confidence: MEMORY_AGAINST_PAGE });
    }
  });

  it('a total read under a label naming the tax it includes ("Total Inclusive GST", "Total Incl. of SST") is the field\'s own label', () => {
    for (const label of ['Total Inclusive GST 6%:', 'Total Incl. of GST', 'Total including VAT', 'TOTAL INCLUSIVE OF SST'])
      expect(pageLeads('total', { total: { confidence: 0.5, label } }, false, false, true, 10, 109.7)).toBe('page:label-specific');
    // A bare "Total", or the amount without its tax, names no total memory must yield to.
    for (const label of ['Total', 'Total Exclusive of GST']) expect(pageLeads('total', { total: { confidence: 0.5, label } }, false, false, true, 10, 109.7)).toBeNull();
  });

  it('the page\'s amounts lead where they close BT-109 + BT-110 = BT-112 and memory\'s do not', () => {
    // A wrong correction taught the VAT amount as the total: memory reads 47.50 as the total on the next page.
    const wrongly = read({ ...confirmed, total: 19 });
    expect(wrongly?.fields.total?.value).toBe(47.5);
    const closing: GenericScores = {
      subtotal: { confidence: 0.75, label: 'Netto', evidence: ['label:generic', 'arithmetic:total=subtotal+tax:holds'] },
      tax: { confidence: 0.75, label: 'MwSt', evidence: ['label:generic', 'arithmetic:total=subtotal+tax:holds'] },
      total: { confidence: 0.75, label: 'Gesamtbetrag', evidence: ['label:generic', 'arithmetic:total=subtotal+tax:holds'] },
    };
    const memory = read({ ...confirmed, total: 19 }, plain, closing);
    expect(memory?.fields.total).toMatchObject({ value: 297.5, source: 'page', confidence: MEMORY_AGAINST_PAGE });
    expect(memory?.fields.total?.evidence).toContain('arithmetic:page-totals-close');
    // An amount the identity itself supplied is no witness of it: memory's value stands, disputed (a correction that
    // taught the net amount as the total; memory's total being the page's own tax is another matter, below).
    const derived = { ...closing, total: { ...closing.total!, label: `Gesamtbetrag (${CLOSED_BY_IDENTITY})` } };
    expect(read({ ...confirmed, total: 100 }, plain, derived)?.fields.total).toMatchObject({ value: 250, source: 'supplier memory' });
    // Memory's total is the tax the page reads: a total is never its own tax, the page's total leads.
    expect(read({ ...confirmed, total: 19 }, plain, derived)?.fields.total).toMatchObject({ value: 297.5, source: 'page', confidence: MEMORY_AGAINST_PAGE });
    expect(read({ ...confirmed, total: 19 }, plain, derived)?.fields.total?.evidence).toContain('arithmetic:memory-read-the-tax');
  });

  it('a zero tax closes the identity for any total: no witness against memory', () => {
    const scores: GenericScores = {
      subtotal: { confidence: 0.75, label: 'Net Total', evidence: ['label:generic'] },
      tax: { confidence: 0.75, label: 'Tax', evidence: ['label:generic'] },
      total: { confidence: 0.75, label: 'Net Total', evidence: ['label:generic'] },
    };
    expect(pageTotalsWitnessed({ subtotal: 35.2, tax: 0, total: 35.2 }, scores)).toBe(false);
    expect(pageTotalsWitnessed({ subtotal: 33.21, tax: 1.99, total: 35.2 }, scores)).toBe(true);
  });

  it('memory whose own amounts close keeps them; agreeing values are untouched', () => {
    const scores = genericScores(extractInvoiceFields({ words: second }), second.map((w) => w.text).join(' '));
    const memory = read(confirmed, plain, scores);
    expect(memory?.fields.total).toMatchObject({ value: 297.5, source: 'supplier memory' });
    expect(memory?.fields.total?.evidence).toContain('arithmetic:total=subtotal+tax:holds');
  });

  it('on a receipt, a total on the smallest coin leads against memory\'s a coin\'s fraction off it (memory learned the amount before rounding)', () => {
    const scores: GenericScores = { total: { confidence: 0.5, label: 'Total RM' } };
    expect(pageLeads('total', scores, false, false, true, 49.39, 49.4, { receipt: true })).toBe('arithmetic:cash-rounding');
    // Not on an invoice, not where memory's amount is on the coin too or the page's is not, not a coin or more apart.
    expect(pageLeads('total', scores, false, false, true, 49.39, 49.4)).toBeNull();
    expect(pageLeads('total', scores, false, false, true, 49.35, 49.4, { receipt: true })).toBeNull();
    expect(pageLeads('total', scores, false, false, true, 49.39, 49.41, { receipt: true })).toBeNull();
    expect(pageLeads('total', scores, false, false, true, 48.39, 49.4, { receipt: true })).toBeNull();
  });

  it('reads a stored page\'s confidence and labels, and ignores what is not a field source', () => {
    const scores = storedScores({ total: { confidence: 0.95, label: 'Gesamt' }, tax: 'junk', subtotal: { confidence: 'high' }, lines: [] });
    expect(scores).toEqual({ total: { confidence: 0.95, label: 'Gesamt' } });
  });
});

import { describe, expect, it } from 'vitest';
import type { Extraction, Word } from '../../model/extraction.js';
import { line } from '../../../testing/syntheticWords.js';
import { extractInvoiceFields, toPlainFields } from '../extractFields.js';
import { mergeDocumentFields } from '../review/documentView.js';
import { learnLesson, overlayDocumentMemory, SupplierIndex, withoutSupplierMemory, type ConfirmedValues } from './index.js';

const HEIGHT = 1000;

/** A page as the engine reads it alone: its words, and its own invoice fields. */
function pageOf(words: Word[]): Extraction {
  return {
    markdown: words.map((w) => w.text).join(' '),
    elements: [],
    page: { width: 1240, height: HEIGHT },
    engine: { id: 'bundled', version: 'test' } as Extraction['engine'],
    stats: {} as Extraction['stats'],
    words,
    warnings: [],
    fields: { invoice: toPlainFields(extractInvoiceFields({ words })), invoiceSources: {} },
  };
}

/**
 * A two-page invoice of one supplier: the number under a heading on page 1, which ends with a carried-over sum
 * ("Übertrag") that a page read alone takes for its total; the real total on page 2 under "Endbetrag".
 */
function twoPages(number: string, carried: string, total: string): [Word[], Word[]] {
  return [
    [
      ...line('Kettler Feinmechanik GmbH', 40, 40),
      ...line('USt-IdNr.: DE123456789', 40, 70),
      ...line('Beleg', 700, 160),
      ...line(number, 700, 190),
      ...line('Pos 1 Schrauben', 40, 400),
      ...line(carried, 800, 400),
      ...line('Gesamtbetrag Seite', 500, 900),
      ...line(carried, 800, 900),
    ],
    [...line('Kettler Feinmechanik GmbH', 40, 40), ...line('Pos 2 Muttern', 40, 200), ...line('5,00', 800, 200), ...line('Endbetrag', 500, 500), ...line(total, 800, 500)],
  ];
}

const confirmed: ConfirmedValues = { invoice_number: 'KF-0007', issue_date: null, due_date: null, seller: 'Kettler Feinmechanik GmbH', buyer: null, currency: 'EUR', subtotal: null, tax: null, total: 124 };

describe('memory over a document of several pages', () => {
  const [a, b] = twoPages('KF-0007', '119,00', '124,00');
  // Learned as the app learns: the pages stacked.
  const lesson = learnLesson([...a, ...b.map((w) => ({ ...w, box: [w.box[0], w.box[1] + HEIGHT, w.box[2], w.box[3] + HEIGHT] as Word['box'] }))], confirmed);
  const index = new SupplierIndex([{ supplierId: 'kettler', supplierName: 'Kettler', pageId: 'p1', lesson }]);

  it('puts each value on the page that prints it, so the document shows the total of its last page', () => {
    const [c, d] = twoPages('KF-0019', '240,00', '245,00');
    const pages = [pageOf(c), pageOf(d)];
    // Read page by page and merged, the carried-over sum of page 1 would be the document's total.
    expect(mergeDocumentFields(pages.map((extraction, i) => ({ pageId: `p${i}`, extraction })))?.values.total).toBe(240);
    const overlaid = overlayDocumentMemory(pages, index, new Map());
    const merged = mergeDocumentFields(overlaid.map((extraction, i) => ({ pageId: `p${i}`, extraction })))!;
    expect(merged.values).toMatchObject({ invoice_number: 'KF-0019', total: 245, seller: 'Kettler Feinmechanik GmbH' });
    expect(merged.sources.total).toMatchObject({ pageId: 'p1' });
    expect(merged.sources.invoice_number).toMatchObject({ pageId: 'p0' });
  });

  it('comes off again: laid twice it is the same, and taken off it is the engine’s reading', () => {
    const [c, d] = twoPages('KF-0019', '240,00', '245,00');
    const pages = [pageOf(c), pageOf(d)];
    const once = overlayDocumentMemory(pages, index, new Map());
    expect(overlayDocumentMemory(once, index, new Map())).toEqual(once);
    expect(once.map(withoutSupplierMemory)).toEqual(pages);
  });

  it('starts the invoice on a page the engine did not take for one where memory reads its number: the document\'s reading heads it', () => {
    const [c, d] = twoPages('KF-0019', '240,00', '245,00');
    // The date of issue under the number on page 1; page 2 prints only a delivery date, which page 2 read alone takes.
    const first = [...c, ...line('16.09.2024', 700, 220)];
    const second = [...d, ...line('Geliefert', 40, 120), ...line('01.08.2024', 300, 120)];
    expect(pageOf(second).fields?.invoice).toMatchObject({ issue_date: '2024-08-01' });
    const pages = [{ ...pageOf(first), fields: {} }, pageOf(second)];
    const overlaid = overlayDocumentMemory(pages, index, new Map());
    const merged = mergeDocumentFields(overlaid.map((extraction, i) => ({ pageId: `p${i}`, extraction })))!;
    expect(merged.values).toMatchObject({ invoice_number: 'KF-0019', issue_date: '2024-09-16', total: 245 });
    // With the document reading's own confidence, as the page's reading would carry it.
    expect(merged.sources.issue_date).toMatchObject({ pageId: 'p0' });
    expect(typeof merged.sources.issue_date!.confidence).toBe('number');
    // Where the later page's own reading agrees with the document's, it keeps the value with its boxes.
    expect(merged.sources.total).toMatchObject({ pageId: 'p1' });
    expect(overlaid.map(withoutSupplierMemory)).toEqual(pages);
  });

  it('makes an invoice of a page the engine did not take for one, once memory reads its fields where its lesson says', () => {
    const [c, d] = twoPages('KF-0019', '240,00', '245,00');
    const pages = [pageOf(c), pageOf(d)].map((p) => ({ ...p, fields: {} }));
    const overlaid = overlayDocumentMemory(pages, index, new Map());
    expect(mergeDocumentFields(overlaid.map((extraction, i) => ({ pageId: `p${i}`, extraction })))?.values).toMatchObject({ invoice_number: 'KF-0019', total: 245 });
    expect(overlaid.map(withoutSupplierMemory)).toEqual(pages);
    // Another supplier's page: nothing recognised, nothing made.
    const stranger = pageOf([...line('Brenner Holzbau OHG', 40, 40), ...line('Endbetrag', 500, 500), ...line('9,00', 800, 500)]);
    expect(overlayDocumentMemory([{ ...stranger, fields: {} }], index, new Map())).toEqual([{ ...stranger, fields: {} }]);
  });
});

describe('memory over a page whose own reading earns trust', () => {
  const letterhead = (number: string): Word[] => [...line('Kettler Feinmechanik GmbH', 40, 40), ...line('USt-IdNr.: DE123456789', 40, 70), ...line('Beleg', 700, 160), ...line(number, 700, 190)];
  // The next page prints, under a specific label, another number than the one under the learned heading.
  const page = (number: string, printed: string): Word[] => [...letterhead(number), ...line('Rechnungsnummer', 40, 300), ...line(printed, 300, 300)];
  const lesson = learnLesson(letterhead('KF-0007'), confirmed);
  const index = new SupplierIndex([{ supplierId: 'kettler', supplierName: 'Kettler', pageId: 'p1', lesson }]);
  /** The engine's page: its stored confidence for the number (as native-models/bundled/invoiceFields.ts writes it). */
  const stored = (confidence: number, label = 'Rechnungsnummer'): Extraction => {
    const read = pageOf(page('KF-0019', 'KF-0099'));
    const source = { text: 'KF-0099', label, boxes: [], confidence, source: 'page' };
    return { ...read, fields: { ...read.fields, invoiceSources: { invoice_number: source } } };
  };

  it('lets the stored page value lead where its confidence is in the calibrated high band or its label is specific, disputed', () => {
    expect(pageOf(page('KF-0019', 'KF-0099')).fields?.invoice).toMatchObject({ invoice_number: 'KF-0099' });
    const [trusted] = overlayDocumentMemory([stored(0.9)], index, new Map());
    const sources = trusted!.fields!.invoiceSources as Record<string, { source: string; evidence: string[]; confidence: number }>;
    expect(trusted!.fields!.invoice).toMatchObject({ invoice_number: 'KF-0099' });
    expect(sources.invoice_number).toMatchObject({ source: 'page', confidence: 0.5 });
    expect(sources.invoice_number!.evidence).toContain('memory:proposed=KF-0019');
    // Short of the high band but under a label of the field's own vocabulary: the page still leads, disputed.
    const [labelled] = overlayDocumentMemory([stored(0.7)], index, new Map());
    expect(labelled!.fields!.invoice).toMatchObject({ invoice_number: 'KF-0099' });
    expect((labelled!.fields!.invoiceSources as Record<string, { evidence: string[] }>).invoice_number!.evidence).toContain('page:label-specific');
    // Under a generic label ("Rechnung") and short of the high band, memory's value stands (disputed).
    const [doubted] = overlayDocumentMemory([stored(0.5, 'Rechnung')], index, new Map());
    expect(doubted!.fields!.invoice).toMatchObject({ invoice_number: 'KF-0019' });
  });
});

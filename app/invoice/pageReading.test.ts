import { describe, expect, it } from 'vitest';
import { extractInvoiceFields, invoiceReadingSchema, pageReading, wordsFromLayoutText } from './index.js';

const page = (totalLine: string): string =>
  [
    'ACME GmbH',
    'Rechnungsnr.:   RE-2024-0042',
    'Rechnungsdatum  Fällig am',
    '03.04.2024      17.04.2024',
    'Beschreibung          Menge    Einzelpreis    Betrag',
    'Widget                2        10,00          20,00',
    'Gadget service        1        1.234,50       1.234,50',
    'Zwischensumme                                 1.254,50 EUR',
    'MwSt. 19%                                     238,36 EUR',
    totalLine,
  ].join('\n');

const read = (text: string) => pageReading(extractInvoiceFields({ words: wordsFromLayoutText(text) }), text);

describe('pageReading: the review shape of a page reading', () => {
  it('carries value, source, label, boxes and a confidence raised by the arithmetic', () => {
    const reading = read(page('Gesamtbetrag                                  1.492,86 EUR'));
    expect(invoiceReadingSchema.safeParse(reading).success).toBe(true);
    expect(reading.source).toBe('page');
    const total = reading.fields.total!;
    expect(total).toMatchObject({ value: 1492.86, source: 'page', text: '1.492,86 EUR', label: 'Gesamtbetrag', xmlPath: null });
    expect(total.location!.page).toBe(1);
    expect(total.location!.boxes.length).toBeGreaterThan(0);
    expect(total.evidence).toContain('arithmetic:total=subtotal+tax:holds');
    expect(reading.fields.tax!.evidence).toContain('arithmetic:tax=subtotal×rate:holds');
    expect(reading.fields.subtotal!.evidence).toContain('arithmetic:lines=subtotal:holds');
    expect(total.confidence).toBeGreaterThan(0.9);
    expect(reading.lines.every((l) => l.confidence > 0.9)).toBe(true);
  });

  it('lowers the confidence of amounts whose arithmetic fails', () => {
    const good = read(page('Gesamtbetrag                                  1.492,86 EUR'));
    const bad = read(page('Gesamtbetrag                                  1.592,86 EUR'));
    expect(bad.fields.total!.value).toBe(1592.86);
    expect(bad.fields.total!.evidence).toContain('arithmetic:total=subtotal+tax:fails');
    expect(bad.fields.total!.confidence).toBeLessThan(good.fields.total!.confidence - 0.4);
  });

  it('gives an unlabelled reading less confidence than a labelled one', () => {
    const reading = read(page('Gesamtbetrag                                  1.492,86 EUR'));
    expect(reading.fields.seller!.label).toBeNull();
    expect(reading.fields.seller!.confidence).toBeLessThan(reading.fields.invoice_number!.confidence);
  });

  it('maps stacked document coordinates back to each page', () => {
    const fields = extractInvoiceFields({ words: wordsFromLayoutText(page('Gesamtbetrag                                  1.492,86 EUR')) });
    // Two pages of 60 px: the layout's 12 px lines 6.. fall on page 2.
    const reading = pageReading(fields, '', [{ height: 60 }, { height: 60 }]);
    expect(reading.fields.invoice_number!.location!.page).toBe(1);
    const total = reading.fields.total!.location!;
    expect(total.page).toBe(2);
    expect(total.boxes[0]![1]).toBe(9 * 12 - 60);
  });
});

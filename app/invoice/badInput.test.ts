/**
 * Bad input for the field reader: no labels, a language it has no labels for, a credit note with negative amounts,
 * several invoices in one document. Fields stay null (or are read right) with low confidence; nothing throws.
 */
import { describe, expect, it } from 'vitest';
import { extractInvoiceFields, pageReading, toPlainFields, wordsFromLayoutText } from './index.js';

const read = (text: string) => {
  const fields = extractInvoiceFields({ words: wordsFromLayoutText(text) });
  return { plain: toPlainFields(fields), reading: pageReading(fields, text) };
};

describe('field reading on bad input', () => {
  it('reads nothing from a page without labels, and nothing it finds is confident', () => {
    const { plain, reading } = read(['Dear colleague,', '', 'thank you for the meeting on Tuesday.', 'We will send the slides soon.', '', 'Best regards'].join('\n'));
    expect(plain.invoice_number).toBeNull();
    expect(plain.total).toBeNull();
    expect(plain.lines).toEqual([]);
    for (const field of Object.values(reading.fields)) if (field) expect(field.confidence).toBeLessThan(0.5);
  });

  it('leaves money and number fields null on a page in a language without labels (Finnish), rather than guessing', () => {
    const { plain } = read(['Lasku', 'Laskun numero   4711', 'Päivämäärä      12.03.2024', 'Yhteensä        1 234,50', 'Arvonlisävero   234,50'].join('\n'));
    expect(plain.total).toBeNull();
    expect(plain.tax).toBeNull();
    expect(plain.invoice_number).toBeNull();
  });

  it('reads a credit note with negative totals as negative, the arithmetic holding', () => {
    const { plain, reading } = read(
      ['Gutschrift Nr. GS-2024-7', 'Datum: 05.02.2024', 'Nettobetrag            -100,00 EUR', 'MwSt. 19%               -19,00 EUR', 'Gesamtbetrag           -119,00 EUR'].join('\n'),
    );
    expect(plain).toMatchObject({ invoice_number: 'GS-2024-7', subtotal: -100, tax: -19, total: -119 });
    expect(reading.fields.total!.evidence).toContain('arithmetic:total=subtotal+tax:holds');
  });

  it('does not crash on several invoices in one document, and flags the total it picked as unconfirmed when they mix', () => {
    const one = (n: number, total: string, net: string) => [`Invoice number: A-${n}`, `Invoice date: 0${n}.01.2024`, `Subtotal: ${net} EUR`, `Total: ${total} EUR`, ''];
    const { plain, reading } = read([...one(1, '119.00', '100.00'), ...one(2, '238.00', '100.00')].join('\n'));
    expect(plain.invoice_number).toBe('A-1');
    expect(reading.fields.total).not.toBeNull();
    // Net 100 with a total of 238: no identity confirms it, so it is not offered with high confidence.
    expect(reading.fields.total!.confidence).toBeLessThan(0.8);
  });

  it('survives empty and degenerate input', () => {
    expect(read('').plain.total).toBeNull();
    expect(() => read('€€€ 1,2,3 ,,, ..\n\n\t%%%')).not.toThrow();
    expect(() => extractInvoiceFields({ words: [{ text: 'Total', box: [0, 0, 0, 0], confidence: null }] })).not.toThrow();
  });
});

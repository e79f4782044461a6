/** `<stem>.fields.json` of a page read through supplier memory: memory's values, and whose memory gave them. */
import { describe, expect, it } from 'vitest';
import { learnLesson, overlaySupplierMemory, SupplierIndex } from '../../app/invoice/supplierMemory/index.js';
import { extractInvoiceFields, toPlainFields } from '../../app/invoice/index.js';
import type { Extraction } from '../../app/model/extraction.js';
import { line } from '../../testing/syntheticWords.js';
import { documentFieldsJson } from './ocrCommand.js';

const words = (number: string, gross: string) => [
  ...line('Kettler Feinmechanik GmbH', 40, 40),
  ...line('Beleg', 700, 160),
  ...line(number, 700, 190),
  ...line('Rechnungsdatum', 40, 220),
  ...line('03.04.2024', 400, 220),
  ...line('Gesamtbetrag', 500, 460),
  ...line(gross, 800, 460),
];

function extraction(number: string, gross: string): Extraction {
  const w = words(number, gross);
  return {
    markdown: w.map((x) => x.text).join(' '),
    elements: [],
    page: { width: 1240, height: 1754 },
    engine: { id: 'bundled', version: 'test' } as Extraction['engine'],
    stats: {} as Extraction['stats'],
    words: w,
    warnings: [],
    // The engine's shape: plain values (the bundled engine adds each value's source).
    fields: { invoice: toPlainFields(extractInvoiceFields({ words: w })), invoiceSources: {} },
  };
}

describe('recto ocr with supplier memory', () => {
  it('writes the values memory gave and whose memory it was', () => {
    const lesson = learnLesson(words('KF-0007', '119,00'), { invoice_number: 'KF-0007', issue_date: '2024-04-03', due_date: null, seller: 'Kettler Feinmechanik GmbH', buyer: null, currency: 'EUR', subtotal: null, tax: null, total: 119 });
    const index = new SupplierIndex([{ supplierId: 's1', supplierName: 'Kettler Feinmechanik GmbH', pageId: 'page-a', lesson }]);
    const read = overlaySupplierMemory(extraction('KF-0019', '297,50'), index, new Map());
    const json = documentFieldsJson([read], null, 'auto');
    expect(json).toMatchObject({ invoice_number: 'KF-0019', seller: 'Kettler Feinmechanik GmbH', total: 297.5, currency: 'EUR', source: 'page' });
    expect(json.supplier_memory).toMatchObject({ supplier: 'Kettler Feinmechanik GmbH', taught_by: 'page-a' });
    expect(json.supplier_memory!.fields).toContain('invoice_number');
    // Without memory the number under a heading no label names is not read.
    expect(documentFieldsJson([extraction('KF-0019', '297,50')], null, 'auto').invoice_number).not.toBe('KF-0019');
  });
});

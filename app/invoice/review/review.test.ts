import { describe, expect, it } from 'vitest';
import type { Extraction } from '../../model/extraction.js';
import {
  applyFieldCorrections,
  breakdownDisagreements,
  commaDecimal,
  correctedPaths,
  detectNumberFormat,
  documentRuleResults,
  dotDecimal,
  formatAmountIn,
  isEditablePath,
  linesForText,
  parseAmountIn,
  readEngineFields,
  reviewRules,
  valueAt,
} from './index.js';

const extraction: Pick<Extraction, 'fields' | 'words'> = {
  words: [
    { text: 'Total', box: [10, 100, 50, 110], confidence: 0.99 },
    { text: '154,70', box: [60, 100, 100, 110], confidence: 0.62 },
    { text: 'Beratung', box: [10, 50, 50, 60], confidence: 0.95 },
    { text: '2', box: [60, 50, 65, 60], confidence: 0.9 },
    { text: '50,00', box: [70, 50, 90, 60], confidence: 0.9 },
    { text: '100,00', box: [95, 50, 120, 60], confidence: 0.8 },
  ],
  fields: {
    invoice: {
      invoice_number: 'RE-1', issue_date: '2024-03-01', due_date: null, seller: 'Muster GmbH', buyer: 'Beispiel AG', currency: 'EUR',
      subtotal: 130, tax: 24.7, total: 154.7, lines: [{ description: 'Beratung', quantity: 2, unit_price: 50, amount: 100 }, { description: 'Material', quantity: 3, unit_price: 10, amount: 30 }],
    },
    invoiceSources: {
      total: { text: '154,70', label: 'Total', boxes: [[60, 100, 100, 110]] },
      lines: [{ text: 'Beratung', label: null, boxes: [[10, 50, 50, 60], [60, 50, 65, 60], [70, 50, 90, 60], [95, 50, 120, 60]] }],
    },
  },
};

describe('engine fields adapter', () => {
  it("reads today's field shape with boxes, and confidence from the words under them", () => {
    const fields = readEngineFields(extraction)!;
    expect(fields.values.total).toBe(154.7);
    expect(fields.values.amount_due).toBeNull();
    expect(fields.sources.total).toMatchObject({ boxes: [[60, 100, 100, 110]], confidence: 0.62, label: 'Total' });
    expect(fields.sources['lines.0.amount']).toMatchObject({ boxes: [[95, 50, 120, 60]], confidence: 0.8 });
    expect(fields.sources['lines.0.unit_price']!.boxes).toEqual([[70, 50, 90, 60]]);
    expect(fields.xml).toBeNull();
  });
  it('is null for a page without invoice fields, and tolerates malformed shapes', () => {
    expect(readEngineFields({ fields: undefined, words: [] })).toBeNull();
    const odd = readEngineFields({ fields: { invoice: { total: '12', lines: 'x' }, invoiceSources: { total: { boxes: [[1, 2]] } } } })!;
    expect(odd.values.total).toBeNull();
    expect(odd.values.lines).toEqual([]);
    expect(odd.sources.total!.boxes).toEqual([]);
  });
});

describe('corrections', () => {
  it('override the engine per field, latest wins, and a taken-back one returns to the engine', () => {
    const engine = readEngineFields(extraction)!.values;
    const corrections = [
      { field: 'total', value: 150 },
      { field: 'lines.1.amount', value: 35 },
      { field: 'total', value: 160 },
      { field: 'seller', value: { engine: true as const } },
      { field: 'lines.3.description', value: 'Extra' },
    ];
    const current = applyFieldCorrections(engine, corrections);
    expect(current.total).toBe(160);
    expect(current.lines[1]!.amount).toBe(35);
    expect(current.lines[3]!.description).toBe('Extra');
    expect(current.seller).toBe('Muster GmbH');
    expect(engine.total).toBe(154.7);
    expect([...correctedPaths(corrections)].sort()).toEqual(['lines.1.amount', 'lines.3.description', 'total']);
    expect(valueAt(current, 'lines.1.amount')).toBe(35);
    expect(valueAt(current, 'lines.9.amount')).toBeUndefined();
  });
  it('only fields and line cells are editable paths', () => {
    expect(isEditablePath('total')).toBe(true);
    expect(isEditablePath('lines.0.unit_price')).toBe(true);
    expect(isEditablePath('lines.0.colour')).toBe(false);
    expect(isEditablePath('constructor')).toBe(false);
  });
  it('a corrected line amount makes BR-CO-10 fail naming the line; fixing it clears it', () => {
    const engine = readEngineFields(extraction)!.values;
    const broken = reviewRules(applyFieldCorrections(engine, [{ field: 'lines.1.amount', value: 35 }]), '');
    const failure = broken.find((r) => r.rule === 'BR-CO-10')!;
    expect(failure.status).toBe('fail');
    expect(failure.message).toContain('Line 2 (Material)');
    const fixed = reviewRules(applyFieldCorrections(engine, [{ field: 'lines.1.amount', value: 35 }, { field: 'lines.1.amount', value: 30 }]), '');
    expect(fixed.find((r) => r.rule === 'BR-CO-10')!.status).toBe('pass');
  });
});

describe("the document's number format", () => {
  it('is detected from printed amounts and parses edits in it', () => {
    expect(detectNumberFormat(['154,70', '1.234,56'])).toEqual(commaDecimal);
    expect(detectNumberFormat(['$1,234.56'])).toEqual(dotDecimal);
    expect(parseAmountIn('1.234,5', commaDecimal)).toBe(1234.5);
    expect(parseAmountIn('12,50 €', commaDecimal)).toBe(12.5);
    expect(parseAmountIn('-3,10', commaDecimal)).toBe(-3.1);
    expect(parseAmountIn('12.50', commaDecimal)).toBeNull();
    expect(parseAmountIn('1,234.50', dotDecimal)).toBe(1234.5);
    expect(parseAmountIn('abc', dotDecimal)).toBeNull();
    expect(formatAmountIn(1234.5, commaDecimal)).toBe('1.234,50');
    expect(formatAmountIn(-1234567.891, dotDecimal)).toBe('-1,234,567.89');
  });
});

describe('line items follow an edited Markdown table', () => {
  const table = (amount: string) =>
    `Invoice 1\n\n<table><tr><th>Description</th><th>Qty</th><th>Unit price</th><th>Amount</th></tr><tr><td>Widget</td><td>2</td><td>5.00</td><td>${amount}</td></tr><tr><td>Bolt</td><td>1</td><td>3.00</td><td>3.00</td></tr></table>\n\nSubtotal 13.00`;
  it('keeps the engine lines while the tables are unchanged, re-reads them once a cell changes', () => {
    const engine = { ...readEngineFields(extraction)!.values, lines: [{ description: 'Widget', quantity: 2, unit_price: 5, amount: 10 }] };
    expect(linesForText(engine, table('10.00'), table('10.00') + '\nThanks')).toBe(engine.lines);
    const reread = linesForText(engine, table('10.00'), table('12.00'));
    expect(reread.map((l) => l.amount)).toEqual([12, 3]);
  });
});

describe('VAT breakdown and settlement amounts under review', () => {
  const page: Pick<Extraction, 'fields' | 'words'> = {
    words: [
      { text: 'MwSt.', box: [10, 200, 40, 210], confidence: 1 },
      { text: '19', box: [45, 200, 55, 210], confidence: 1 },
      { text: '%', box: [56, 200, 60, 210], confidence: 1 },
      { text: '1.000,00', box: [70, 200, 110, 210], confidence: 1 },
      { text: '190,00', box: [120, 200, 150, 210], confidence: 1 },
      { text: '1.190,00', box: [120, 220, 150, 230], confidence: 1 },
    ],
    fields: {
      invoice: {
        invoice_number: 'RE-9', issue_date: '2024-03-01', due_date: null, seller: 'Muster GmbH', buyer: 'Beispiel AG', currency: 'EUR',
        subtotal: 1000, tax: 190, total: 1190, prepaid: 100, amount_due: 1090, lines: [],
        tax_breakdown: [{ rate: 19, base: 1000, amount: 190 }],
      },
      invoiceSources: {
        total: { text: '1.190,00', label: 'Bruttosumme', boxes: [[120, 220, 150, 230]] },
        tax_breakdown: [{ text: 'MwSt. 19 % 1.000,00 190,00', label: null, boxes: [[10, 200, 40, 210], [45, 200, 55, 210], [56, 200, 60, 210], [70, 200, 110, 210], [120, 200, 150, 210]], confidence: 0.9 }],
      },
    },
  };

  it('reads the breakdown rows with a box per cell, and the paid amount and amount due', () => {
    const fields = readEngineFields(page)!;
    expect(fields.values.tax_breakdown).toEqual([{ rate: 19, base: 1000, amount: 190 }]);
    expect(fields.values).toMatchObject({ prepaid: 100, amount_due: 1090, allowances: null });
    expect(fields.sources['tax_breakdown.0.base']).toMatchObject({ boxes: [[70, 200, 110, 210]], confidence: 0.9 });
    expect(fields.sources['tax_breakdown.0.rate']!.boxes).toEqual([[45, 200, 55, 210]]);
    expect(fields.sources['tax_breakdown.0.amount']!.boxes).toEqual([[120, 200, 150, 210]]);
    expect(valueAt(fields.values, 'tax_breakdown.0.amount')).toBe(190);
    expect(reviewRules(fields.values, '').find((r) => r.rule === 'BR-CO-16')!.status).toBe('pass');
  });

  it('an edited breakdown cell re-runs BR-CO-17 and BR-CO-14; fixing it clears them', () => {
    const engine = readEngineFields(page)!.values;
    expect(isEditablePath('tax_breakdown.0.base')).toBe(true);
    expect(isEditablePath('tax_breakdown.99.base')).toBe(false);
    expect(isEditablePath('tax_breakdown.0.category')).toBe(false);
    const broken = reviewRules(applyFieldCorrections(engine, [{ field: 'tax_breakdown.0.amount', value: 180 }]), '');
    expect(broken.find((r) => r.rule === 'BR-CO-17')!.status).toBe('fail');
    expect(broken.find((r) => r.rule === 'BR-CO-14')!.status).toBe('fail');
    const fixed = reviewRules(applyFieldCorrections(engine, [{ field: 'tax_breakdown.0.amount', value: 180 }, { field: 'tax_breakdown.0.amount', value: 190 }]), '');
    expect(fixed.filter((r) => r.rule === 'BR-CO-17' || r.rule === 'BR-CO-14').map((r) => r.status)).toEqual(['pass', 'pass']);
    const added = applyFieldCorrections(engine, [{ field: 'tax_breakdown.1.rate', value: 7 }]);
    expect(added.tax_breakdown[1]).toEqual({ rate: 7, base: null, amount: null });
  });

  it("names the values in the document's number format", () => {
    const engine = readEngineFields(page)!.values;
    const wrong = applyFieldCorrections(engine, [{ field: 'total', value: 1234.5 }]);
    const german = reviewRules(wrong, '', commaDecimal).find((r) => r.rule === 'BR-CO-15')!;
    expect(german.message).toBe('Total without VAT 1.000,00 + VAT 190,00 = 1.190,00 ≠ total 1.234,50, off by 44,50.');
    const english = reviewRules(wrong, '', dotDecimal).find((r) => r.rule === 'BR-CO-15')!;
    expect(english.message).toContain('1,190.00 ≠ total 1,234.50');
    const rate = reviewRules(applyFieldCorrections(engine, [{ field: 'tax_breakdown.0.rate', value: 5.5 }]), '', commaDecimal).find((r) => r.rule === 'BR-CO-17')!;
    expect(rate.message).toBe('1.000,00 × 5,5 % = 55,00 ≠ VAT amount 190,00.');
    // Without a format the messages keep plain dot decimals (CLI, tests).
    expect(reviewRules(wrong, '').find((r) => r.rule === 'BR-CO-15')!.message).toContain('1190.00 ≠ total 1234.50');
  });
});

describe('VAT breakdown against the XML', () => {
  const xml = [{ rate: 19, base: 286.52, amount: 54.44 }];
  it('agrees, disagrees per part, and a page rate the XML lacks is named', () => {
    expect(breakdownDisagreements([{ rate: 19, base: 286.52, amount: 54.44 }], xml)).toEqual([]);
    expect(breakdownDisagreements([{ rate: 19, base: 286.52, amount: 55.44 }], xml)).toEqual(['VAT 19 % amount: page 55.44 — XML 54.44']);
    expect(breakdownDisagreements([{ rate: 7, base: 10, amount: 0.7 }], xml)).toEqual(['VAT 7 %: on the page, not in the XML']);
  });
  it('a breakdown the page does not print, or no XML, is no disagreement', () => {
    expect(breakdownDisagreements([], xml)).toEqual([]);
    expect(breakdownDisagreements([{ rate: 19, base: 1, amount: 1 }], null)).toEqual([]);
    expect(breakdownDisagreements([{ rate: 19, base: null, amount: 54.44 }], xml)).toEqual([]);
  });
});

describe('documentRuleResults', () => {
  const result = (rule: string, status: 'pass' | 'fail', fields: string[]) => ({ rule, title: rule, status, message: rule, fields });
  it("where the XML is the invoice, a failing page rule counts only where it reads a corrected value; a page's own rules all count", () => {
    const results = [result('LINE-ARITHMETIC', 'fail', ['lines.0.amount']), result('BR-CO-15', 'fail', ['subtotal', 'tax', 'total']), result('BR-CO-10', 'pass', ['line_total'])];
    expect(documentRuleResults(results, 'xml', new Set(['total'])).map((r) => r.rule)).toEqual(['BR-CO-15', 'BR-CO-10']);
    expect(documentRuleResults(results, 'xml', new Set()).map((r) => r.rule)).toEqual(['BR-CO-10']);
    expect(documentRuleResults(results, 'page', new Set())).toHaveLength(3);
  });
});

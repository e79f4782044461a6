import { describe, expect, it } from 'vitest';
import { applyFieldCorrections, correctionsBetween, fieldValueProblem, readFieldValues } from './index.js';

const engine = readFieldValues({
  invoice_number: '7', total: 11.9, currency: 'EUR',
  lines: [{ description: 'Work', quantity: 1, unit_price: 10, amount: 10 }, { description: 'Travel', quantity: 1, unit_price: 2, amount: 2 }],
});

describe('correctionsBetween', () => {
  it('names each differing field and line cell with the engine value, and applying them gives the corrected values', () => {
    const corrected = applyFieldCorrections(engine, [
      { field: 'total', value: 12.9 },
      { field: 'invoice_number', value: null },
      { field: 'lines.1.amount', value: 3 },
      { field: 'lines.2.description', value: 'Parking' },
      { field: 'currency', value: 'EUR' },
    ]);
    const corrections = correctionsBetween(engine, corrected);
    expect(corrections).toEqual([
      { field: 'invoice_number', from: '7', to: null },
      { field: 'total', from: 11.9, to: 12.9 },
      { field: 'lines.1.amount', from: 2, to: 3 },
      { field: 'lines.2.description', from: null, to: 'Parking' },
    ]);
    expect(applyFieldCorrections(engine, corrections.map((c) => ({ field: c.field, value: c.to })))).toEqual(corrected);
  });

  it('finds nothing between equal values', () => {
    expect(correctionsBetween(engine, applyFieldCorrections(engine, []))).toEqual([]);
  });
});

describe('fieldValueProblem', () => {
  it.each([
    ['total', 12.5, null],
    ['total', null, null],
    ['issue_date', '2024-03-31', null],
    ['lines.0.quantity', 2, null],
    ['lines.0.description', 'Work', null],
    ['total', '12.50', /holds a number/],
    ['total', Number.NaN, /holds a number/],
    ['seller', 12, /holds text/],
    ['seller', 'x'.repeat(2001), /at most 2000/],
    ['lines.0.colour', 'red', /not an invoice field/],
    ['__proto__', null, /not an invoice field/],
  ])('%s = %j', (path, value, expected) => {
    const problem = fieldValueProblem(path, value);
    if (expected === null) expect(problem).toBeNull();
    else expect(problem).toMatch(expected);
  });
});

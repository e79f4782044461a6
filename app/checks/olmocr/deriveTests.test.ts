import { describe, expect, it } from 'vitest';
import { deriveBenchTests } from './deriveTests.js';
import { runBenchTest } from './runTest.js';

const engine = [
  'ACME Corp — Confidential',
  '',
  '# Invoice 2024-17',
  '',
  'Payment is due within 30 days of the invoice date.',
  '',
  'Thank you for choosing ACME as your supplier.',
  '',
  '<table><tr><th>Item</th><th>Qty</th><th>Amount</th></tr><tr><td>Widget</td><td>2</td><td>20.00</td></tr><tr><td>Gadget</td><td>1</td><td>5.00</td></tr></table>',
  '',
  'Interest is computed as $I = P r t$.',
].join('\n');

const corrected = [
  '# Invoice 2024-17',
  '',
  'Thank you for choosing ACME as your supplier.',
  '',
  'Payment is due within 14 days of the invoice date.',
  '',
  '<table><tr><th>Item</th><th>Qty</th><th>Amount</th></tr><tr><td>Widget</td><td>2</td><td>20.00</td></tr><tr><td>Gadget</td><td>3</td><td>15.00</td></tr></table>',
  '',
  'Interest is computed as $I = P \\cdot r \\cdot t$.',
].join('\n');

describe('deriveBenchTests', () => {
  const tests = deriveBenchTests(engine, corrected, { pdf: 'inv.pdf', page: 1, idPrefix: 'p1' });

  it('derives each kind of test from what was corrected', () => {
    const types = new Set(tests.map((t) => t.type));
    expect(types).toEqual(new Set(['present', 'absent', 'table', 'math', 'order']));
    expect(tests.find((t) => t.type === 'absent')).toMatchObject({ text: 'ACME Corp — Confidential' });
    expect(tests.find((t) => t.type === 'present')).toMatchObject({ text: 'Payment is due within 14 days of the invoice date.' });
    expect(tests.some((t) => t.type === 'table' && t.cell === '15.00')).toBe(true);
  });

  it('keeps only tests that pass on the correction and fail on the engine output', () => {
    for (const test of tests) {
      expect(runBenchTest(test, corrected).passed, test.id).toBe(true);
      expect(runBenchTest(test, engine).passed, test.id).toBe(false);
    }
  });

  it('is deterministic and derives nothing from an unchanged page', () => {
    expect(deriveBenchTests(engine, corrected, { pdf: 'inv.pdf', page: 1, idPrefix: 'p1' })).toEqual(tests);
    expect(new Set(tests.map((t) => t.id)).size).toBe(tests.length);
    expect(deriveBenchTests(corrected, corrected, { pdf: 'inv.pdf', page: 1, idPrefix: 'p1' })).toEqual([]);
  });
});

describe('derived tests under olmOCR-Bench\'s own matching', () => {
  it('keeps no test that passes on the engine\'s text by partial_ratio (a short reading contained in a corrected line)', () => {
    // The engine read only "Total due" of the page; the analyst typed the lines. rapidfuzz's partial_ratio finds the
    // whole short reading inside the first line, so a present test for it would pass on the engine's text.
    const short = 'Total due';
    const full = 'Total due 120.00 EUR\n\nPlease pay by bank transfer to the account below.';
    const tests = deriveBenchTests(short, full, { pdf: 'p.pdf', page: 1, idPrefix: 'p' });
    expect(tests.map((t) => t.type === 'present' && t.text)).not.toContain('Total due 120.00 EUR');
    expect(tests.some((t) => t.type === 'present' && t.text.startsWith('Please pay'))).toBe(true);
    for (const test of tests) {
      expect(runBenchTest(test, full).passed, test.id).toBe(true);
      expect(runBenchTest(test, short).passed, test.id).toBe(false);
    }
  });
});

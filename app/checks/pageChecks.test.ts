import { describe, expect, it } from 'vitest';
import { benchTestSchema } from './olmocr/schema.js';
import { runPageChecks, tablesAsHtml } from './pageChecks.js';

const reference = [
  '# Invoice 42',
  '',
  'Thank you for your order.',
  '',
  '<table><tr><th>Item</th><th>Amount</th></tr><tr><td>Widget</td><td>10.00</td></tr></table>',
  '',
  'Discount: $d = 0.1 \\cdot p$',
].join('\n');

describe('runPageChecks', () => {
  it('scores an identical page 1 on every term', () => {
    const r = runPageChecks(reference, reference);
    expect(r.text.ned).toBe(0);
    expect(r.tables).toMatchObject({ reference: 1, predicted: 1, teds: 1, tedsStructure: 1 });
    expect(r.formulas).toMatchObject({ reference: 1, matched: 1, rendering: 1, score: 1 });
    expect(r.structure.score).toBe(1);
    expect(r.combined.score).toBe(1);
  });

  it('lowers the table, formula and text terms when the engine got them wrong', () => {
    const predicted = reference.replace('10.00', '1O.00').replace('0.1 \\cdot p', '0.1 p').replace('Thank you', 'Thank yu');
    const r = runPageChecks(predicted, reference);
    expect(r.tables!.teds).toBeLessThan(1);
    expect(r.tables!.tedsStructure).toBe(1);
    expect(r.formulas!.matched).toBe(0);
    expect(r.text.ned).toBeGreaterThan(0);
    expect(r.combined.score).toBeLessThan(0.9);
  });

  it('applies unit tests and zeroes a looping page', () => {
    const test = benchTestSchema.parse({ pdf: 'a.pdf', page: 1, id: 't1', type: 'present', text: 'Invoice 42' });
    expect(runPageChecks(reference, reference, { tests: [test] }).unitTests).toMatchObject({ passed: 1, total: 1 });
    const looping = reference + '\n' + 'Widget 10.00 '.repeat(400);
    const r = runPageChecks(looping, reference, { tests: [test] });
    expect(r.repetition.score).toBeLessThan(0.1);
    expect(r.combined.score).toBeLessThan(0.1);
  });

  it('compares pipe tables with HTML tables through one grid model', () => {
    expect(tablesAsHtml('| a | b |\n|---|---|\n| 1 | 2 |')).toEqual(['<table><thead><tr><th>a</th><th>b</th></tr></thead><tbody><tr><td>1</td><td>2</td></tr></tbody></table>']);
    const r = runPageChecks('| Item | Amount |\n|---|---|\n| Widget | 10.00 |', '<table><thead><tr><th>Item</th><th>Amount</th></tr></thead><tbody><tr><td>Widget</td><td>10.00</td></tr></tbody></table>');
    expect(r.tables!.teds).toBe(1);
  });
});

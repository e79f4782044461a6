import { describe, expect, it } from 'vitest';
import { pageScoreFloors } from './pageScore.js';
import { reward } from './reward.js';

const table = '<table><tr><th>Item</th><th>Amount</th></tr><tr><td>Widget</td><td>10.00</td></tr><tr><td>Gadget</td><td>5.00</td></tr></table>';
const page = `# Invoice 42\n\nThank you for your order.\n\n${table}\n\nTotal due: 15.00\n`;

describe('reward', () => {
  it('is 1 for identical texts', () => {
    const result = reward(page, page);
    expect(result.score).toBe(1);
    expect(result.terms.text).toBe(1);
    expect(result.terms.tables).toBe(1);
  });

  it('falls below the table floor for a broken table, but no lower than the floors allow', () => {
    const broken = page.replace(table, '<table><tr><td>Widget 10.00 Gadget</td></tr>');
    const result = reward(page, broken);
    expect(result.raw.tables).toBeLessThan(0.6);
    expect(result.score).toBeLessThan(0.6);
    // The table term is clamped at its floor, so one bad table alone never zeroes the page.
    expect(result.terms.tables).toBeGreaterThanOrEqual(pageScoreFloors.tables);
    expect(result.terms.structure).toBeGreaterThanOrEqual(pageScoreFloors.structure);
  });

  it('is near 0 for a repetition loop', () => {
    const loop = `# Invoice 42\n\n${'Total due: 15.00 '.repeat(400)}`;
    expect(reward(page, loop).score).toBeLessThan(0.05);
  });

  it('leaves out terms that do not apply', () => {
    const result = reward('Just a line of text.', 'Just a line of text!');
    expect(result.terms.tables).toBeUndefined();
    expect(result.terms.format).toBeUndefined();
    expect(result.score).toBeGreaterThan(0.9);
    expect(result.score).toBeLessThan(1);
  });
});

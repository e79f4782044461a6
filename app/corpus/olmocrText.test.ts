import { describe, expect, it } from 'vitest';
import { olmocrMath, olmocrNaturalText } from './olmocrText.js';

describe("olmOCR's text of a page", () => {
  it('writes inline math as \\( … \\) and display math as \\[ … \\]', () => {
    expect(olmocrMath('Rate $r = \\frac{a}{b}$ applies.')).toBe('Rate \\(r = \\frac{a}{b}\\) applies.');
    expect(olmocrMath('$$\\text{Total} = \\sum_i q_i p_i$$')).toBe('\\[\\text{Total} = \\sum_i q_i p_i\\]');
    expect(olmocrMath('a $$\nx^2\n$$ b')).toBe('a \\[\nx^2\n\\] b');
  });

  it('escapes every literal dollar, once', () => {
    expect(olmocrMath('Total $120.00, paid $20 and $ 5')).toBe('Total \\$120.00, paid \\$20 and \\$ 5');
    expect(olmocrMath('12 $10.00 $120.00')).toBe('12 \\$10.00 \\$120.00');
    expect(olmocrMath('already \\$5 escaped')).toBe('already \\$5 escaped');
    expect(olmocrMath('a lone $$ sign')).toBe('a lone \\$\\$ sign');
    expect(olmocrMath('<td>$9.00</td>')).toBe('<td>\\$9.00</td>');
  });

  it('leaves \\( … \\) and \\[ … \\] as written, a dollar inside them included', () => {
    expect(olmocrMath('cost \\(x + \\$\\) and \\[y\\] at $3')).toBe('cost \\(x + \\$\\) and \\[y\\] at \\$3');
    expect(olmocrMath('an escaped \\\\ backslash')).toBe('an escaped \\\\ backslash');
  });

  it('writes a pipe table as an HTML table', () => {
    const text = olmocrNaturalText('Lines:\n\n| Item | Amount |\n|---|---|\n| Paper | $12.50 |\n\nThanks.');
    expect(text).toBe('Lines:\n\n<table><thead><tr><th>Item</th><th>Amount</th></tr></thead><tbody><tr><td>Paper</td><td>\\$12.50</td></tr></tbody></table>\n\nThanks.');
  });
});

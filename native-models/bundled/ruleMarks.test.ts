import { describe, expect, it } from 'vitest';
import type { Box } from '../../app/model/extraction.js';
import { withoutRuleMarks } from './ruleMarks.js';

const word = (text: string, box: Box) => ({ text, box, confidence: 0.9 });
/** A table's column rules at x = 300 and 500, row rules at y = 100 and 160, 2 px thick. */
const rulings: Box[] = [
  [299, 100, 301, 160],
  [499, 100, 501, 160],
  [100, 99, 700, 101],
  [100, 159, 700, 161],
];

describe('OCR marks of ruling lines', () => {
  it('takes a column rule read as a last or first character off the word, and trims its box', () => {
    const [a, b] = withoutRuleMarks([word('102]', [460, 120, 500, 140]), word('|Total', [299, 120, 359, 140])], rulings);
    expect(a).toMatchObject({ text: '102', box: [460, 120, 490, 140] });
    expect(b).toMatchObject({ text: 'Total', box: [309, 120, 359, 140] });
  });

  it('takes off a mark read from a rule just past the end of the box', () => {
    expect(withoutRuleMarks([word('270]', [461, 120, 491, 140])], rulings)[0].text).toBe('270');
  });

  it('drops words that are only a rule read as text', () => {
    const words = [word('|', [297, 115, 303, 145]), word(']', [496, 118, 502, 142]), word('l', [298, 118, 302, 142]), word('———', [200, 92, 260, 108])];
    expect(withoutRuleMarks(words, rulings)).toEqual([]);
  });

  it('leaves text clear of the rules alone', () => {
    const words = [word('[1]', [320, 120, 350, 140]), word('I', [380, 120, 386, 140]), word('|', [50, 120, 56, 140]), word('—', [320, 125, 340, 135]), word('ok]', [600, 300, 630, 320])];
    expect(withoutRuleMarks(words, rulings)).toEqual(words);
    expect(withoutRuleMarks(words, [])).toEqual(words);
  });
});

import { describe, expect, it } from 'vitest';
import type { LayoutWord } from './layoutTypes.js';
import { buildRows, buildSegments } from './buildSegments.js';
import { line } from '../../../testing/syntheticWords.js';

const word = (text: string, box: [number, number, number, number]): LayoutWord => ({ text, box, confidence: 1, fontSize: box[3] - box[1] });
const rowTexts = (words: LayoutWord[]): string[] =>
  buildRows(buildSegments(words)).map((row) => row.segments.map((s) => s.words.map((w) => w.text).join(' ')).join(' | '));

describe('rows of words', () => {
  it('keeps a word on its line when its box only touches the one before (a formula and its full stop)', () => {
    // The formula's box is a little taller (scripts) and ends a hundredth of a pixel into the full stop.
    const words = [word('{i2,i4}', [660.45, 1472.64, 881.97, 1491.15]), ...line('. Thus, the loop', 881.96, 1487, 17)];
    expect(rowTexts(words)).toEqual(['{i2,i4} . Thus, the loop']);
  });

  it('keeps words of one line together when their estimated widths overlap', () => {
    const words = [word('Credit', [146, 1414, 214, 1435]), word('Derivat', [213, 1414, 293, 1435]), word('ives', [286, 1414, 333, 1435]), word('Markets', [332, 1414, 417, 1435])];
    expect(rowTexts(words)).toEqual(['Credit Derivat ives Markets']);
  });

  it('keeps two lines apart that overlap both ways', () => {
    // Set 8 px apart in 20 px type: they share 60% of their height, and the second starts under the first.
    const words = [...line('first line of text', 100, 100), ...line('second line', 140, 108)];
    expect(rowTexts(words)).toEqual(['first line of text', 'second line']);
  });
});

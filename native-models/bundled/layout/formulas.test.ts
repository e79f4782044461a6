import { describe, expect, it } from 'vitest';
import type { LayoutWord } from './layoutTypes.js';
import { rowWithFormulas } from './formulas.js';

/** A word at x with its baseline at y (size px); `raise` lifts it (superscript) or lowers it (negative: subscript). */
function w(text: string, x: number, size = 30, raise = 0, fontName = 'Times-Roman'): LayoutWord {
  const baseline = 420 - raise;
  return { text, box: [x, baseline - size, x + 12 * text.length, baseline], confidence: 1, fontSize: size, fontName };
}
const plain = (t: string): string => t;

describe('rowWithFormulas', () => {
  it('writes superscripts and Greek letters as LaTeX and keeps two formulas side by side apart', () => {
    const row = [w('e', 100), w('iπ', 114, 21, 15), w('+', 140), w('1', 160), w('=', 180), w('0', 200), w('a', 500), w('2', 514, 21, 15), w('+', 530), w('b', 550), w('2', 564, 21, 15), w('=', 580), w('c', 600), w('2', 614, 21, 15)];
    expect(rowWithFormulas(row, plain)).toBe('$e^{i\\pi} + 1 = 0$ $a^{2} + b^{2} = c^{2}$');
  });

  it('writes subscripts and leaves the surrounding prose as text', () => {
    const row = [w('where', 100), w('x', 200, 30, 0, 'CMMI10'), w('i', 214, 20, -8, 'CMMI7'), w('≤', 230, 30, 0, 'CMSY10'), w('n', 250, 30, 0, 'CMMI10'), w('holds.', 280)];
    expect(rowWithFormulas(row, plain)).toBe('where $x_{i} \\le n$ holds.');
  });

  it('invents nothing: prose, footnote marks and plain numbers stay text', () => {
    expect(rowWithFormulas([w('The', 100), w('results', 160), w('are', 280), w('good', 340)], plain)).toBeNull();
    expect(rowWithFormulas([w('Shaffer', 100), w('1', 190, 20, 12), w('and', 220), w('Grant', 280)], plain)).toBeNull();
    expect(rowWithFormulas([w('Total', 100), w('=', 180), w('12', 200)], plain)).toBeNull();
  });
});

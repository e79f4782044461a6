import { describe, expect, it } from 'vitest';
import { formulaAtOffset, locateFormulas } from './formulaLocate.js';

describe('locateFormulas', () => {
  it('finds inline and display formulas, not prices or escaped dollars', () => {
    const text = 'Cost $5 and $6. Area $\\pi r^2$ and \\$x$ then\n$$\n\\frac{a}{b}\n$$\nEnd';
    const found = locateFormulas(text).map((f) => text.slice(...f.inner));
    expect(found).toEqual(['\\pi r^2', '\n\\frac{a}{b}\n']);
    expect(locateFormulas(text).map((f) => f.display)).toEqual([false, true]);
  });

  it('answers the formula around a cursor, delimiters included', () => {
    const text = 'a $x^2$ b';
    expect(formulaAtOffset(text, 2)?.inner).toEqual([3, 6]);
    expect(formulaAtOffset(text, 7)?.inner).toEqual([3, 6]);
    expect(formulaAtOffset(text, 8)).toBeNull();
  });
});

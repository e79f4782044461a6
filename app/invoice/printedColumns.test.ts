import { describe, expect, it } from 'vitest';
import { wordsFromLayoutText } from './layout.js';
import { printedColumns, tillRollWide, TILL_ROLL_COLUMNS } from './printedColumns.js';
import { isCountryName } from './countryNames.js';

const rows = (width: number, count: number): string => Array.from({ length: count }, (_, i) => `ITEM${String(i).padStart(3, '0')} ${'X'.repeat(width - 14)} 12.50`).join('\n');

describe('printedColumns: how many characters wide the page is printed', () => {
  it('a till roll (42 columns) against an A4 invoice (90 columns), in characters whatever the glyph size', () => {
    expect(printedColumns(wordsFromLayoutText(rows(42, 20)))).toBeCloseTo(42, 0);
    expect(printedColumns(wordsFromLayoutText(rows(42, 20), 14, 28))).toBeCloseTo(42, 0);
    expect(printedColumns(wordsFromLayoutText(rows(90, 20)))).toBeCloseTo(90, 0);
    expect(tillRollWide(wordsFromLayoutText(rows(48, 20)))).toBe(true);
    expect(tillRollWide(wordsFromLayoutText(rows(TILL_ROLL_COLUMNS + 10, 20)))).toBe(false);
  });

  it('a stray mark beside the receipt does not widen it; a page of almost no words has no width', () => {
    const words = wordsFromLayoutText(rows(42, 40));
    words.push({ text: '|', box: [2000, 10, 2006, 20], confidence: null });
    expect(printedColumns(words)).toBeCloseTo(42, 0);
    expect(printedColumns(wordsFromLayoutText('TOTAL 5.00\nCASH 5.00'))).toBeNull();
  });
});

describe('isCountryName', () => {
  it('knows a country in the languages documents come in, and nothing else', () => {
    for (const name of ['MALAYSIA', 'Deutschland.', 'United Kingdom', 'Singapore', 'Frankreich', 'Österreich']) expect(isCountryName(name)).toBe(true);
    for (const text of ['SDN BHD', 'BISTRO & CAFE', 'Bakery', 'UK', 'MALAYSIA SDN BHD']) expect(isCountryName(text)).toBe(false);
  });
});

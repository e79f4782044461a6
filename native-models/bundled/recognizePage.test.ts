import { describe, expect, it } from 'vitest';
import { confidentCharacters } from './recognizePage.js';
import type { OcrWord } from './tesseractWords.js';

const word = (text: string, confidence: number): OcrWord => ({ text, confidence, box: [0, 0, 10, 10], lineKey: '1', lineHeight: 10 }) as OcrWord;

describe('confidentCharacters: how much print a reading read with confidence', () => {
  it('weighs letters and digits of words of three or more by their confidence; noise counts for little', () => {
    expect(confidentCharacters([word('WARAKUYA', 0.9), word('PERMAS', 0.8), word('=', 0.9), word('ss', 0.9)])).toBeCloseTo(8 * 0.9 + 6 * 0.8, 5);
    const garbage = [word('Fc', 0.3), word('Be', 0.3), word('Bhs', 0.2), word('Bos', 0.2)];
    const clear = [word('TOTAL', 0.95), word('57.80', 0.9)];
    expect(confidentCharacters(clear)).toBeGreaterThan(confidentCharacters(garbage));
    expect(confidentCharacters([])).toBe(0);
  });
});

import { describe, expect, it } from 'vitest';
import { confidentCharacters, surelyRead, weaklyRead } from './recognizePage.js';
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

describe('weaklyRead: a page tesseract read little of with confidence', () => {
  it('is weak where under half of the letters and digits lie in words read at 0.85 or more, or nothing was read', () => {
    expect(weaklyRead([word('TOTAL', 0.95), word('57.80', 0.9), word('xq', 0.2)])).toBe(false);
    // 4 sure characters of 12: dot-matrix print read as fragments.
    expect(weaklyRead([word('AIK', 0.9), word('HU4T', 0.5), word('HARDW', 0.4), word('=', 0.9)])).toBe(true);
    expect(weaklyRead([word('TOTAL', 0.86), word('ABCDE', 0.84)])).toBe(false); // half sure: not under half
    expect(weaklyRead([])).toBe(true);
  });
});

describe('surelyRead: a page tesseract read with confidence throughout (no local thresholding needed)', () => {
  it('is sure where 80 % or more of the letters and digits lie in words read at 0.85 or more; nothing read is not sure', () => {
    expect(surelyRead([word('TOTAL', 0.95), word('57.80', 0.9), word('xq', 0.2)])).toBe(true); // 9 of 11
    expect(surelyRead([word('TOTAL', 0.95), word('57.80', 0.9), word('xqz', 0.2)])).toBe(false); // 9 of 12
    expect(surelyRead([word('STATIONERY', 0.99), word('SDN', 0.6), word('BHD', 0.7)])).toBe(false); // 10 of 16
    expect(surelyRead([])).toBe(false);
  });
});

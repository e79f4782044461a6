import { describe, expect, it } from 'vitest';
import { tesseractDpi } from './tesseractPool.js';

describe('tesseractDpi', () => {
  it('keeps the dpi within the 70–2400 tesseract accepts, rounded', () => {
    expect(tesseractDpi(43.2)).toBe(70);
    expect(tesseractDpi(149.6)).toBe(150);
    expect(tesseractDpi(9600)).toBe(2400);
  });
});

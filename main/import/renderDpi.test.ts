/** The resolution a PDF page is rendered at, from its size: letter and A4 at 150 dpi, small pages finer. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_PDF_DPI, pdfPageDpi } from './importedDocument.js';

describe('pdfPageDpi', () => {
  it('renders ordinary pages at the default and small pages finer, in proportion, up to 300 dpi', () => {
    expect(pdfPageDpi(612, 792)).toBe(DEFAULT_PDF_DPI);
    expect(pdfPageDpi(595, 842)).toBe(DEFAULT_PDF_DPI);
    expect(pdfPageDpi(360, 360)).toBe(DEFAULT_PDF_DPI); // a 5 in square
    expect(pdfPageDpi(216, 360)).toBe(250); // 3 × 5 in card
    expect(pdfPageDpi(255, 141)).toBe(300); // a coupon: capped
    expect(pdfPageDpi(0, 0)).toBe(DEFAULT_PDF_DPI);
  });
});

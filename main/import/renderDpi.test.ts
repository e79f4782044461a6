/** The resolution a PDF page is rendered at, from its size and its text size: letter and A4 at 150 dpi, small pages and small print finer, large type coarser. */
import { describe, expect, it } from 'vitest';
import { bodyTextSize, DEFAULT_PDF_DPI, pdfPageDpi } from './importedDocument.js';

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

describe('pdfPageDpi from the text size', () => {
  it('keeps the page-size resolution where the body x-height is inside tesseract’s 10–30 px', () => {
    expect(pdfPageDpi(612, 792, 10)).toBe(DEFAULT_PDF_DPI); // 10 pt at 150 dpi: x-height ≈ 10.4 px
    expect(pdfPageDpi(612, 792, 20)).toBe(DEFAULT_PDF_DPI);
    expect(pdfPageDpi(255, 141, 10)).toBe(300); // the coupon's 10 pt at 300 dpi: ≈ 21 px
  });

  it('renders small print finer, just up to a 10 px x-height, at most 300 dpi', () => {
    expect(pdfPageDpi(612, 792, 8)).toBe(180);
    expect(pdfPageDpi(612, 792, 6)).toBe(240);
    expect(pdfPageDpi(612, 792, 4)).toBe(300);
  });

  it('renders large type coarser, just down to a 30 px x-height, not under 100 dpi', () => {
    expect(pdfPageDpi(612, 792, 36)).toBe(120);
    expect(pdfPageDpi(612, 792, 72)).toBe(100);
    expect(pdfPageDpi(255, 141, 30)).toBe(144); // a small page of large type: the text decides
  });

  it('uses the page size alone where the text size is unknown', () => {
    expect(pdfPageDpi(612, 792, null)).toBe(DEFAULT_PDF_DPI);
    expect(pdfPageDpi(216, 360, 0)).toBe(250);
  });
});

describe('bodyTextSize', () => {
  const item = (str: string, size: number) => ({ str, transform: [size, 0, 0, size, 0, 0] });

  it('is the median font size over the characters, rotation included', () => {
    expect(bodyTextSize([item('A Title', 24), item('body text of the page, in nine point type', 9), item('p. 3', 7)])).toBe(9);
    expect(bodyTextSize([{ str: 'a line of text set turned a quarter', transform: [0, 11, -11, 0, 0, 0] }])).toBe(11);
  });

  it('is unknown on pages with too little text', () => {
    expect(bodyTextSize([])).toBeNull();
    expect(bodyTextSize([item('p. 3', 9), item('   ', 12)])).toBeNull();
  });
});

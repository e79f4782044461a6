import { describe, expect, it } from 'vitest';
import type { TextLayerWord } from '../../app/model/page.js';
import { findUnmappedText, isGlyphSoup, unmappedRegions } from './unmappedText.js';

const word = (text: string, x: number, y: number, fontName: string, fontSize = 20): TextLayerWord => ({
  text,
  box: [x, y, x + 10 * text.length, y + fontSize],
  fontSize,
  fontName,
});

describe('isGlyphSoup', () => {
  it('is glyph codes read as punctuation, or unmapped characters', () => {
    expect(isGlyphSoup('%#"')).toBe(true);
    expect(isGlyphSoup('&\'()*+,"')).toBe(true);
    expect(isGlyphSoup('ab\uFFFD')).toBe(true);
    expect(isGlyphSoup('\uE001')).toBe(true);
  });

  it('is not words, numbers or lone punctuation', () => {
    for (const text of ['Tracing', '2011', '25', '—', '•', '(a)', '$4.11', 'x²']) expect(isGlyphSoup(text)).toBe(false);
  });
});

describe('findUnmappedText', () => {
  // A chart drawn in a subset font without ToUnicode (its axis reads `!"`, `#"`, `$!"`; its legend `&'()*+,"`)
  // beside body text in a mapped font.
  const chart = [word('%#"', 128, 152, 'Calibri'), word('$!"', 128, 220, 'Calibri'), word('#"', 139, 288, 'Calibri'), word('01"', 139, 356, 'Calibri')];
  const legend = [word('&\'()*+,"', 1017, 189, 'Calibri'), word('-./"', 1017, 225, 'Calibri')];
  const body = ['Figure', '10.', 'Speedup', 'vs.', 'a', 'baseline', '--', 'interpreter'].map((text, i) => word(text, 100 + 90 * i, 800, 'Times', 18));

  it('drops every word of a font whose words are mostly glyph soup, even its digits', () => {
    const { mapped, unmapped } = findUnmappedText([...chart, ...legend, ...body]);
    expect(unmapped.map((w) => w.text)).toEqual([...chart, ...legend].map((w) => w.text));
    expect(mapped.map((w) => w.text)).toEqual(body.map((w) => w.text));
  });

  it('keeps a mapped font with an odd run of punctuation', () => {
    const text = [...body, word('...', 900, 830, 'Times', 18)];
    expect(findUnmappedText(text).unmapped).toEqual([]);
  });

  it('drops single words with replacement or private-use characters whatever their font', () => {
    const { unmapped } = findUnmappedText([...body, word('\uE041\uE042', 100, 900, 'Times', 18)]);
    expect(unmapped.map((w) => w.text)).toEqual(['\uE041\uE042']);
  });

  it('reads nearby unmapped words as one region (an axis, a legend), with a margin, clipped to the page', () => {
    const regions = unmappedRegions([...chart, ...legend], { width: 1100, height: 1650 });
    expect(regions).toHaveLength(2);
    const [axis, key] = regions.sort((a, b) => a[0] - b[0]);
    expect(axis).toEqual([118, 142, 179, 386]);
    expect(key).toEqual([1007, 179, 1100, 255]);
  });
});

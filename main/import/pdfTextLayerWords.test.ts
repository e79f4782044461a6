import { describe, expect, it } from 'vitest';
import { cleanFontName, splitWords, textItemsToWords } from './pdfTextLayerWords.js';

// A Letter page (612 × 792 pt) at scale 2: pdf.js's viewport flips y and scales.
const scale = 2;
const viewportTransform = [scale, 0, 0, -scale, 0, 792 * scale];
const styles = { f1: { ascent: 0.75, descent: -0.25, fontFamily: 'sans-serif' } };

describe('textItemsToWords', () => {
  it('splits a run into words and places them in image pixels', () => {
    // "ab cd" at 10 pt, baseline at (100, 700) pt, 50 pt wide: each character 10 pt with character-count widths.
    const words = textItemsToWords(
      [{ str: 'ab cd', transform: [10, 0, 0, 10, 100, 700], width: 50, fontName: 'f1', hasEOL: true }],
      { viewportTransform, scale, styles },
    );
    expect(words.map((w) => w.text)).toEqual(['ab', 'cd']);
    const baseline = (792 - 700) * scale; // 184 px
    expect(words[0].box).toEqual([200, baseline - 7.5 * scale, 240, baseline + 2.5 * scale]);
    expect(words[1].box[0]).toBe(260);
    expect(words[1].box[2]).toBe(300);
    expect(words[0].fontSize).toBe(20);
    expect(words[0].fontName).toBe('sans-serif');
    expect(words[0].endOfLine).toBeUndefined();
    expect(words[1].endOfLine).toBe(true);
  });

  it('uses the measured widths and the real font name when given', () => {
    const words = textItemsToWords(
      [{ str: 'iii WWW', transform: [10, 0, 0, 10, 0, 700], width: 70, fontName: 'f1', hasEOL: false }],
      {
        viewportTransform,
        scale,
        styles,
        fontNameOf: () => 'Helvetica-Bold',
        measure: (text) => [...text].reduce((sum, c) => sum + (c === 'i' ? 1 : c === 'W' ? 5 : 2), 0),
      },
    );
    // Total 3 + 2 + 15 = 20 units over 140 px: "iii" takes 3/20 of it.
    expect(words[0].box[2] - words[0].box[0]).toBeCloseTo(21, 5);
    expect(words[1].box[0]).toBeCloseTo(35, 5);
    expect(words[0].fontName).toBe('Helvetica-Bold');
  });

  it('gives rotated text an upright bounding box', () => {
    // Text running up the page (90°): the box is tall and narrow.
    const [word] = textItemsToWords(
      [{ str: 'UP', transform: [0, 10, -10, 0, 300, 300], width: 20, fontName: 'f1', hasEOL: false }],
      { viewportTransform, scale, styles },
    );
    expect(word.box[3] - word.box[1]).toBeCloseTo(40, 5);
    expect(word.box[2] - word.box[0]).toBeCloseTo(20, 5);
  });

  it('skips empty and blank runs', () => {
    const words = textItemsToWords(
      [
        { str: '', transform: [10, 0, 0, 10, 0, 0], width: 0, fontName: 'f1', hasEOL: true },
        { str: '   ', transform: [10, 0, 0, 10, 0, 0], width: 15, fontName: 'f1', hasEOL: false },
      ],
      { viewportTransform, scale, styles },
    );
    expect(words).toEqual([]);
  });

  it('drops words off the image and clips words across its edge', () => {
    const words = textItemsToWords(
      [
        { str: 'gone', transform: [10, 0, 0, 10, 100, 900], width: 40, fontName: 'f1', hasEOL: false },
        { str: 'edge', transform: [10, 0, 0, 10, 100, 790], width: 40, fontName: 'f1', hasEOL: false },
      ],
      { viewportTransform, scale, styles, clipTo: { width: 1224, height: 1584 } },
    );
    expect(words.map((w) => [w.text, w.box[1]])).toEqual([['edge', 0]]);
  });
});

describe('textItemsToWords: accents drawn as separate glyphs', () => {
  // TeX's `J\'an Min\'a\v{c} for`: each accent ends a run, and the next run starts back under it (a negative kern).
  // Character-count widths: 10 pt per character at 10 pt size.
  const item = (str: string, x: number, hasEOL = false) => ({ str, transform: [10, 0, 0, 10, x, 700], width: 10 * str.length, fontName: 'f1', hasEOL });

  it('puts each accent on the letter under it and joins the pieces it split', () => {
    const words = textItemsToWords(
      [item('thank J´', 100), item('an Min´', 170), item('aˇ', 230), item('c for', 240, true)],
      { viewportTransform, scale, styles },
    );
    expect(words.map((w) => w.text)).toEqual(['thank', 'Ján', 'Mináč', 'for']);
    const jan = words[1];
    expect(jan.box[0]).toBe(320); // "J" starts at 160 pt
    expect(jan.box[2]).toBe(380); // "an" ends at 190 pt
    expect(words[3].endOfLine).toBe(true);
  });

  it('composes an accent that follows its letter, and a dotless i', () => {
    // "e" then its accent drawn back over it; then TeX's `\'{\i}`: the accent, then "ı" drawn back under it.
    const words = textItemsToWords([item('e', 100), item('´', 100), item('´', 110), item('ı', 110)], { viewportTransform, scale, styles });
    expect(words.map((w) => w.text)).toEqual(['éí']);
  });

  it('leaves an accent that is over no letter as it is', () => {
    const words = textItemsToWords([item('don´t', 100), item('x ´', 200), item('a', 250)], { viewportTransform, scale, styles });
    expect(words.map((w) => w.text)).toEqual(['don´t', 'x', '´', 'a']);
  });

  it('joins runs of one font that touch on one baseline: small capitals', () => {
    // "GPT-4" then a small-capital "O" (8 pt) on the same baseline, then a space and "model".
    const small = { str: 'O', transform: [8, 0, 0, 8, 150, 700], width: 6, fontName: 'f1', hasEOL: false };
    const words = textItemsToWords([item('GPT-4', 100), small, item(' model', 156)], { viewportTransform, scale, styles });
    expect(words.map((w) => w.text)).toEqual(['GPT-4O', 'model']);
    // A run of another font, or on another baseline (a superscript), stays a word of its own.
    const other = textItemsToWords([item('x', 100), { ...small, str: '2', transform: [8, 0, 0, 8, 110, 704] }], { viewportTransform, scale, styles });
    expect(other.map((w) => w.text)).toEqual(['x', '2']);
  });

  it('NFC-normalises decomposed text', () => {
    const [word] = textItemsToWords([item('Cafe\u0301', 100)], { viewportTransform, scale, styles });
    expect(word.text).toBe('Café');
  });
});

describe('cleanFontName', () => {
  it('decodes UTF-16BE names and drops control characters', () => {
    expect(cleanFontName('\u00fe\u00ff\u0000A\u0000B\u0000+\u0000F')).toBe('AB+F');
    expect(cleanFontName('Helvetica\u0000')).toBe('Helvetica');
    expect(cleanFontName('\u0001')).toBeUndefined();
  });
});

describe('splitWords', () => {
  it('keeps offsets of each piece', () => {
    expect(splitWords('  Total  $4.11 ')).toEqual([
      { text: 'Total', start: 2, end: 7 },
      { text: '$4.11', start: 9, end: 14 },
    ]);
  });
});

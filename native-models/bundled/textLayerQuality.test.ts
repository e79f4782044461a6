import { describe, expect, it } from 'vitest';
import type { TextLayer } from '../../app/model/page.js';
import { judgePartialTextLayer, judgeTextLayer } from './textLayerQuality.js';

function layer(text: string): TextLayer {
  return { words: text.split(' ').map((t, i) => ({ text: t, box: [i * 50, 0, i * 50 + 40, 20], fontSize: 20 })) };
}

describe('judgeTextLayer', () => {
  it('accepts ordinary text in several languages', () => {
    expect(judgeTextLayer(layer('The quick brown fox jumps over the lazy dog while the invoice total is 1,234.56 EUR due 2024-03-01')).usable).toBe(true);
    expect(judgeTextLayer(layer('Rechnungsnummer Lieferdatum Gesamtbetrag zahlbar innerhalb von dreißig Tagen ohne Abzug Überweisung Mehrwertsteuer Straße')).usable).toBe(true);
  });

  it('rejects missing, tiny and unmapped layers', () => {
    expect(judgeTextLayer(null)).toMatchObject({ usable: false, reason: 'no text layer' });
    expect(judgeTextLayer(layer('p. 3'))).toMatchObject({ usable: false });
    expect(judgeTextLayer(layer('\uFFFD\uE001\uE002\uFFFD'.repeat(10))).reason).toMatch(/unreadable/u);
  });

  it('rejects scrambled encodings: symbol soup, and words without vowels', () => {
    expect(judgeTextLayer(layer('⌘⌥⎋ ⌫⇧⌃ ⏏⌤⌦ ⎈⌧⍼ ⌁⌂⌅ ⌆⌇⌈ ⌉⌊⌋ ⌌⌍⌎ ⌏⌐⌑')).reason).toMatch(/symbols/u);
    const shifted = 'Xqzkt Bpvlrm Hjklm Grtzv Wsdfg Pqrst Nbvcx Lkjhg Mnbvc Zxcvb Qwrtz Trwqz Plkjh Vbnmx Cvbnm Sdfgh Rtzwq Fghjk';
    expect(judgeTextLayer(layer(shifted)).reason).toMatch(/vowel/u);
  });

  it('rejects a layer most of whose words are glyph codes of fonts without a Unicode map', () => {
    const soup: TextLayer = { words: ['%#"', '&\'()*+,"', '-./"', '!"', '#"', '$!"', 'Speedup'].map((text, i) => ({ text, box: [0, i * 30, 60, i * 30 + 20], fontSize: 20, fontName: i < 6 ? 'Calibri' : 'Times' })) };
    expect(judgeTextLayer({ words: [...soup.words, ...soup.words] }).reason).toMatch(/without a Unicode map/u);
  });
});

describe('judgePartialTextLayer', () => {
  // A 100 × 140 thumbnail at scale 0.1 of a 1000 × 1400 page: a header line with text, a body of lines of words below.
  const width = 100;
  const height = 140;
  const page = (bodyInk: boolean): Uint8Array => {
    const data = new Uint8Array(width * height).fill(255);
    for (let x = 10; x < 60; x++) for (let y = 10; y < 13; y++) data[y * width + x] = 0; // header ink
    // Words 5 px long, 2 px apart: at this scale a scanned body's ink is pieces the size of words.
    if (bodyInk) for (let y = 30; y < 120; y += 4) for (let x = 10; x < 90; x++) for (let dy = 0; dy < 2; dy++) if (x % 7 < 5) data[(y + dy) * width + x] = 0;
    return data;
  };
  const header: TextLayer = { words: [{ text: 'ACME Corporation Invoice', box: [100, 100, 600, 130], fontSize: 20 }] };

  it('flags a typed header over a scanned body', () => {
    const verdict = judgePartialTextLayer(header, { data: page(true), width, height, scale: 0.1 });
    expect(verdict.usable).toBe(false);
    expect(verdict.reason).toMatch(/covers only part of the page/u);
  });

  it('accepts a short page whose other ink is a frame drawn round it (one large piece, not glyphs)', () => {
    const data = page(false);
    for (let t = 0; t < 2; t++) {
      for (let x = 2; x < 98; x++) data[(2 + t) * width + x] = data[(136 + t) * width + x] = 0;
      for (let y = 2; y < 138; y++) data[y * width + 2 + t] = data[y * width + 96 + t] = 0;
    }
    expect(judgePartialTextLayer(header, { data, width, height, scale: 0.1 }).usable).toBe(true);
  });

  it('accepts a short page whose ink is its text', () => {
    expect(judgePartialTextLayer(header, { data: page(false), width, height, scale: 0.1 }).usable).toBe(true);
  });
});

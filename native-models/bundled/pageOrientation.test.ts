import { describe, expect, it } from 'vitest';
import type { Box } from '../../app/model/extraction.js';
import { turnGrey } from './ocrImage.js';
import { boxFromTurned, boxToTurned, judgeOrientation, probeBand, readingConfidence, turnedReadingWins, turnedSize, verticalShare, type OrientationWord, type QuarterTurns } from './pageOrientation.js';

/** `n` words of print on rows 40 px apart: horizontal boxes, or vertical ones (the same page turned a quarter). */
function words(n: number, confidence: number, vertical = false): OrientationWord[] {
  return Array.from({ length: n }, (_, i) => {
    const [x, y] = [100 + (i % 4) * 150, 100 + Math.floor(i / 4) * 40];
    const box: Box = vertical ? [y, x, y + 24, x + 110] : [x, y, x + 110, y + 24];
    return { text: `word${i}`, box, confidence };
  });
}

describe('judgeOrientation', () => {
  it('leaves upright print and pages with too little text alone', () => {
    expect(judgeOrientation(words(20, 0.93))).toEqual({ kind: 'upright' });
    expect(judgeOrientation(words(3, 0.1))).toEqual({ kind: 'upright' });
    expect(judgeOrientation([...words(20, 0.1)].map((w) => ({ ...w, text: '7' })))).toEqual({ kind: 'upright' });
  });

  it('turns a page of vertical words read well by three quarters (it was turned 90° clockwise)', () => {
    expect(judgeOrientation(words(20, 0.92, true))).toEqual({ kind: 'quarter', turns: 3 });
  });

  it('turns a page of vertical words read badly by one quarter (it was turned 270°)', () => {
    expect(judgeOrientation(words(20, 0.25, true))).toEqual({ kind: 'quarter', turns: 1 });
  });

  it('suspects a page of horizontal words read badly of being upside down', () => {
    expect(judgeOrientation(words(20, 0.3))).toEqual({ kind: 'maybe-upside-down' });
  });
});

describe('turnedReadingWins', () => {
  it('takes a turned reading only when it is convincingly better, or as good for a page of vertical words', () => {
    expect(turnedReadingWins(words(20, 0.3), words(20, 0.9))).toBe(true);
    expect(turnedReadingWins(words(20, 0.3), words(20, 0.45))).toBe(false); // handwriting: bad either way
    expect(turnedReadingWins(words(20, 0.92, true), words(20, 0.88))).toBe(true);
    expect(turnedReadingWins(words(20, 0.92, true), words(20, 0.6))).toBe(false);
    expect(turnedReadingWins(words(20, 0.3), words(20, 0.95, true))).toBe(false); // still vertical: not righted
    expect(turnedReadingWins(words(20, 0.3), words(2, 0.95))).toBe(false); // too little read to judge
  });

  it('measures confidence per character and the share of vertical words', () => {
    expect(readingConfidence([{ text: 'ab', box: [0, 0, 1, 1], confidence: 1 }, { text: 'abcdef', box: [0, 0, 1, 1], confidence: 0 }])).toBeCloseTo(0.25);
    expect(verticalShare([...words(3, 1, true), ...words(1, 1)])).toBe(0.75);
  });
});

describe('probeBand', () => {
  it('picks the densest stretch of rows holding 30% of the words (at least 6), padded by two word heights', () => {
    // 20 words on 5 rows 40 px apart (4 a row), then 4 more words far below.
    const page = [...words(20, 0.3), ...words(4, 0.3).map((w) => ({ ...w, box: [w.box[0], 900, w.box[2], 924] as Box }))];
    const [top, bottom] = probeBand(page, 1000);
    // 8 words (30% of 24) = the first two rows (centres 112 and 152), ± 48.
    expect([top, bottom]).toEqual([64, 200]);
    expect(probeBand([], 1000)).toEqual([0, 1000]);
  });
});

describe('boxFromTurned and boxToTurned', () => {
  it('maps a box on the turned page back onto the page, for every quarter turn (checked against turned pixels)', () => {
    const [width, height] = [7, 5];
    const page = { data: new Uint8Array(width * height), width, height };
    const box: Box = [2, 1, 5, 3]; // pixels x 2..4, y 1..2 marked
    for (let y = box[1]; y < box[3]; y++) for (let x = box[0]; x < box[2]; x++) page.data[y * width + x] = 1;
    for (const turns of [0, 1, 2, 3] as QuarterTurns[]) {
      const turned = turnGrey(page, turns);
      expect({ width: turned.width, height: turned.height }).toEqual(turnedSize(width, height, turns));
      // The marked pixels' bounding box on the turned page…
      const xs: number[] = [];
      const ys: number[] = [];
      for (let y = 0; y < turned.height; y++) for (let x = 0; x < turned.width; x++) if (turned.data[y * turned.width + x]) (xs.push(x), ys.push(y));
      const turnedBox: Box = [Math.min(...xs), Math.min(...ys), Math.max(...xs) + 1, Math.max(...ys) + 1];
      // …maps back onto the marked box.
      expect(boxFromTurned(turnedBox, turns, width, height)).toEqual(box);
      // boxToTurned goes the other way: the marked box onto the turned page.
      expect(boxToTurned(box, turns, width, height)).toEqual(turnedBox);
    }
  });
});

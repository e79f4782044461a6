/**
 * The targeted second OCR pass (regionReread.ts): which regions of a first reading are read again, and — with real
 * OCR on generated till slips — a faded amount the first pass lost or misread, recovered by reading its row again.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { PSM } from 'tesseract.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Box, Extraction } from '../../app/model/extraction.js';
import { BundledEngine } from './index.js';
import { amountsJoined, binarised, MAX_REGIONS, rereadWeakRegions, unreadBands, weakRegions } from './regionReread.js';
import { otsuThreshold } from './ocrImage.js';
import type { LineReading } from './lineRecognizer.js';
import type { OcrWord } from './tesseractWords.js';

const word = (text: string, x: number, y: number, confidence = 0.95): OcrWord => ({
  text,
  box: [x, y, x + 12 * text.length, y + 20],
  confidence,
  lineKey: `0.0.${y}`,
  lineHeight: 24,
});

describe('weakRegions', () => {
  it('reads again the row of a total-like label with no amount, from the label to the right edge', () => {
    const words = [word('ROTI', 20, 100), word('2.50', 300, 100), word('TOTAL', 20, 200)];
    const regions = weakRegions(words, 400, 600);
    expect(regions).toHaveLength(1);
    expect(regions[0]!.kind).toBe('amount');
    const [left, top, right, bottom] = regions[0]!.box;
    expect(left).toBeLessThan(20);
    expect(right).toBe(400);
    expect(top).toBeLessThan(200);
    expect(bottom).toBeGreaterThan(220);
    expect(bottom).toBeLessThan(240); // one line: not the neighbours'
  });

  it('and the row of one with a doubtful amount, or a label OCR slipped on; not a confident total, nor "Cashier"', () => {
    expect(weakRegions([word('TOTAL', 20, 200), word('12.50', 300, 200, 0.96)], 400, 600)).toEqual([]);
    expect(weakRegions([word('TOTAL', 20, 200), word('12.58', 300, 200, 0.6)], 400, 600)).toHaveLength(1);
    expect(weakRegions([word('T0TAL', 20, 200)], 400, 600)).toHaveLength(1);
    expect(weakRegions([word('NETT', 20, 200), word('DUE', 80, 200)], 400, 600)).toHaveLength(1); // one row, one region
    expect(weakRegions([word('Cashier:', 20, 200), word('ANN', 150, 200)], 400, 600)).toEqual([]);
  });

  it('knows the total and payment words the receipt readers know, in any of their languages ("SUMME", "Rückgeld", "Rendu")', () => {
    for (const label of ['SUMME', 'Rückgeld', 'BAR', 'Rendu', 'JUMLAH']) expect(weakRegions([word(label, 20, 200)], 400, 600), label).toHaveLength(1);
    expect(weakRegions([word('SUMME', 20, 200), word('12,50', 300, 200, 0.96)], 400, 600)).toEqual([]);
  });

  it('reads at most MAX_REGIONS rows of a page', () => {
    const words = Array.from({ length: 20 }, (_, i) => word('TOTAL', 20, 40 * i));
    expect(weakRegions(words, 400, 900)).toHaveLength(MAX_REGIONS);
  });

  it('dates and letterheads only where asked for', () => {
    const words = [word('KEDAI', 20, 10, 0.5), word('12/03/2018', 20, 100, 0.5), word('DATE', 20, 150)];
    expect(weakRegions(words, 400, 600)).toEqual([]);
    expect(weakRegions(words, 400, 600, ['date', 'header']).map((r) => r.kind).sort()).toEqual(['date', 'date', 'header']);
  });
});

describe('unreadBands', () => {
  /** A white page with every word's box inked, and `blocks` ([top, bottom, left, right]) inked with no word on them. */
  const page = (words: readonly OcrWord[], blocks: readonly [number, number, number, number][], width = 400, height = 600) => {
    const data = new Uint8Array(width * height).fill(250);
    const ink = (top: number, bottom: number, left: number, right: number) => {
      for (let y = top; y < bottom; y++) for (let x = left; x < right; x += 2) data[y * width + x] = 20;
    };
    for (const w of words) ink(w.box[1] + 4, w.box[3] - 4, w.box[0], w.box[2]);
    for (const block of blocks) ink(...block);
    return { data, width, height };
  };
  /** Rows of items 20 px tall, 30 px apart, from `from` to `to` and again from `again` (a gap between). */
  const rows = (from: number, to: number, again: number) =>
    [...Array.from({ length: Math.floor((to - from) / 30) + 1 }, (_, i) => from + i * 30), ...Array.from({ length: 6 }, (_, i) => again + i * 30)].flatMap((y) => [word('ITEM', 20, y), word('2.50', 300, y)]);
  const body = rows(40, 190, 300);

  it('finds a line of large print between the words that no word covers (a double-height TOTAL)', () => {
    const bands = unreadBands(page(body, [[230, 275, 20, 340]]), body);
    expect(bands).toHaveLength(1);
    expect(bands[0]!.kind).toBe('unread');
    const [left, top, right, bottom] = bands[0]!.box;
    expect(top).toBeLessThanOrEqual(230);
    expect(top).toBeGreaterThan(215);
    expect(bottom).toBeGreaterThanOrEqual(275);
    expect(bottom).toBeLessThan(290);
    // Across the text column.
    expect(left).toBeLessThanOrEqual(20);
    expect(right).toBeGreaterThanOrEqual(348);
  });

  it('not a rule or a speck, a picture many lines tall, ink outside the text, nor ink a word covers', () => {
    expect(unreadBands(page(body, [[250, 254, 20, 340]]), body)).toEqual([]);
    const apart = rows(40, 100, 400);
    expect(unreadBands(page(apart, [[130, 380, 20, 340]]), apart)).toEqual([]);
    expect(unreadBands(page(body, [[470, 530, 20, 340]]), body)).toEqual([]);
    expect(unreadBands(page(body, [[100, 160, 20, 340]]), body)).toEqual([]);
    // Too few words to measure the body's print by.
    const few = [40, 70, 300, 330].flatMap((y) => [word('ITEM', 20, y), word('2.50', 300, y)]);
    expect(unreadBands(page(few, [[230, 275, 20, 340]]), few)).toEqual([]);
  });
});

describe('binarising a band', () => {
  it("splits faded print from paper at Otsu's threshold", () => {
    // Paper around 230, faded print around 170: the threshold lies between them.
    const data = Uint8Array.from({ length: 1000 }, (_, i) => (i % 5 === 0 ? 165 + (i % 11) : 225 + (i % 13)));
    const image = { data, width: 100, height: 10 };
    const threshold = otsuThreshold(image);
    expect(threshold).toBeGreaterThanOrEqual(175);
    expect(threshold).toBeLessThan(225);
    const bw = binarised(image);
    expect(bw.data.filter((v) => v === 0)).toHaveLength(200);
    expect(bw.data.every((v) => v === 0 || v === 255)).toBe(true);
  });
});

describe('rereadWeakRegions', () => {
  it('keeps the first reading where the second is no better, and maps kept words back into the image', async () => {
    const words = [word('TOTAL', 20, 200)];
    const image = { data: new Uint8Array(400 * 600).fill(255), width: 400, height: 600 };
    const nothing = await rereadWeakRegions(image, words, async () => []);
    expect(nothing.words).toEqual(words);
    expect(nothing.report).toMatchObject({ replaced: 0, kept: [-1] });
    // A reading of the band enlarged 2×: its boxes come back in the image's pixels, on the label's row.
    const found = await rereadWeakRegions(image, words, async () => [
      { text: 'TOTAL', box: [0, 10, 120, 50], confidence: 0.95, lineKey: '0.0.0', lineHeight: 48 },
      { text: '12.00', box: [560, 10, 680, 50], confidence: 0.93, lineKey: '0.0.0', lineHeight: 48 },
    ]);
    expect(found.report.replaced).toBe(1);
    const amount = found.words.find((w) => w.text === '12.00')!;
    const region = found.report.regions[0]!.box;
    const factor = 40 / 20; // capital height 20 px enlarged to 40
    expect(amount.box[0]).toBeCloseTo(region[0] + 560 / factor, 0);
    expect((amount.box[1] + amount.box[3]) / 2).toBeGreaterThan(195);
    expect((amount.box[1] + amount.box[3]) / 2).toBeLessThan(225);
  });

  it('reads a band of unread large print as a block, keeping only a sure reading, in reading order', async () => {
    // A small mark just under the band: its centre within the band's padding, a word of the first reading all the same.
    const mark: OcrWord = { text: 'x', box: [20, 277, 26, 283], confidence: 0.9, lineKey: '0.0.277', lineHeight: 24 };
    const body = [...[40, 70, 100, 130, 160, 190].flatMap((y) => [word('ITEM', 20, y), word('2.50', 300, y)]), mark, ...[300, 330, 360].flatMap((y) => [word('ITEM', 20, y), word('2.50', 300, y)])];
    const data = new Uint8Array(400 * 600).fill(250);
    for (const [top, bottom] of [...body.map((w) => [w.box[1] + 4, w.box[3] - 4]), [230, 275]]) for (let y = top!; y < bottom!; y++) for (let x = 20; x < 340; x += 2) data[y * 400 + x] = 20;
    const image = { data, width: 400, height: 600 };
    const modes: PSM[] = [];
    const reading = (confidence: number) => async (_crop: unknown, mode: PSM) => {
      modes.push(mode);
      return [
        { text: 'TOTAL:', box: [10, 5, 150, 45], confidence, lineKey: '0.0.0', lineHeight: 40 },
        { text: '58.70', box: [300, 5, 420, 45], confidence, lineKey: '0.0.0', lineHeight: 40 },
      ] as OcrWord[];
    };
    const sure = await rereadWeakRegions(image, body, reading(0.9));
    expect(sure.report.regions.map((r) => r.kind)).toEqual(['unread']);
    expect(modes[0]).toBe(PSM.SINGLE_BLOCK);
    const texts = sure.words.map((w) => w.text);
    // Between the last row above the band and the first below it.
    expect(texts.indexOf('TOTAL:')).toBe(12);
    expect(texts.indexOf('58.70')).toBe(13);
    expect(texts[14]).toBe('x');
    expect(sure.words).toHaveLength(body.length + 2);
    const total = sure.words.find((w) => w.text === '58.70')!;
    expect(total.box[1]).toBeGreaterThan(215);
    expect(total.box[3]).toBeLessThan(290);
    // A weak reading (a logo's, a stamp's) adds nothing.
    const weak = await rereadWeakRegions(image, body, reading(0.5));
    expect(weak.words).toEqual(body);
    // Only where asked for.
    expect((await rereadWeakRegions(image, body, reading(0.9), { kinds: ['amount'] })).words).toEqual(body);
  });
});

describe("the second reader's amounts in a band tesseract read no amount in", () => {
  /** PP's reading of a crop: `text`'s characters 10 px apart from x = 0, each with `probability`. */
  const reading = (text: string, probability = 0.95): LineReading => ({
    text,
    characters: [...text].map((char, i) => ({ char, probability, x0: 10 * i, x1: 10 * i + 8 })),
  });
  const crop = { left: 100, top: 190, image: { data: new Uint8Array(0), width: 300, height: 40 } };
  // The band: TOTAL at x 100–160, a weak non-amount "ease" where the faded amount is (x 300–348).
  const label = word('TOTAL', 100, 200);
  const ghost = word('ease', 300, 200, 0.27);

  it('puts a sure amount in place of a weak word that is no amount, on the label line, and keeps the label', () => {
    const joined = amountsJoined([label, ghost], reading('TOTAL:                7.00'), crop, 'reread.0')!;
    expect(joined.map((w) => w.text)).toEqual(['TOTAL', '7.00']);
    const amount = joined[1]!;
    expect(amount).toMatchObject({ reader: 'pp-ocr', lineKey: label.lineKey });
    expect(amount.box[0]).toBe(100 + 220); // its first character's column, in the image's pixels
  });

  it('adds an amount where the first reading has no word', () => {
    expect(amountsJoined([label], reading('TOTAL                  12.50'), crop, 'reread.0')!.map((w) => w.text)).toEqual(['TOTAL', '12.50']);
  });

  it('adds nothing from a weak reading, over a sure word, or without an amount', () => {
    expect(amountsJoined([label, ghost], reading('TOTAL:                7.00', 0.6), crop, 'reread.0')).toBeNull();
    const sure = word('CASH', 310, 200, 0.95); // 310–358: where PP's amount is
    expect(amountsJoined([label, sure], reading('TOTAL:                7.00'), crop, 'reread.0')).toBeNull();
    expect(amountsJoined([label, ghost], reading('TOTAL:                seven'), crop, 'reread.0')).toBeNull();
  });
});

/**
 * A till slip: priced lines in black, and the total's amount printed smaller and faded (grey `fade`, softened by
 * `blur`) as a thermal printer's worn head leaves it. The page is small (100 dpi): tesseract's first reading of the
 * whole page loses or misreads that amount; its row read alone, enlarged, gives it back.
 */
async function tillSlip(dir: string, fade: number, blur: number): Promise<string> {
  const lines = ['KEDAI RUNCIT MAJU', 'ROTI CANAI         2.50', 'TEH TARIK          1.80', 'NASI LEMAK         4.20', 'MEE GORENG         3.50'];
  const text = (content: string, x: number, y: number, size: number, fill: string) =>
    `<text x="${x}" y="${y}" font-family="DejaVu Sans Mono" font-size="${size}" fill="${fill}" xml:space="preserve">${content}</text>`;
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="420" height="260"><rect width="100%" height="100%" fill="white"/>` +
    lines.map((line, i) => text(line, 20, 30 + i * 30, 15, '#111')).join('') +
    text('TOTAL', 20, 190, 15, '#111') +
    text('12.00', 300, 190, 13, `rgb(${fade},${fade},${fade})`) +
    '</svg>';
  const file = path.join(dir, `slip-${fade}-${blur}.png`);
  await sharp(Buffer.from(svg)).flatten({ background: '#ffffff' }).blur(blur).png().toFile(file);
  return file;
}

describe('a faded total on a till slip, read by the bundled engine', () => {
  let dir: string;
  let firstOnly: BundledEngine;
  let withReread: BundledEngine;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'recto-reread-test-'));
    firstOnly = new BundledEngine({ ocrWorkers: 1, reread: false });
    withReread = new BundledEngine({ ocrWorkers: 1 });
  });
  afterAll(async () => {
    await Promise.all([firstOnly.dispose(), withReread.dispose()]);
    await rm(dir, { recursive: true, force: true });
  });

  const read = (engine: BundledEngine, file: string): Promise<Extraction> =>
    engine.read({ imagePath: file, width: 420, height: 260, dpi: 100, textLayer: null, label: path.basename(file) });
  const totalRow = (x: Extraction) => (x.words ?? []).filter((w) => w.box[1] > 160);
  const onTotalRow = (box: Box) => box[0] > 250 && box[1] > 165 && box[3] < 205;

  it.each([
    ['lost', 180],
    ['misread', 170],
  ])('the amount the first pass %s comes back, with its box on the row', async (_, fade) => {
    const file = await tillSlip(dir, fade, 0.6);
    const first = await read(firstOnly, file);
    expect(totalRow(first).map((w) => w.text)).not.toContain('12.00');
    const second = await read(withReread, file);
    const amount = totalRow(second).find((w) => w.text === '12.00');
    expect(amount).toBeDefined();
    expect(onTotalRow(amount!.box)).toBe(true);
    expect(second.fields?.invoice).toMatchObject({ total: 12 });
    // The rest of the page is the first reading's.
    expect((second.words ?? []).filter((w) => w.box[1] < 160).map((w) => w.text)).toEqual((first.words ?? []).filter((w) => w.box[1] < 160).map((w) => w.text));
  });

  it('a total read with confidence is left as it is', async () => {
    const file = await tillSlip(dir, 150, 1);
    const [first, second] = [await read(firstOnly, file), await read(withReread, file)];
    expect(totalRow(first).map((w) => w.text)).toContain('12.00');
    expect(second.words).toEqual(first.words);
  });
});

import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contrastStretched, encodePgm, fillMonotoneGaps, loadOcrPage, otsuThreshold, toGrey, turnGrey } from './ocrImage.js';

/** The page as OCR reads it first: stretched, or as scanned where the stretch would blacken its paper. */
const asRead = async (image: { data: Uint8Array; width: number; height: number }) => {
  const { stretched, paperBlackened } = await contrastStretched(image);
  return paperBlackened ? image : stretched;
};

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'recto-ocr-image-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('toGrey', () => {
  it('weighs RGB as luma and puts transparent pixels on white', () => {
    const rgba = new Uint8Array([255, 0, 0, 255, 0, 0, 0, 0, 0, 0, 0, 128, 255, 255, 255, 255]);
    expect([...toGrey(rgba, 4, 1, 4).data]).toEqual([77, 255, 127, 255]);
    expect([...toGrey(new Uint8Array([10, 20, 30]), 3, 1, 1).data]).toEqual([10, 20, 30]);
  });
});

describe('turnGrey and encodePgm', () => {
  it('turns clockwise by quarters', () => {
    const image = { data: new Uint8Array([1, 2, 3, 4, 5, 6]), width: 3, height: 2 }; // rows 1 2 3 / 4 5 6
    expect(turnGrey(image, 1)).toEqual({ data: new Uint8Array([4, 1, 5, 2, 6, 3]), width: 2, height: 3 });
    expect(turnGrey(image, 2)).toEqual({ data: new Uint8Array([6, 5, 4, 3, 2, 1]), width: 3, height: 2 });
    expect(turnGrey(image, 3)).toEqual({ data: new Uint8Array([3, 6, 2, 5, 1, 4]), width: 2, height: 3 });
  });

  it('writes a binary PGM (P5: header, then the pixels row by row)', () => {
    const pgm = encodePgm({ data: new Uint8Array([0, 128, 255, 64]), width: 2, height: 2 });
    const header = 'P5\n2 2\n255\n';
    expect(pgm.subarray(0, header.length).toString('ascii')).toBe(header);
    expect([...pgm.subarray(header.length)]).toEqual([0, 128, 255, 64]);
  });
});

/** A page-like grey image: paper of `paper`, `inkShare` of ink (4 %) in `inks` tones, scanner noise, deterministic. */
function pageLike(width: number, height: number, paper: number, inks: number[], inkShare = 0.04): { data: Uint8Array; width: number; height: number } {
  const data = new Uint8Array(width * height);
  let seed = 12345;
  const random = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
  for (let i = 0; i < data.length; i++) {
    const r = random();
    const tone = r < inkShare ? inks[Math.floor((r / inkShare) * inks.length)]! : paper;
    data[i] = Math.max(0, Math.min(255, Math.round(tone + (random() - 0.5) * 12)));
  }
  return { data, width, height };
}

describe('contrastStretched', () => {
  it("matches sharp's normalise of the whole image: ≥ 95% of pixels equal, none over 4 grey levels off", async () => {
    // A grey-paper scan (strong stretch), a faint page (paper and ink close together) and a clean white page.
    for (const image of [pageLike(1200, 1500, 230, [40, 90, 160]), pageLike(900, 1100, 200, [170, 185]), pageLike(800, 1000, 250, [0, 120])]) {
      const expected = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 1 } }).normalise().extractChannel(0).raw().toBuffer();
      const actual = await asRead(image);
      let differing = 0;
      let worst = 0;
      for (let i = 0; i < expected.length; i++) {
        const gap = Math.abs(actual.data[i]! - expected[i]!);
        if (gap > 0) differing++;
        worst = Math.max(worst, gap);
      }
      // A sample's percentile can land one L* step from the page's where a tone is dense at it: then the curve moves
      // a few grey levels (4 on the noisy white page here); on the 11 scanned test pages ≤ 0.001% of pixels differ.
      expect(differing / expected.length).toBeLessThan(0.05);
      expect(worst).toBeLessThanOrEqual(4);
      expect(actual.width).toBe(image.width);
    }
  });

  it('leaves a page with under 1% ink as scanned: the stretch would blacken its paper', async () => {
    // A small receipt on a large white scan: 0.5% ink. sharp's black point (the darkest 1%) lies in the paper's noise.
    const sparse = pageLike(1000, 1400, 245, [60], 0.005);
    expect(otsuThreshold(sparse)).toBeLessThan(200);
    const stretched = await sharp(sparse.data, { raw: { width: sparse.width, height: sparse.height, channels: 1 } }).normalise().extractChannel(0).raw().toBuffer();
    // What the stretch would do: paper (over 200) made dark, on a tenth of the page.
    expect(stretched.filter((v, i) => v < 128 && sparse.data[i]! > 200).length).toBeGreaterThan(0.1 * stretched.length);
    expect(Buffer.from((await asRead(sparse)).data).equals(Buffer.from(sparse.data))).toBe(true);
    // With ink enough (4%), the same tones are stretched.
    const inked = pageLike(1000, 1400, 245, [60]);
    expect(Buffer.from((await asRead(inked)).data).equals(Buffer.from(inked.data))).toBe(false);
  });

  it('fills a lookup table\'s unset entries from their neighbours', () => {
    const table = new Int16Array([-1, 10, -1, -1, 40, -1]);
    fillMonotoneGaps(table);
    expect([...table]).toEqual([10, 10, 20, 30, 40, 40]);
  });
});

describe('loadOcrPage', () => {
  it('keeps a page whose stretch would blacken paper as scanned, the stretched page beside it', async () => {
    const sparse = pageLike(800, 1100, 245, [60], 0.005);
    const file = path.join(dir, 'sparse.png');
    await sharp(Buffer.from(sparse.data), { raw: { width: sparse.width, height: sparse.height, channels: 1 } }).png().toFile(file);
    const page = await loadOcrPage(file);
    expect(Buffer.from(page.image.data).equals(Buffer.from(sparse.data))).toBe(true);
    expect(page.stretched?.width).toBe(800);
    expect(Buffer.from(page.stretched!.data).equals(Buffer.from(sparse.data))).toBe(false);
    const inked = pageLike(800, 1100, 245, [60]);
    const inkedFile = path.join(dir, 'inked.png');
    await sharp(Buffer.from(inked.data), { raw: { width: inked.width, height: inked.height, channels: 1 } }).png().toFile(inkedFile);
    expect((await loadOcrPage(inkedFile)).stretched).toBeUndefined();
  });

  it('reads a page grey and contrast-stretched, with a thumbnail and its ink share', async () => {
    const file = path.join(dir, 'page.png');
    // Light grey paper (200) with a dark grey bar (90): stretched to (near) white and black.
    await sharp({ create: { width: 1000, height: 600, channels: 3, background: { r: 200, g: 200, b: 200 } } })
      .composite([{ input: { create: { width: 600, height: 60, channels: 3, background: { r: 90, g: 90, b: 90 } } }, left: 100, top: 100 }])
      .png()
      .toFile(file);
    const page = await loadOcrPage(file);
    expect([page.image.width, page.image.height, page.scale]).toEqual([1000, 600, 1]);
    // sharp stretches luminance in L*a*b*: near-white and near-black after the round trip to grey.
    expect(page.image.data[0]).toBeGreaterThanOrEqual(250);
    expect(page.image.data[130 * 1000 + 400]).toBeLessThanOrEqual(5);
    expect([page.thumbnail.width, page.thumbnail.height]).toEqual([800, 480]);
    expect(page.darkShare).toBeCloseTo(0.06, 2);
  });

  it('with cropToPrint, reads a mostly empty page as the region its print covers, the region in page pixels', async () => {
    // A 3000 × 4000 white page (scaled to the pixel limit below) with a block of dark bars (lines of print) in it.
    const [width, height] = [3000, 4000];
    const file = path.join(dir, 'receipt-on-a-sheet.png');
    const bars = Array.from({ length: 40 }, (_, i) => ({ input: { create: { width: 700, height: 12, channels: 3 as const, background: '#202020' } }, left: 1100, top: 1000 + i * 40 }));
    await sharp({ create: { width, height, channels: 3, background: '#f5f5f5' } }).composite(bars).png().toFile(file);
    const page = await loadOcrPage(file, 3_000_000, { cropToPrint: true });
    const box = page.crop!.box;
    expect([page.crop!.pageWidth, page.crop!.pageHeight]).toEqual([width, height]);
    expect(box[0]).toBeLessThanOrEqual(1100);
    expect(box[1]).toBeLessThanOrEqual(1000);
    expect(box[2]).toBeGreaterThanOrEqual(1800);
    expect(box[3]).toBeGreaterThanOrEqual(1000 + 39 * 40 + 12);
    expect((box[2] - box[0]) * (box[3] - box[1])).toBeLessThan(0.25 * width * height);
    // The image is the region at the page's scale; the thumbnail is the region's.
    expect(page.image.width).toBeCloseTo((box[2] - box[0]) * page.scale, -1);
    expect(page.thumbnail.width).toBe(Math.min(800, page.image.width));
    // Without the option the page is read whole.
    const whole = await loadOcrPage(file, 3_000_000);
    expect(whole.crop).toBeUndefined();
    expect(whole.image.width).toBe(Math.round(width * whole.scale));
  });

  it('scales pages over the pixel limit down', async () => {
    const file = path.join(dir, 'big.png');
    await sharp({ create: { width: 2000, height: 1000, channels: 3, background: '#ffffff' } }).png().toFile(file);
    const page = await loadOcrPage(file, 500_000);
    expect(page.image.width * page.image.height).toBeLessThanOrEqual(500_000 * 1.01);
    expect(page.scale).toBeCloseTo(page.image.width / 2000, 6);
    // Far over the limit: shrunk while decoding, same outcome.
    const small = await loadOcrPage(file, 100_000);
    expect(small.image.width * small.image.height).toBeLessThanOrEqual(100_000 * 1.01);
    expect(small.scale).toBeCloseTo(small.image.width / 2000, 6);
    expect(small.scale).toBeLessThan(0.25);
  });
});

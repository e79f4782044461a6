import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodePgm, loadOcrPage, toGrey, turnGrey } from './ocrImage.js';

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

describe('loadOcrPage', () => {
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

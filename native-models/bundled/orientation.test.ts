/**
 * Pages scanned turned: the bundled engine reads them upright and puts every box on the page image as it was given.
 * Real OCR on the top of a sample scan (resources/samples, `npm run samples`), turned by sharp.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageInput } from '../../app/model/engine.js';
import { extractionSchema, type Box, type Extraction } from '../../app/model/extraction.js';
import { elementProblems, plainWords, wordRecall } from '../../testing/extractionChecks.js';
import { BundledEngine } from './index.js';
import { boxFromTurned, type QuarterTurns } from './pageOrientation.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const sample = path.join(repoRoot, 'resources', 'samples', 'brightline-invoice-scan.png');

let engine: BundledEngine;
let dir: string;
let upright: Extraction;
const turnedReads = new Map<number, Promise<Extraction>>();

/** The top of the sample scan (letterhead, addresses, invoice details), turned clockwise by `degrees`. */
async function turnedPage(degrees: number): Promise<PageInput> {
  const file = path.join(dir, `top-${degrees}.png`);
  const info = await sharp(sample).extract({ left: 0, top: 0, width: 1306, height: 640 }).rotate(degrees).png().toFile(file);
  return { imagePath: file, width: info.width, height: info.height, dpi: 150, textLayer: null, label: `top-${degrees}.png p1` };
}

beforeAll(async () => {
  engine = new BundledEngine();
  dir = await mkdtemp(path.join(os.tmpdir(), 'recto-orientation-test-'));
  // All four read concurrently (the pool has a worker per core).
  for (const degrees of [90, 180, 270]) turnedReads.set(degrees, turnedPage(degrees).then((page) => engine.read(page)));
  upright = await engine.read(await turnedPage(0));
  await Promise.allSettled(turnedReads.values());
});
afterAll(async () => {
  await engine.dispose();
  await rm(dir, { recursive: true, force: true });
});

const wordBox = (extraction: Extraction, text: string): Box | undefined => extraction.words?.find((word) => word.text === text)?.box;

describe('BundledEngine on turned scans', () => {
  it('reads the upright page as it is', () => {
    expect(upright.engine.settings).toMatchObject({ orientationDegrees: 0 });
    expect(wordBox(upright, 'Brightline')).toBeDefined();
  });

  for (const degrees of [90, 180, 270]) {
    it(`reads the page turned ${degrees}° upright, with boxes on the turned image`, async () => {
      const extraction = await turnedReads.get(degrees)!;
      const turns = ((4 - degrees / 90) % 4) as QuarterTurns;
      // The engine turned it back: the clockwise turn that rights a page turned `degrees` clockwise.
      expect(extraction.engine.settings).toMatchObject({ orientationDegrees: turns * 90 });
      expect(wordRecall(plainWords(upright.markdown), plainWords(extraction.markdown))).toBeGreaterThanOrEqual(0.95);
      const pageSize = { width: upright.page.width, height: upright.page.height };
      expect(extraction.page).toEqual(degrees === 180 ? pageSize : { width: pageSize.height, height: pageSize.width });
      // Turning the found page by `turns` gives the upright page, so the upright box maps back to where the word is.
      const expected = boxFromTurned(wordBox(upright, 'Brightline')!, turns, extraction.page.width, extraction.page.height);
      const found = wordBox(extraction, 'Brightline')!;
      found.forEach((value, i) => expect(Math.abs(value - expected[i]!)).toBeLessThanOrEqual(6));
      expect(elementProblems(extraction)).toEqual([]);
      extractionSchema.parse(extraction);
    });
  }
});

import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Box } from '../../app/model/extraction.js';
import { parseHtmlTables } from '../../app/tables/index.js';
import { findImageRulings } from './imageRulings.js';
import { layoutPage } from './layout/layoutPage.js';
import { line } from '../../testing/syntheticWords.js';
import { loadOcrPage, type GreyImage } from './ocrImage.js';

const TEXT = 20;

function page(width = 1200, height = 900, paper = 255): GreyImage {
  return { data: new Uint8Array(width * height).fill(paper), width, height };
}

function paint(image: GreyImage, [x1, y1, x2, y2]: Box, grey = 0): void {
  for (let y = Math.max(0, y1); y < Math.min(image.height, y2); y++) image.data.fill(grey, y * image.width + Math.max(0, x1), y * image.width + Math.min(image.width, x2));
}

/** A ruled grid: horizontals at `ys` and verticals at `xs`, `thickness` px, across the whole grid. */
function drawGrid(image: GreyImage, xs: number[], ys: number[], thickness = 2, grey = 0): void {
  for (const y of ys) paint(image, [xs[0], y, xs.at(-1)! + thickness, y + thickness], grey);
  for (const x of xs) paint(image, [x, ys[0], x + thickness, ys.at(-1)! + thickness], grey);
}

/** Blobs the size of words (what a blurry scan of a line of text binarises to), letters touching. */
function drawTextLine(image: GreyImage, x: number, baseline: number, words: number): void {
  for (let i = 0; i < words; i++) paint(image, [x + i * 90, baseline - 0.7 * TEXT, x + i * 90 + 75, baseline]);
}

const horizontals = (rulings: Box[]): Box[] => rulings.filter((b) => b[2] - b[0] > b[3] - b[1]).sort((a, b) => a[1] - b[1]);
const verticals = (rulings: Box[]): Box[] => rulings.filter((b) => b[2] - b[0] <= b[3] - b[1]).sort((a, b) => a[0] - b[0]);

describe('ruling lines in page images', () => {
  it('finds the rules of a drawn grid, one box per line, where they are drawn', () => {
    const image = page();
    drawGrid(image, [100, 400, 700, 1000], [200, 260, 320, 380]);
    drawTextLine(image, 120, 245, 3);
    drawTextLine(image, 420, 305, 2);
    const rulings = findImageRulings(image, { textHeight: TEXT });
    const hs = horizontals(rulings);
    const vs = verticals(rulings);
    expect(hs.map((b) => Math.round((b[1] + b[3]) / 2))).toEqual([201, 261, 321, 381]);
    expect(vs.map((b) => Math.round((b[0] + b[2]) / 2))).toEqual([101, 401, 701, 1001]);
    for (const b of hs) expect([b[0] <= 101, b[2] >= 1000]).toEqual([true, true]);
    for (const b of rulings) expect(Math.min(b[2] - b[0], b[3] - b[1])).toBeLessThanOrEqual(3);
  });

  it('finds light-grey rules on white and dark rules on grey paper', () => {
    const light = page();
    drawGrid(light, [100, 600], [200, 300], 3, 210);
    expect(findImageRulings(light, { textHeight: TEXT })).toHaveLength(4);
    const greyPaper = page(1200, 900, 200);
    drawGrid(greyPaper, [100, 600], [200, 300], 2, 30);
    expect(findImageRulings(greyPaper, { textHeight: TEXT })).toHaveLength(4);
  });

  it('finds black rules bordering a grey-shaded header row', () => {
    const image = page();
    paint(image, [100, 200, 1000, 260], 180); // the shaded header row
    drawGrid(image, [100, 400, 700, 1000], [198, 260, 320]);
    const hs = horizontals(findImageRulings(image, { textHeight: TEXT }));
    expect(hs.map((b) => Math.round((b[1] + b[3]) / 2))).toEqual([199, 261, 321]);
  });

  it('finds one-pixel rules on a page of large print (looked at halved)', () => {
    const image = page(2400, 1800);
    drawGrid(image, [200, 800, 1400, 2000], [400, 520, 640], 1);
    const rulings = findImageRulings(image, { textHeight: 40 });
    expect(horizontals(rulings)).toHaveLength(3);
    expect(verticals(rulings)).toHaveLength(4);
    for (const b of horizontals(rulings)) expect([b[0] <= 201, b[2] >= 2000, b[3] - b[1] <= 4]).toEqual([true, true, true]);
  });

  it('keeps a slightly skewed rule thin (a staircase of runs is one line)', () => {
    const image = page();
    // 1000 px long, drifting 8 px (about 0.5°), 2 px thick.
    for (let x = 100; x < 1100; x++) {
      const y = 400 + Math.floor(((x - 100) * 8) / 1000);
      paint(image, [x, y, x + 1, y + 2]);
    }
    const rulings = findImageRulings(image, { textHeight: TEXT });
    expect(rulings).toHaveLength(1);
    const [x1, y1, x2, y2] = rulings[0];
    expect(x2 - x1).toBeGreaterThan(990);
    expect(y2 - y1).toBeLessThanOrEqual(3);
    expect((y1 + y2) / 2).toBeCloseTo(404.5, 0);
  });

  it('bridges a pixel gap in a faint rule and joins pieces a little apart', () => {
    const image = page();
    paint(image, [100, 300, 500, 302]);
    paint(image, [501, 300, 900, 302]); // one-pixel break
    paint(image, [906, 300, 1100, 302]); // a short gap (a crossing word, a scanner dropout)
    const rulings = findImageRulings(image, { textHeight: TEXT });
    expect(rulings).toHaveLength(1);
    expect(rulings[0][0]).toBe(100);
    expect(rulings[0][2]).toBe(1100);
  });

  it('ignores dashed and dotted lines, bars, text blobs, short strokes and the scan edge', () => {
    const image = page();
    for (let x = 100; x < 1100; x += 16) paint(image, [x, 100, x + 8, 102]); // dashed
    for (let x = 100; x < 1100; x += 4) paint(image, [x, 140, x + 2, 142]); // dotted
    paint(image, [100, 180, 1100, 200]); // a filled bar, as thick as the text
    drawTextLine(image, 100, 260, 12); // a line of text merged into blobs
    for (let i = 0; i < 12; i++) paint(image, [100 + i * 80, 300, 102 + i * 80, 300 + TEXT]); // letter stems
    paint(image, [0, 890, 1200, 900]); // scanner shadow along the bottom edge
    paint(image, [2, 0, 4, 900]); // a thin line along the left edge
    expect(findImageRulings(image, { textHeight: TEXT })).toEqual([]);
  });

  it('finds nothing on a blank or degenerate page', () => {
    expect(findImageRulings(page(), { textHeight: TEXT })).toEqual([]);
    expect(findImageRulings(page(), { textHeight: 0 })).toEqual([]);
    expect(findImageRulings({ data: new Uint8Array(0), width: 0, height: 0 }, { textHeight: TEXT })).toEqual([]);
  });

  it('feeds OCR layout: words in a ruled grid come out as a table with the grid cells', () => {
    const xs = [100, 400, 700, 1000];
    const ys = [200, 260, 320, 380];
    const image = page();
    drawGrid(image, xs, ys);
    const cells = [
      ['Item', 'Qty', 'Amount'],
      ['Paper', '12', '77.40'],
      ['Pens and more', '3', '44.70'],
    ];
    const words = cells.flatMap((row, r) => row.flatMap((text, c) => line(text, xs[c] + 12, ys[r] + 40, TEXT, { confidence: 0.9 })));
    const rulings = findImageRulings(image, { textHeight: TEXT });
    const { markdown } = layoutPage(words, { source: 'ocr', pageHeight: image.height, rulings });
    const [table] = parseHtmlTables(markdown);
    expect(table).toBeDefined();
    expect([table.rowCount, table.colCount]).toEqual([3, 3]);
    expect(table.cells.map((cell) => cell.text)).toEqual(cells.flat());
  });

  it('makes no table of prose with underlined words inside a page border', () => {
    const image = page(1200, 1600);
    const words = [];
    for (let i = 0; i < 30; i++) {
      const y = 200 + i * 36;
      words.push(...line('Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore', 120, y, TEXT, { confidence: 0.9 }));
      // Every fifth line has its first two words underlined.
      if (i % 5 === 0) paint(image, [120, y + 4, 120 + 12 * 0.5 * TEXT + 0.3 * TEXT + 5 * 0.5 * TEXT, y + 6]);
    }
    // A thin frame round the page, in from its edges.
    paint(image, [60, 60, 1140, 62]);
    paint(image, [60, 1538, 1140, 1540]);
    paint(image, [60, 60, 62, 1540]);
    paint(image, [1138, 60, 1140, 1540]);
    const rulings = findImageRulings(image, { textHeight: TEXT });
    expect(rulings.length).toBeGreaterThanOrEqual(4);
    const { markdown } = layoutPage(words, { source: 'ocr', pageHeight: image.height, rulings });
    expect(markdown).not.toContain('<table');
  });
});

const sample = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../resources/samples/brightline-invoice-scan.png');

describe('ruling lines of a scanned invoice', () => {
  it('finds the rules of its items table and nothing in its text', async () => {
    if (!existsSync(sample)) {
      console.log(`SKIPPED: ${sample} is absent`);
      return;
    }
    const { image } = await loadOcrPage(sample);
    // The OCR's row height on this page is about 24 px.
    const rulings = findImageRulings(image, { textHeight: 24 });
    expect(verticals(rulings)).toEqual([]);
    const hs = horizontals(rulings);
    expect(hs).toHaveLength(3);
    for (const b of hs) expect(b[2] - b[0]).toBeGreaterThan(0.75 * image.width);
  });
});

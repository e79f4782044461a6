import { describe, expect, it } from 'vitest';
import type { GreyImage } from './ocrImage.js';
import { inkedCells, printComponents, printRegion } from './printRegion.js';

/** A white `width` × `height` page with `specks` dark dots of 1–2 px scattered over it (dust and noise of a scan). */
function speckled(width: number, height: number, specks: number): GreyImage {
  const data = new Uint8Array(width * height).fill(245);
  let seed = 99;
  const random = (): number => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  for (let k = 0; k < specks; k++) {
    const [x, y] = [Math.floor(random() * (width - 2)), Math.floor(random() * (height - 2))];
    data[y * width + x] = data[y * width + x + 1] = data[(y + 1) * width + x] = 30;
  }
  return { data, width, height };
}

/** Lines of "words" (dark bars 2 px tall, gaps between them) in the box [x0, y0, x1, y1]: print as the copy shows it. */
function print(image: GreyImage, [x0, y0, x1, y1]: [number, number, number, number], lineGap = 8): void {
  for (let y = y0; y + 2 <= y1; y += lineGap) {
    for (let x = x0; x < x1; x++) {
      if ((x - x0) % 30 >= 24) continue; // a space between words
      image.data[y * image.width + x] = image.data[(y + 1) * image.width + x] = 20;
    }
  }
}

describe('printRegion', () => {
  it('finds a receipt laid on a speckled sheet: the print with a margin, not the specks around it', () => {
    const copy = speckled(600, 848, 400);
    print(copy, [220, 150, 380, 600]);
    const region = printRegion(copy, 128, 2400, 3392)!; // the page the copy was made from: 4× the copy
    expect(region).not.toBeNull();
    // In page pixels (4× the copy): the print's box (880, 600)–(1520, 2400) inside, a margin of a few cells around.
    expect(region[0]).toBeLessThanOrEqual(880);
    expect(region[1]).toBeLessThanOrEqual(600);
    expect(region[2]).toBeGreaterThanOrEqual(1520);
    expect(region[3]).toBeGreaterThanOrEqual(2400);
    expect(region[0]).toBeGreaterThan(880 - 100);
    expect(region[3]).toBeLessThan(2400 + 100);
  });

  it('keeps a handwritten mark or a second block of print apart from the receipt in the region', () => {
    const copy = speckled(600, 848, 400);
    print(copy, [220, 150, 380, 600]);
    print(copy, [420, 100, 470, 110]); // a short note beside the receipt
    const region = printRegion(copy, 128, 600, 848)!;
    expect(region[1]).toBeLessThanOrEqual(100);
    expect(region[2]).toBeGreaterThanOrEqual(470);
  });

  it('reads a page of print whole (null): an invoice or a letter is not cut', () => {
    const copy = speckled(600, 848, 100);
    print(copy, [50, 60, 550, 780], 12);
    expect(printRegion(copy, 128, 600, 848)).toBeNull();
  });

  it('finds nothing on a sheet of specks alone (null: a blank scan is read whole)', () => {
    expect(printRegion(speckled(600, 848, 800), 128, 600, 848)).toBeNull();
  });
});

describe('printComponents', () => {
  it('joins cells of a line across word gaps, and drops components smaller than a word', () => {
    const [across, down] = [20, 10];
    const grid = new Uint8Array(across * down);
    // A line of print at row 2: cells 2–6 and 8–11 (an empty cell between them, within reach).
    for (const x of [2, 3, 4, 5, 6, 8, 9, 10, 11]) grid[2 * across + x] = 1;
    // A speck of two cells at row 8.
    grid[8 * across + 15] = grid[8 * across + 16] = 1;
    expect(printComponents(grid, across, down)).toEqual([2, 2, 11, 2]);
    // Two empty cells between them: out of reach, two components of word size or less — none is print alone.
    grid[2 * across + 8] = 0;
    grid[2 * across + 12] = 0;
    expect(printComponents(grid, across, down)).toBeNull();
    // The line cut short (four cells): a speck too, nothing is print.
    const short = new Uint8Array(across * down);
    for (const x of [2, 3, 4, 5]) short[2 * across + x] = 1;
    expect(printComponents(short, across, down)).toBeNull();
  });
});

describe('inkedCells', () => {
  it('marks a cell inked where three or more of its pixels are ink', () => {
    const copy: GreyImage = { data: new Uint8Array(8 * 4).fill(250), width: 8, height: 4 };
    for (const i of [0, 1, 8]) copy.data[i] = 10; // three ink pixels in the first cell
    for (const i of [4, 5]) copy.data[i] = 10; // two in the second
    expect(inkedCells(copy, 128)).toEqual({ grid: Uint8Array.from([1, 0]), across: 2, down: 1 });
  });
});

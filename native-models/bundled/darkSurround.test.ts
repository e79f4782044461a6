import { describe, expect, it } from 'vitest';
import { paperedSurround } from './darkSurround.js';

/** A `width` × `height` page of paper grey `paper`. */
const page = (width: number, height: number, paper: number) => ({ data: new Uint8Array(width * height).fill(paper), width, height });
const fillBox = (image: { data: Uint8Array; width: number }, [x0, y0, x1, y1]: number[], grey: number): void => {
  for (let y = y0!; y < y1!; y++) for (let x = x0!; x < x1!; x++) image.data[y * image.width + x] = grey;
};

describe('paperedSurround', () => {
  it("paints a dark ground that hides light print the paper's grey, and leaves the print inside the paper", () => {
    const image = page(200, 300, 240);
    fillBox(image, [0, 0, 30, 300], 10); // the table, left of the receipt
    fillBox(image, [170, 250, 200, 300], 20); // the black beyond a torn corner
    for (let y = 60; y < 240; y += 12) fillBox(image, [60, y, 140, y + 4], 160); // lines of a till's light-grey print
    const { image: papered, painted } = paperedSurround(image);
    expect(painted).toBeCloseTo((30 * 300 + 30 * 50) / (200 * 300), 5);
    expect(papered.data[150 * 200 + 5]).toBe(240);
    expect(papered.data[280 * 200 + 190]).toBe(240);
    expect(papered.data[62 * 200 + 100]).toBe(160);
    expect(image.data[150 * 200 + 5]).toBe(10); // the input is not changed
  });

  it("leaves the ground where the print is black: the whole page's threshold finds it as well", () => {
    const image = page(200, 300, 240);
    fillBox(image, [0, 0, 30, 300], 10);
    for (let y = 60; y < 240; y += 12) fillBox(image, [60, y, 140, y + 4], 30);
    expect(paperedSurround(image)).toEqual({ image, painted: 0 });
  });

  it('leaves a letter cut by the edge, a page without ground, and a page mostly ground as they are', () => {
    const letter = page(200, 300, 240);
    fillBox(letter, [0, 10, 4, 20], 10); // 40 px touching the edge: under half a percent of the page
    expect(paperedSurround(letter)).toEqual({ image: letter, painted: 0 });
    const clean = page(100, 100, 250);
    expect(paperedSurround(clean).painted).toBe(0);
    const table = page(100, 100, 30); // the table is most of the photo: its median is no paper
    fillBox(table, [30, 30, 60, 70], 240);
    expect(paperedSurround(table).painted).toBe(0);
  });
});

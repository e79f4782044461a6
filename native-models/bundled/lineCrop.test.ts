/** The crop the second reader reads of a line (lineCrop.ts): a word box that took in a neighbouring line is not followed. */
import { describe, expect, it } from 'vitest';
import { lineBox, lineCrop } from './lineCrop.js';
import type { GreyImage } from './ocrImage.js';
import type { OcrWord } from './tesseractWords.js';

const image: GreyImage = { data: new Uint8Array(1000 * 400).fill(255), width: 1000, height: 400 };
const word = (text: string, box: [number, number, number, number]): OcrWord => ({ text, box, confidence: 0.9, lineKey: '0.0.0', lineHeight: 40 });

describe('the crop of a line for the second reader', () => {
  it('is the box around its words with a fifth of its height of margin', () => {
    const line = [word('Jalan', [100, 100, 200, 140]), word('Permas', [220, 98, 340, 142])];
    expect(lineBox(line, image)).toEqual([100 - 8.8, 98 - 8.8, 340 + 8.8, 142 + 8.8]);
    expect(lineCrop(image, line)).toMatchObject({ left: 91, top: 89, image: { width: 258, height: 62 } });
  });

  it("keeps to the words' median top and bottom where one word's box took in the lines above and below", () => {
    // "Baru" read with a box 2.2 times the line's height (a development receipt's address line).
    const line = [word('Jalan', [100, 100, 200, 140]), word('Baru', [220, 60, 300, 190]), word('Permas', [320, 102, 440, 142]), word('Jaya', [460, 100, 540, 140])];
    const [, top, , bottom] = lineBox(line, image);
    expect(top).toBeCloseTo(100 - 8.4, 5);
    expect(bottom).toBeCloseTo(142 + 8.4, 5);
    // A line of even words stays as it was: tall capitals and descenders are no outlier.
    const even = [word('Jalan', [100, 100, 200, 140]), word('Jaya', [220, 100, 300, 150])];
    expect(lineBox(even, image)[3]).toBeCloseTo(150 + 10, 5);
  });
});

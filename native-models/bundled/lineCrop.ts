/**
 * The crop of one of tesseract's lines that the second reader (lineReread.ts) reads: the box around its words, a fifth
 * of its height of margin. Where one word's box is far taller than the line's others (tesseract's box of a faint or
 * broken word that took in print above or below it: "Baru" 157 px high on a line of 72 px words, on a development
 * receipt), the box around all words would hold parts of the neighbouring lines, and PP reads such a crop as nothing
 * or one letter ("M" for "MOONLIGHT CAKE HOUSE SDN BHD"); there the line's top and bottom are its words' median ones.
 */
import type { Box } from '../../app/model/extraction.js';
import { median } from '../../app/invoice/layout.js';
import type { GreyImage } from './ocrImage.js';
import { cropBox } from './ocrPageImage.js';
import type { OcrWord } from './tesseractWords.js';

/** A line taller than this many times its words' median height holds a word box that took in a neighbour's print. */
export const TALL_LINE = 1.5;

/**
 * The box to read of a line: around its words, a margin of a fifth of its height, within the image; its top and
 * bottom the words' median ones where the line is TALL_LINE times taller than its median word.
 */
export function lineBox(line: readonly OcrWord[], image: GreyImage): Box {
  const [x0, x1] = [Math.min(...line.map((w) => w.box[0])), Math.max(...line.map((w) => w.box[2]))];
  let [y0, y1] = [Math.min(...line.map((w) => w.box[1])), Math.max(...line.map((w) => w.box[3]))];
  if (y1 - y0 > TALL_LINE * median(line.map((w) => w.box[3] - w.box[1]))) [y0, y1] = [median(line.map((w) => w.box[1])), median(line.map((w) => w.box[3]))];
  const margin = Math.max(2, (y1 - y0) / 5);
  return [Math.max(0, x0 - margin), Math.max(0, y0 - margin), Math.min(image.width, x1 + margin), Math.min(image.height, y1 + margin)];
}

/** The crop of `line` from `image` (lineBox), and where its top-left corner lies on the page. */
export function lineCrop(image: GreyImage, line: readonly OcrWord[]): { image: GreyImage; left: number; top: number } {
  return cropBox(image, lineBox(line, image));
}

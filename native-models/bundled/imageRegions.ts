/**
 * Hybrid pages: a page read from its text layer can still paint text as pictures — a logo's wordmark, a chart
 * exported as an image, a scanned figure. The importer reports where the PDF paints images (TextLayer.images); this
 * module picks the ones worth reading by OCR, cheaply, before any OCR runs, and turns the OCR's words into the text of
 * those figures: words the text layer already has (text drawn over a background image) are left out.
 */
import sharp from 'sharp';
import type { Box } from '../../app/model/extraction.js';
import type { LayoutWord } from './layout/layoutTypes.js';
import type { OcrWord } from './tesseractPool.js';

/** Images smaller than this (inches, either side) are icons, bullets and rules. */
const MIN_SIDE_INCHES = 0.25;
/** … or smaller than this area (square inches): a short label is at least a few words wide. */
const MIN_AREA_SQUARE_INCHES = 0.5;
/** An image under more text-layer words than this is a scanned page with its OCR layer, or a background: not re-read. */
const MAX_LAYER_WORDS_INSIDE = 40;
/** Ink share (grey < INK_LEVEL) of a region: below MIN_INK it is blank or decorative, above MAX_INK a photograph. */
const INK_LEVEL = 160;
const MIN_INK = 0.005;
const MAX_INK = 0.6;
/** The ink check looks at a copy at most this wide. */
const INK_THUMBNAIL_WIDTH = 300;
/** At most this many images per page are read (largest first): OCR time stays bounded on image-heavy pages. */
const MAX_REGIONS = 4;
/** OCR words under this confidence are dropped: in a figure, lines and shapes are read as letters otherwise. */
const MIN_CONFIDENCE = 0.6;

const area = (box: Box): number => Math.max(0, box[2] - box[0]) * Math.max(0, box[3] - box[1]);
const centreInside = (box: Box, outer: Box, slack = 0): boolean => {
  const [cx, cy] = [(box[0] + box[2]) / 2, (box[1] + box[3]) / 2];
  return cx >= outer[0] - slack && cx <= outer[2] + slack && cy >= outer[1] - slack && cy <= outer[3] + slack;
};

/** The images of the page that may hold text, largest first: big enough, not under a text layer of their own, inked like print. */
export async function imagesWithText(imagePath: string, images: readonly Box[], layerWords: readonly LayoutWord[], dpi: number): Promise<Box[]> {
  const minSide = MIN_SIDE_INCHES * dpi;
  const minArea = MIN_AREA_SQUARE_INCHES * dpi * dpi;
  const candidates = distinct(images)
    .filter((box) => box[2] - box[0] >= minSide && box[3] - box[1] >= minSide && area(box) >= minArea)
    .filter((box) => layerWords.filter((word) => centreInside(word.box, box)).length <= MAX_LAYER_WORDS_INSIDE)
    .sort((a, b) => area(b) - area(a))
    .slice(0, MAX_REGIONS);
  const kept: Box[] = [];
  for (const box of candidates) {
    const ink = await inkShare(imagePath, box);
    if (ink >= MIN_INK && ink <= MAX_INK) kept.push(box);
  }
  return kept;
}

/** Boxes painted more than once (an image and its soft mask, a repeated XObject) counted once. */
function distinct(boxes: readonly Box[]): Box[] {
  const out: Box[] = [];
  for (const box of boxes) if (!out.some((b) => b.every((v, i) => Math.abs(v - box[i]) <= 2))) out.push(box);
  return out;
}

async function inkShare(imagePath: string, box: Box): Promise<number> {
  const left = Math.max(0, Math.floor(box[0]));
  const top = Math.max(0, Math.floor(box[1]));
  const width = Math.max(1, Math.floor(box[2] - left));
  const height = Math.max(1, Math.floor(box[3] - top));
  try {
    const { data } = await sharp(imagePath)
      .extract({ left, top, width, height })
      .greyscale()
      .resize({ width: Math.min(INK_THUMBNAIL_WIDTH, width) })
      .raw()
      .toBuffer({ resolveWithObject: true });
    let ink = 0;
    for (const value of data) if (value < INK_LEVEL) ink++;
    return data.length ? ink / data.length : 0;
  } catch {
    return 0; // a box off the image: nothing to read there
  }
}

/** A figure's text: the OCR words of one image that are confident, hold a letter or digit, and are not already text-layer words. */
export function figureWords(ocr: readonly OcrWord[], layerWords: readonly LayoutWord[]): LayoutWord[] {
  return ocr
    .filter((word) => word.confidence >= MIN_CONFIDENCE && /[\p{L}\p{N}]/u.test(word.text))
    .filter((word) => !layerWords.some((layer) => centreInside(word.box, layer.box, 2) || centreInside(layer.box, word.box)))
    .map((word) => ({ text: word.text, box: word.box, confidence: word.confidence, fontSize: word.lineHeight, lineKey: `figure.${word.lineKey}` }));
}

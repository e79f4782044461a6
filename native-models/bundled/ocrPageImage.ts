/**
 * The page image as tesseract is given it and what is measured on it beside the words: the text size it is scaled to,
 * the dpi it is told, crops of regions and bands, and the ruling lines found in it.
 */
import type { Box } from '../../app/model/extraction.js';
import { medianGlyphHeight } from './glyphHeight.js';
import { findImageRulings } from './imageRulings.js';
import { cropGrey, MAX_OCR_PIXELS, resizeGrey, type GreyImage, type OcrPageImage } from './ocrImage.js';
import type { OcrWord } from './tesseractWords.js';

/**
 * The dpi told to tesseract, within the 70–2400 it accepts: outside it tesseract prints a warning to stderr for every
 * page and guesses from the text size anyway (pages of huge images scaled to the pixel budget fall below 70).
 */
export function tesseractDpi(dpi: number): number {
  return Math.min(2400, Math.max(70, Math.round(dpi)));
}

/**
 * Text size for OCR where the page image is all there is (scans, image files; PDF pages with a text layer were
 * rendered for their text size on import, main/import/importedDocument.ts). Tesseract's FAQ reads best between an
 * x-height of 10 and 30 px: "below about 8 pixels, most of the text will be noise removed", and with LSTM "a maximum
 * x-height somewhere around 30 px". The glyph height measured on the page thumbnail (glyphHeight.ts, ±10% of the
 * x-height on the test pages) decides: under TOO_SMALL_PX the image is enlarged to MIN_X_HEIGHT_PX (at most
 * MAX_ENLARGE times, within MAX_OCR_PIXELS); over TOO_LARGE_PX (handwriting, posters) it is shrunk to MAX_X_HEIGHT_PX
 * (at most MAX_SHRINK), which also saves OCR time in proportion. Between them, left alone: the estimate is not
 * sharp enough to gain from a 10% rescale.
 */
const TOO_SMALL_PX = 8;
const MIN_X_HEIGHT_PX = 10;
const TOO_LARGE_PX = 45;
const MAX_X_HEIGHT_PX = 30;
const MAX_ENLARGE = 2;
const MAX_SHRINK = 0.5;

/**
 * The OCR page rescaled so its print is a size tesseract reads well (see TOO_SMALL_PX); boxes map back by `scale`.
 * `glyph`: the thumbnail's median glyph height where the caller measured it already.
 */
export async function atReadableTextSize(page: OcrPageImage, glyph = inkedGlyphHeight(page)): Promise<OcrPageImage> {
  if (glyph === null) return page;
  const height = (glyph * page.image.width) / page.thumbnail.width;
  const factor = readableTextFactor(height, page.image.width * page.image.height);
  if (factor === 1) return page;
  const image = await resizeGrey(page.image, Math.max(1, Math.round(page.image.width * factor)));
  const stretched = page.stretched && (await resizeGrey(page.stretched, image.width));
  return { ...page, image, scale: (page.scale * image.width) / page.image.width, ...(stretched ? { stretched } : {}) };
}

/** The median glyph height of the page's thumbnail (glyphHeight.ts), or null where it has no print to size. */
export function inkedGlyphHeight(page: OcrPageImage): number | null {
  // A page without real ink (blank, show-through stretched to black by the contrast stretch) has no print to size.
  return page.darkShare < MIN_DARK_SHARE ? null : medianGlyphHeight(page.thumbnail);
}

/** The factor to scale an OCR image of `pixels` pixels by, whose glyphs are `glyphHeight` pixels tall. */
export function readableTextFactor(glyphHeight: number, pixels: number): number {
  if (glyphHeight < TOO_SMALL_PX) {
    const enlarge = Math.min(MAX_ENLARGE, MIN_X_HEIGHT_PX / glyphHeight, Math.sqrt(MAX_OCR_PIXELS / pixels));
    return enlarge > 1 ? enlarge : 1; // a page at the pixel budget already is read as it is
  }
  if (glyphHeight > TOO_LARGE_PX) return Math.max(MAX_SHRINK, MAX_X_HEIGHT_PX / glyphHeight);
  return 1;
}

/** Share of a page's pixels that must be dark (< 128) before contrast stretching for it to hold real ink. */
export const MIN_DARK_SHARE = 0.001;

/** Ruling lines of the image OCR read, measured against the height of its lines of text (none without text). */
export function rulingsOf(image: GreyImage, words: readonly OcrWord[]): Box[] {
  const heights = words.map((word) => word.lineHeight).filter((h) => h > 0).sort((a, b) => a - b);
  if (heights.length === 0) return [];
  return findImageRulings(image, { textHeight: heights[Math.floor(heights.length / 2)]! });
}

/**
 * A ruling of the straightened image on the page as it was: moved with its centre but kept level and as long (the
 * turned box of a long line would be as tall as its drift, and no longer thin).
 */
export function centredOn(box: Box, toPage: (box: Box) => Box): Box {
  const [cx, cy] = [(box[0] + box[2]) / 2, (box[1] + box[3]) / 2];
  const moved = toPage([cx, cy, cx, cy]);
  const [x, y] = [(moved[0] + moved[2]) / 2, (moved[1] + moved[3]) / 2];
  const [w, h] = [(box[2] - box[0]) / 2, (box[3] - box[1]) / 2];
  return [x - w, y - h, x + w, y + h];
}

/** Text in an image region is read at least at this resolution (enlarging up to REGION_MAX_ENLARGE times). */
export const REGION_MIN_TEXT_DPI = 300;
export const REGION_MAX_ENLARGE = 3;

/** The part of the image inside `box` (clamped to the image), with its top-left corner. */
export function cropBox(image: GreyImage, box: Box): { image: GreyImage; left: number; top: number } {
  const left = Math.max(0, Math.min(image.width - 1, Math.floor(box[0])));
  const top = Math.max(0, Math.min(image.height - 1, Math.floor(box[1])));
  return { image: cropGrey(image, box), left, top };
}

/** Rows [from, to) of the image. */
export function cropRows(image: GreyImage, from: number, to: number): GreyImage {
  const top = Math.max(0, Math.min(image.height - 1, Math.floor(from)));
  const bottom = Math.max(top + 1, Math.min(image.height, Math.ceil(to)));
  return { data: image.data.subarray(top * image.width, bottom * image.width), width: image.width, height: bottom - top };
}

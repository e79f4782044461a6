/**
 * The page image as OCR wants it: one 8-bit grey channel in memory, contrast stretched, at most MAX_OCR_PIXELS.
 * The page PNG is decoded once (sharp, raw RGBA) and everything after — grey, contrast, quarter turns, the
 * thumbnail deskew and the ink checks look at — works on raw pixels; tesseract gets an uncompressed PGM. Earlier the
 * page went through sharp's greyscale + normalise + PNG and tesseract decoded that PNG again: sharp's colour-managed
 * greyscale and the second decode normalise needs cost more than the OCR itself on big scans (18 MP: ~6 s).
 */
import sharp from 'sharp';
import type { Box } from '../../app/model/extraction.js';
import { paperedSurround } from './darkSurround.js';
import { greyHistogram, otsuLevel, type GreyImage } from './greyLevels.js';
import { edgeBandsEvened } from './edgeBands.js';
import { printRegion, PRINT_SEARCH_WIDTH } from './printRegion.js';

export type { GreyImage } from './greyLevels.js';

export interface OcrPageImage {
  /** Contrast-stretched grey page, possibly scaled down (see `scale`). */
  image: GreyImage;
  /** `image` pixels per page-image pixel: 1, or < 1 for pages over MAX_OCR_PIXELS. */
  scale: number;
  /**
   * The page at THUMBNAIL_WIDTH (or less), contrast-stretched like `image`: what deskew measures lines on.
   */
  thumbnail: GreyImage;
  /** Share of pixels that were dark (< 128) before contrast stretching: real ink, not show-through. */
  darkShare: number;
  /**
   * Where the stretch would blacken paper (blackensPaper), `image` is the page as scanned and this is the stretched
   * page, read as well: the reading that reads more print with confidence is kept (recognizePage.ts).
   */
  stretched?: GreyImage;
  /**
   * Where the page was cut to the region its print covers (printRegion.ts; loadOcrPage's `cropToPrint`): that region
   * in pixels of the page image, and the page image's size. `image`, `thumbnail` and `stretched` show the region only;
   * their pixel (0, 0) is the region's top left corner.
   */
  crop?: { box: Box; pageWidth: number; pageHeight: number };
  /** The share of the page painted paper-grey as dark ground around the paper (darkSurround.ts; `paperSurround`). */
  groundPainted?: number;
  /** How many columns of a band of shaded paper at the page's edge were evened out (edgeBands.ts). */
  bandColumns?: number;
}

/** Pages are OCR'd at most this large (a US-letter page at 300 dpi is 8.4 MP); boxes are scaled back. */
export const MAX_OCR_PIXELS = 9_000_000;
/** Pages over this many times MAX_OCR_PIXELS are shrunk by sharp while decoding rather than after. */
const HUGE_FACTOR = 4;
/** Width of the page thumbnail for deskew and ink checks: lines of body text stay lines at this size. */
export const THUMBNAIL_WIDTH = 800;

/**
 * Reads the page image at `imagePath` for OCR: grey (Rec. 601 luma, transparency composited on white), scaled
 * down to MAX_OCR_PIXELS when larger (huge scans cost OCR time in proportion to their pixels and gain nothing past
 * ~300 dpi print), contrast stretched (sharp's normalise: darkest 1% black, lightest 1% white) — tesseract's own
 * binarisation loses light-grey and coloured print on rendered invoices without it and it costs nothing on clean scans
 * — except where that stretch would blacken paper (blackensPaper: a page of under 1% ink). With `cropToPrint`, a page
 * whose print covers at most half of it is cut to that print's region first (printRegion.ts; `crop` says where). With
 * `blur`, the page (or its region) is blurred by that sigma before the stretch: dot-matrix print (recognizePage.ts).
 * With `paperSurround`, a dark ground around the paper is first painted the paper's grey (darkSurround.ts). Unless
 * `evenEdgeBands` is false, a band of shaded paper at the left or right edge is evened out (edgeBands.ts).
 */
export async function loadOcrPage(imagePath: string, maxPixels = MAX_OCR_PIXELS, options: { paperSurround?: boolean; cropToPrint?: boolean; blur?: number; evenEdgeBands?: boolean } = {}): Promise<OcrPageImage> {
  const { width = 0, height = 0 } = await sharp(imagePath).metadata();
  // Pages far over the limit are shrunk while decoding (sharp streams), so a huge page never sits raw in memory.
  const shrink = width * height > HUGE_FACTOR * maxPixels ? sharp(imagePath).resize({ width: Math.max(1, Math.round(width * Math.sqrt(maxPixels / (width * height)))) }) : sharp(imagePath);
  const { data, info } = await shrink.raw().toBuffer({ resolveWithObject: true });
  let image = toGrey(data, info.width, info.height, info.channels);
  const scale = image.width * image.height > maxPixels ? Math.sqrt(maxPixels / (image.width * image.height)) : 1;
  const originalWidth = width || image.width;
  const originalHeight = height || image.height;
  if (scale < 1) image = await resizeGrey(image, Math.max(1, Math.round(image.width * scale)));
  const pageScale = image.width === originalWidth ? 1 : image.width / originalWidth;
  // A dark ground around the paper (a table, an open lid) painted the paper's grey: it would set the stretch's black
  // point and tesseract's threshold, and the print region's ink (darkSurround.ts).
  const surround = options.paperSurround ? paperedSurround(image) : null;
  if (surround) image = surround.image;
  // A mostly empty page (a receipt scanned on a whole A4 sheet) is read as the region its print covers: the grey
  // levels below (ink share, the stretch's percentiles) are then the print's and its paper's, not the empty sheet's.
  const region = options.cropToPrint ? await printRegionOf(image) : null;
  if (region) image = cropGrey(image, region);
  // A band of shaded paper at the left or right edge (a scanner's grey edge) evened out to the paper next to it: print
  // running into it would go black with it under tesseract's one threshold (edgeBands.ts).
  const evened = options.evenEdgeBands === false ? null : edgeBandsEvened(image);
  if (evened) image = evened.image;
  if (options.blur) image = await blurredGrey(image, options.blur);
  const counts = greyHistogram(image.data);
  let dark = 0;
  for (let v = 0; v < 128; v++) dark += counts[v]!;
  const { stretched, paperBlackened } = await contrastStretched(image);
  if (!paperBlackened) image = stretched;
  return {
    image,
    scale: pageScale,
    thumbnail: await resizeGrey(image, Math.min(THUMBNAIL_WIDTH, image.width)),
    darkShare: image.data.length ? dark / image.data.length : 0,
    ...(paperBlackened ? { stretched } : {}),
    ...(region ? { crop: { box: region.map((v) => v / pageScale) as Box, pageWidth: originalWidth, pageHeight: originalHeight } } : {}),
    ...(surround?.painted ? { groundPainted: surround.painted } : {}),
    ...(evened?.columns ? { bandColumns: evened.columns } : {}),
  };
}

/** The region of `image` its print covers (printRegion.ts), searched on a copy PRINT_SEARCH_WIDTH wide; null: all of it. */
async function printRegionOf(image: GreyImage): Promise<Box | null> {
  if (image.width < PRINT_SEARCH_WIDTH || image.height < PRINT_SEARCH_WIDTH) return null; // small pages gain nothing
  const copy = await resizeGrey(image, PRINT_SEARCH_WIDTH);
  return printRegion(copy, otsuThreshold(copy), image.width, image.height);
}

/** The pixels of `image` inside `box` (whole pixels, clamped to the image). */
export function cropGrey(image: GreyImage, box: Box): GreyImage {
  const left = Math.max(0, Math.min(image.width - 1, Math.floor(box[0])));
  const top = Math.max(0, Math.min(image.height - 1, Math.floor(box[1])));
  const right = Math.max(left + 1, Math.min(image.width, Math.ceil(box[2])));
  const bottom = Math.max(top + 1, Math.min(image.height, Math.ceil(box[3])));
  const width = right - left;
  const data = new Uint8Array(width * (bottom - top));
  for (let y = top; y < bottom; y++) data.set(image.data.subarray(y * image.width + left, y * image.width + right), (y - top) * width);
  return { data, width, height: bottom - top };
}

/**
 * sharp's `normalise()` (percentiles of luminance in L*a*b*, libvips) on the grey page held in memory. A linear
 * stretch of the grey values in JS was tried instead and lost the light-grey table rows of a rendered AWS invoice
 * (OCR word recall 91% → 50%), which sharp's stretch keeps: its white point mostly stays put.
 *
 * On a grey image that stretch maps each grey value through one monotone curve fixed by two percentiles of the
 * histogram, so it is learnt on a sample and applied as a lookup table: sharp normalises NORMALISE_SAMPLE pixels
 * spread evenly over the page, each grey value seen there takes sharp's output, and values the sample missed (rare
 * ones, by construction) take their neighbours'. Running libvips over every pixel (L*a*b* there and back) cost
 * 100–220 ms per 2 MP and 1–2 s on large scans; the sample and table cost 30–130 ms. On the 11 scanned test pages the
 * result differs from sharp's on ≤ 0.001% of pixels; a sample of 64k pixels moved the percentiles of two of them, and
 * appending a ramp of all 256 values to the sample moved those of faint pages.
 */
export async function contrastStretched(image: GreyImage): Promise<{ stretched: GreyImage; paperBlackened: boolean }> {
  const { data } = image;
  if (data.length === 0) return { stretched: image, paperBlackened: false };
  const step = Math.max(1, Math.floor(data.length / NORMALISE_SAMPLE));
  const sample = new Uint8Array(Math.ceil(data.length / step));
  for (let i = 0, j = 0; i < data.length; i += step, j++) sample[j] = data[i]!;
  const normalised = await sharp(sample, { raw: { width: sample.length, height: 1, channels: 1 } })
    .normalise()
    .extractChannel(0)
    .raw()
    .toBuffer();
  const table = new Int16Array(256).fill(-1);
  for (let j = 0; j < sample.length; j++) table[sample[j]!] = normalised[j]!;
  fillMonotoneGaps(table);
  const out = new Uint8Array(data.length);
  for (let i = 0; i < data.length; i++) out[i] = table[data[i]!]!;
  return { stretched: { width: image.width, height: image.height, data: out }, paperBlackened: blackensPaper(table, image) };
}

/**
 * Whether the stretch `table` would turn paper into ink: the page's ink (its pixels at or under Otsu's threshold) is
 * under 1 %, and the stretch makes more of the page dark (under mid-grey) than twice that ink and a point more. sharp's
 * black point is the darkest 1% of
 * the page; where ink covers less than that — a small receipt on a large white scan — it lies in the paper's own grey,
 * and the stretch turns paper texture and JPEG noise inside the strokes into ink: tesseract then reads nothing
 * ("WARAKUYA PERMAS CITY SDN BHD" became "= ss Fc Be Bhs Bos gs"), while the grey page as scanned reads well
 * (tesseract binarises it itself). A faint page with ink enough keeps its stretch: it darkens its ink, not its paper.
 * Measured on the receipts beyond the test data (docs/benchmarks.md).
 */
export function blackensPaper(table: Int16Array, image: GreyImage): boolean {
  const counts = greyHistogram(image.data);
  const threshold = otsuThreshold(image);
  let [ink, darkAfter] = [0, 0];
  for (let v = 0; v < 256; v++) {
    if (v <= threshold) ink += counts[v]!;
    if (table[v]! < 128) darkAfter += counts[v]!;
  }
  const total = image.data.length || 1;
  // Only where the ink is under the share sharp's black point takes (1 %): else that point is the ink's own grey.
  return ink / total < NORMALISE_PERCENTILE && darkAfter / total > (2 * ink) / total + 0.01;
}

/** Otsu's threshold of the image's grey levels (the level that best splits them into two classes). */
export function otsuThreshold(image: GreyImage): number {
  return otsuLevel(greyHistogram(image.data));
}

/** The share of the page's darkest pixels sharp's normalise maps to black (its lower percentile, 1 %). */
const NORMALISE_PERCENTILE = 0.01;

/** Pixels of the page that sharp's normalise sees to fix its stretch (see contrastStretched). */
const NORMALISE_SAMPLE = 1 << 18;

/**
 * Entries of -1 in a lookup table that is otherwise monotone take a value interpolated between their nearest set
 * neighbours; before the first set entry the first value, after the last the last value.
 */
export function fillMonotoneGaps(table: Int16Array): void {
  let previous = -1;
  for (let v = 0; v < table.length; v++) {
    if (table[v]! < 0) continue;
    const from = previous < 0 ? 0 : previous + 1;
    for (let gap = from; gap < v; gap++) {
      table[gap] = previous < 0 ? table[v]! : Math.round(table[previous]! + ((table[v]! - table[previous]!) * (gap - previous)) / (v - previous));
    }
    previous = v;
  }
  if (previous < 0) return; // nothing set: left as it is
  for (let gap = previous + 1; gap < table.length; gap++) table[gap] = table[previous]!;
}

/** Grey from 1–4 channel 8-bit pixels (grey, grey+alpha, RGB, RGBA); alpha composited on white. */
export function toGrey(data: Uint8Array, width: number, height: number, channels: number): GreyImage {
  const n = width * height;
  const out = new Uint8Array(n);
  // Integer Rec. 601 luma (weights sum to 256); one loop per layout keeps each loop simple for the JIT.
  if (channels === 1) out.set(data.subarray(0, n));
  else if (channels === 3) for (let i = 0, p = 0; i < n; i++, p += 3) out[i] = (data[p]! * 77 + data[p + 1]! * 150 + data[p + 2]! * 29 + 128) >>> 8;
  else if (channels === 4) {
    // One 32-bit read per pixel (little-endian: R is the low byte).
    const words = data.byteOffset % 4 === 0 ? new Uint32Array(data.buffer, data.byteOffset, n) : new Uint32Array(data.slice(0, 4 * n).buffer);
    for (let i = 0; i < n; i++) {
      const w = words[i]!;
      const grey = ((w & 255) * 77 + ((w >>> 8) & 255) * 150 + ((w >>> 16) & 255) * 29 + 128) >>> 8;
      const alpha = w >>> 24;
      out[i] = alpha === 255 ? grey : (grey * alpha + 255 * (255 - alpha) + 127) / 255;
    }
  } else if (channels === 2) {
    for (let i = 0, p = 0; i < n; i++, p += 2) out[i] = (data[p]! * data[p + 1]! + 255 * (255 - data[p + 1]!) + 127) / 255;
  } else throw new Error(`unsupported image: ${channels} channels`);
  return { data: out, width, height };
}

export async function resizeGrey(image: GreyImage, width: number): Promise<GreyImage> {
  if (width === image.width) return { data: image.data.slice(), width: image.width, height: image.height };
  const { data, info } = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 1 } })
    .resize({ width })
    .extractChannel(0)
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
}

/** The image blurred (sharp's Gaussian of standard deviation `sigma` pixels). */
export async function blurredGrey(image: GreyImage, sigma: number): Promise<GreyImage> {
  const { data, info } = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 1 } })
    .blur(sigma)
    .extractChannel(0)
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
}


/**
 * The image turned clockwise by `turns` quarter turns (0–3). Exact (a pixel permutation), so boxes map back with
 * `boxFromTurned`.
 */
export function turnGrey(image: GreyImage, turns: number): GreyImage {
  const t = ((turns % 4) + 4) % 4;
  const { data, width, height } = image;
  if (t === 0) return image;
  if (t === 2) return { data: data.slice().reverse(), width, height };
  const out = new Uint8Array(data.length);
  // Turned image: width = height, height = width. Clockwise: source (x, y) → (height − 1 − y, x).
  for (let y = 0; y < height; y++) {
    const row = y * width;
    if (t === 1) for (let x = 0; x < width; x++) out[x * height + (height - 1 - y)] = data[row + x]!;
    else for (let x = 0; x < width; x++) out[(width - 1 - x) * height + y] = data[row + x]!;
  }
  return { data: out, width: height, height: width };
}

/** Binary PGM (P5) of the image: tesseract (leptonica) reads it without decoding a compressed format. */
export function encodePgm(image: GreyImage): Buffer {
  const header = Buffer.from(`P5\n${image.width} ${image.height}\n255\n`, 'ascii');
  return Buffer.concat([header, image.data]);
}

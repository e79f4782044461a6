/**
 * Skew of a scanned page, from the projection profile of its ink: text lines are sharpest (the row histogram most
 * peaked) when sheared by the page's skew. Pure estimate on a binary thumbnail, plus the sharp glue that straightens
 * the page image before OCR and the mapping of OCR boxes back onto the original page.
 */
import sharp from 'sharp';
import type { Box } from '../../app/model/extraction.js';
import { THUMBNAIL_WIDTH, resizeGrey, type GreyImage } from './ocrImage.js';

/** Angles searched, degrees: scanners and phone photos of flat pages stay within this. */
const MAX_SKEW = 5;
/** Coarse search step, then FINE_STEP around the best coarse angle: the profile's peak is wider than COARSE_STEP. */
const COARSE_STEP = 0.5;
const FINE_STEP = 0.1;
/** Below this the page is left as it is (tesseract copes, and rotating blurs). */
export const MIN_CORRECTED_SKEW = 0.3;
/** The profile at the skew found must be this much more peaked than level, else the estimate is not trusted. */
const MIN_SHARPENING = 1.1;
/** Thumbnail grey below this is ink for the estimate. */
const INK_THRESHOLD = 160;
/** Ink pixels used by the estimate at most (evenly sampled beyond): dark pages cost no more than text pages. */
const MAX_INK_SAMPLES = 60_000;

/**
 * Skew in degrees (positive = lines descend to the right, i.e. the page is turned clockwise) of a binary image
 * (`ink[y * width + x]` true for ink). 0 when there is too little ink to tell.
 */
export function estimateSkew(ink: Uint8Array, width: number, height: number): number {
  let count = 0;
  for (let i = 0; i < width * height; i++) if (ink[i]) count++;
  if (count < 200) return 0;
  const stride = Math.max(1, Math.ceil(count / MAX_INK_SAMPLES));
  const xs = new Float64Array(Math.ceil(count / stride));
  const ys = new Float64Array(xs.length);
  let n = 0;
  for (let i = 0, seen = 0; i < width * height; i++) {
    if (!ink[i]) continue;
    if (seen++ % stride === 0) {
      xs[n] = i % width;
      ys[n++] = Math.floor(i / width);
    }
  }
  const maxOffset = Math.ceil(Math.tan((MAX_SKEW * Math.PI) / 180) * width) + 1;
  const bins = new Float64Array(height + 2 * maxOffset + 2);
  const score = (degrees: number): number => {
    const slope = Math.tan((degrees * Math.PI) / 180);
    bins.fill(0);
    for (let i = 0; i < n; i++) bins[Math.round(ys[i]! - xs[i]! * slope) + maxOffset]++;
    let sum = 0;
    for (const value of bins) sum += value * value;
    return sum;
  };
  const level = score(0);
  const search = (from: number, to: number, step: number, start: [number, number]): [number, number] => {
    let [best, bestScore] = start;
    for (let k = 0; from + k * step <= to + 1e-9; k++) {
      const degrees = from + k * step;
      const s = score(degrees);
      // Ties go to the angle nearest level (the search starts there).
      if (s > bestScore * (1 + 1e-9) || (s >= bestScore * (1 - 1e-9) && Math.abs(degrees) < Math.abs(best))) [best, bestScore] = [degrees, s];
    }
    return [best, bestScore];
  };
  const [coarse, coarseScore] = search(-MAX_SKEW, MAX_SKEW, COARSE_STEP, [0, level]);
  const lo = Math.max(-MAX_SKEW, coarse - COARSE_STEP);
  const hi = Math.min(MAX_SKEW, coarse + COARSE_STEP);
  const [best, bestScore] = search(lo, hi, FINE_STEP, [coarse, coarseScore]);
  // Lines of print are much sharper at their angle; handwriting and drawings barely are: leave those alone.
  if (bestScore < MIN_SHARPENING * level) return 0;
  return Math.round(best * 100) / 100;
}

/** Ink mask of a grey thumbnail (1 where darker than INK_THRESHOLD). */
export function inkMask(thumbnail: GreyImage): Uint8Array {
  const ink = new Uint8Array(thumbnail.width * thumbnail.height);
  for (let i = 0; i < ink.length; i++) ink[i] = thumbnail.data[i]! < INK_THRESHOLD ? 1 : 0;
  return ink;
}

export interface Straightened {
  /** The straightened page (the page itself when no correction was needed). */
  image: GreyImage;
  /** Degrees the page was turned by (the skew found); 0 when left as is. */
  skew: number;
  /** Maps a box in the straightened image back to the original page's pixels. */
  toPage: (box: Box) => Box;
}

/**
 * Straightens `image` (a grey page) when its skew is worth correcting. `thumbnail` is the same page at most
 * THUMBNAIL_WIDTH wide (made here when not given).
 */
export async function straighten(image: GreyImage, thumbnail?: GreyImage): Promise<Straightened> {
  const identity: Straightened = { image, skew: 0, toPage: (box) => box };
  const thumb = thumbnail ?? (await resizeGrey(image, Math.min(THUMBNAIL_WIDTH, image.width)));
  const skew = estimateSkew(inkMask(thumb), thumb.width, thumb.height);
  if (Math.abs(skew) < MIN_CORRECTED_SKEW) return identity;
  const { width, height } = image;
  // sharp turns clockwise for positive angles; undo the skew, on white, canvas grown to hold the turned page.
  const { data, info } = await sharp(image.data, { raw: { width, height, channels: 1 } })
    .rotate(-skew, { background: '#ffffff' })
    .extractChannel(0)
    .raw()
    .toBuffer({ resolveWithObject: true });
  const radians = (skew * Math.PI) / 180;
  const [cos, sin] = [Math.cos(radians), Math.sin(radians)];
  const [cx, cy] = [width / 2, height / 2];
  const [tx, ty] = [info.width / 2, info.height / 2];
  const back = (x: number, y: number): [number, number] => {
    // p − c = R(skew)(p′ − c′), R clockwise in y-down image coordinates.
    const [dx, dy] = [x - tx, y - ty];
    return [cx + dx * cos - dy * sin, cy + dx * sin + dy * cos];
  };
  const toPage = (box: Box): Box => {
    const corners = [back(box[0], box[1]), back(box[2], box[1]), back(box[0], box[3]), back(box[2], box[3])];
    const cxs = corners.map((c) => c[0]);
    const cys = corners.map((c) => c[1]);
    return [
      Math.max(0, Math.min(...cxs)),
      Math.max(0, Math.min(...cys)),
      Math.min(width, Math.max(...cxs)),
      Math.min(height, Math.max(...cys)),
    ];
  };
  return { image: { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height }, skew, toPage };
}

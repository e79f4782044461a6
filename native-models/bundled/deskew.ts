/**
 * Skew of a scanned page, from the projection profile of its ink: text lines are sharpest (the row histogram most
 * peaked) when sheared by the page's skew. Pure estimate on a binary thumbnail, plus the sharp glue that straightens
 * the page image before OCR and the mapping of OCR boxes back onto the original page.
 */
import sharp from 'sharp';
import type { Box } from '../../app/model/extraction.js';

/** Angles searched, degrees: scanners and phone photos of flat pages stay within this. */
const MAX_SKEW = 5;
const STEP = 0.1;
/** Below this the page is left as it is (tesseract copes, and rotating blurs). */
export const MIN_CORRECTED_SKEW = 0.3;
const THUMBNAIL_WIDTH = 800;
/** The profile at the skew found must be this much more peaked than level, else the estimate is not trusted. */
const MIN_SHARPENING = 1.1;

/**
 * Skew in degrees (positive = lines descend to the right, i.e. the page is turned clockwise) of a binary image
 * (`ink[y * width + x]` true for ink). 0 when there is too little ink to tell.
 */
export function estimateSkew(ink: Uint8Array, width: number, height: number): number {
  const xs: number[] = [];
  const ys: number[] = [];
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) if (ink[y * width + x]) (xs.push(x), ys.push(y));
  if (xs.length < 200) return 0;
  const score = (degrees: number): number => {
    const slope = Math.tan((degrees * Math.PI) / 180);
    const offset = Math.ceil(Math.abs(slope) * width) + 1;
    const bins = new Float64Array(height + 2 * offset);
    for (let i = 0; i < xs.length; i++) bins[Math.round(ys[i] - xs[i] * slope) + offset]++;
    let sum = 0;
    for (const count of bins) sum += count * count;
    return sum;
  };
  let best = 0;
  const level = score(0);
  let bestScore = level;
  for (let degrees = -MAX_SKEW; degrees <= MAX_SKEW + 1e-9; degrees += STEP) {
    const s = score(degrees);
    if (s > bestScore * (1 + 1e-9)) [best, bestScore] = [degrees, s];
  }
  // Lines of print are much sharper at their angle; handwriting and drawings barely are: leave those alone.
  if (bestScore < MIN_SHARPENING * level) return 0;
  return Math.round(best * 100) / 100;
}

export interface Straightened {
  /** PNG of the straightened page (or the page itself when no correction was needed). */
  image: Buffer;
  /** Degrees the page was turned by (the skew found); 0 when left as is. */
  skew: number;
  /** Maps a box in the straightened image back to the original page's pixels. */
  toPage: (box: Box) => Box;
}

/** Straightens `image` (a greyscale PNG of the page, `width` × `height`) when its skew is worth correcting. */
export async function straighten(image: Buffer, width: number, height: number): Promise<Straightened> {
  const identity: Straightened = { image, skew: 0, toPage: (box) => box };
  const thumbWidth = Math.min(THUMBNAIL_WIDTH, width);
  const { data, info } = await sharp(image).resize({ width: thumbWidth }).threshold(160).raw().toBuffer({ resolveWithObject: true });
  const ink = new Uint8Array(info.width * info.height);
  for (let i = 0; i < ink.length; i++) ink[i] = data[i * info.channels] < 128 ? 1 : 0;
  const skew = estimateSkew(ink, info.width, info.height);
  if (Math.abs(skew) < MIN_CORRECTED_SKEW) return identity;
  // sharp turns clockwise for positive angles; undo the skew, on white, canvas grown to hold the turned page.
  const { data: turned, info: turnedInfo } = await sharp(image).rotate(-skew, { background: '#ffffff' }).png({ compressionLevel: 1 }).toBuffer({ resolveWithObject: true });
  const radians = (skew * Math.PI) / 180;
  const [cos, sin] = [Math.cos(radians), Math.sin(radians)];
  const [cx, cy] = [width / 2, height / 2];
  const [tx, ty] = [turnedInfo.width / 2, turnedInfo.height / 2];
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
  return { image: turned, skew, toPage };
}

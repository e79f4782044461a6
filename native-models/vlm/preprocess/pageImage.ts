/**
 * Page image → pixel tensors, as DeepSeek-OCR prepares them (PIL there, sharp here):
 * - no-crop modes ≤ 640 (Tiny, Small): the page is stretched to a square;
 * - larger no-crop modes (Base, Large) and Gundam's global view: ImageOps.pad — fit inside the square keeping the
 *   aspect ratio, centre, fill with the mean colour (0.5 × 255 → 127);
 * - Gundam tiles: the page resized to cols × rows tiles of 640 px, split row-major;
 * - every view normalised with mean = std = 0.5: (v / 255 − 0.5) / 0.5, laid out [3, S, S].
 * Resampling is bicubic in both, but sharp's and PIL's kernels are not bit-identical; geometry and counts are.
 */
import sharp, { type Sharp } from 'sharp';
import { cropGridFor } from './cropGrid.js';
import type { CropGrid, ImageMode } from './imageModes.js';

export const PAD_COLOUR = Math.trunc(0.5 * 255); // 127, DeepSeek-OCR's int(mean × 255)

export interface PreparedViews {
  /** [1, 3, S, S] with S = the global view size. */
  global: { data: Float32Array; size: number };
  /** [n, 3, T, T] tiles in row-major order, or null without tiles. */
  tiles: { data: Float32Array; size: number; count: number } | null;
  grid: CropGrid;
}

export async function prepareViews(imagePath: string, mode: ImageMode): Promise<PreparedViews> {
  let source: { data: Buffer; width: number; height: number };
  try {
    const { data, info } = await sharp(imagePath).flatten({ background: '#ffffff' }).removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
    source = { data, width: info.width, height: info.height };
  } catch (error) {
    throw new Error(`${imagePath}: cannot read the page image (${(error as Error).message})`);
  }
  const raw = () => sharp(source.data, { raw: { width: source.width, height: source.height, channels: 3 } });

  if (!mode.cropMode) {
    const size = mode.imageSize;
    const view = size <= 640 ? await stretch(raw(), size, size) : await padToSquare(raw(), source.width, source.height, size);
    return { global: { data: normalise(view, size, size), size }, tiles: null, grid: [1, 1] };
  }
  const globalView = await padToSquare(raw(), source.width, source.height, mode.baseSize);
  const global = { data: normalise(globalView, mode.baseSize, mode.baseSize), size: mode.baseSize };
  const grid = cropGridFor(source.width, source.height, mode.imageSize);
  const [cols, rows] = grid;
  if (cols === 1 && rows === 1) return { global, tiles: null, grid };
  const t = mode.imageSize;
  const resized = await stretch(raw(), cols * t, rows * t);
  const count = cols * rows;
  const data = new Float32Array(count * 3 * t * t);
  for (let i = 0; i < count; i++) {
    const x0 = (i % cols) * t;
    const y0 = Math.floor(i / cols) * t;
    data.set(normalise(resized, t, t, cols * t, x0, y0), i * 3 * t * t);
  }
  return { global, tiles: { data, size: t, count }, grid };
}

async function stretch(image: Sharp, width: number, height: number): Promise<Buffer> {
  return image.resize(width, height, { fit: 'fill', kernel: 'cubic' }).raw().toBuffer();
}

/** PIL ImageOps.pad: contain (rounded like PIL), then centre with int((size − side) × 0.5) offsets. */
export function padGeometry(width: number, height: number, size: number): { width: number; height: number; left: number; top: number } {
  let w = size;
  let h = size;
  if (width / height > 1) h = Math.round((height / width) * size);
  else if (width / height < 1) w = Math.round((width / height) * size);
  return { width: w, height: h, left: Math.trunc((size - w) * 0.5), top: Math.trunc((size - h) * 0.5) };
}

async function padToSquare(image: Sharp, width: number, height: number, size: number): Promise<Buffer> {
  const g = padGeometry(width, height, size);
  const background = { r: PAD_COLOUR, g: PAD_COLOUR, b: PAD_COLOUR };
  return image
    .resize(g.width, g.height, { fit: 'fill', kernel: 'cubic' })
    .extend({ left: g.left, top: g.top, right: size - g.width - g.left, bottom: size - g.height - g.top, background })
    .raw()
    .toBuffer();
}

/** RGB bytes (HWC, rows of `stride` pixels) → normalised CHW floats of the window at (x0, y0). [3, h, w] */
export function normalise(rgb: Uint8Array, width: number, height: number, stride = width, x0 = 0, y0 = 0): Float32Array {
  const out = new Float32Array(3 * width * height);
  const plane = width * height;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const src = ((y0 + y) * stride + (x0 + x)) * 3;
      const dst = y * width + x;
      out[dst] = (rgb[src]! / 255 - 0.5) / 0.5;
      out[plane + dst] = (rgb[src + 1]! / 255 - 0.5) / 0.5;
      out[2 * plane + dst] = (rgb[src + 2]! / 255 - 0.5) / 0.5;
    }
  }
  return out;
}

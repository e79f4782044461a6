/**
 * DeepSeek-OCR's resolution modes and visual-token arithmetic. A visual token covers 16 px patches × 4 × 4
 * (16× compression): a 1024 px view gives 16 × 16 tokens, plus one newline embedding per row, plus one view separator.
 */
export type ImageModeName = 'tiny' | 'small' | 'base' | 'large' | 'gundam';

export interface ImageMode {
  /** Side of the global view in pixels. */
  baseSize: number;
  /** Side of one tile (crop mode) or of the view (no crop). */
  imageSize: number;
  /** Gundam: a global view plus 2–9 tiles chosen by the aspect-ratio grid rule. */
  cropMode: boolean;
}

export const imageModes: Record<ImageModeName, ImageMode> = {
  tiny: { baseSize: 512, imageSize: 512, cropMode: false },
  small: { baseSize: 640, imageSize: 640, cropMode: false },
  base: { baseSize: 1024, imageSize: 1024, cropMode: false },
  large: { baseSize: 1280, imageSize: 1280, cropMode: false },
  gundam: { baseSize: 1024, imageSize: 640, cropMode: true },
};

export const PATCH_SIZE = 16;
export const DOWNSAMPLE_RATIO = 4;

/** Visual tokens per side of a view of `size` pixels: ceil((size / 16) / 4). */
export function queriesPerSide(size: number): number {
  return Math.ceil(Math.floor(size / PATCH_SIZE) / DOWNSAMPLE_RATIO);
}

/** Crop grid as [columns, rows]; [1, 1] means no tiles. */
export type CropGrid = readonly [number, number];

/**
 * Number of `<image>` positions for a mode and crop grid, as DeepSeek-OCR's tokenizer expands them:
 * global q × (q + 1) + 1 separator, plus for tiles (q_t · cols + 1) × (q_t · rows).
 */
export function imageTokenCount(mode: ImageMode, grid: CropGrid = [1, 1]): number {
  const view = mode.cropMode ? mode.baseSize : mode.imageSize;
  const q = queriesPerSide(view);
  let count = q * (q + 1) + 1;
  const [cols, rows] = grid;
  if (mode.cropMode && (cols > 1 || rows > 1)) {
    const qt = queriesPerSide(mode.imageSize);
    count += (qt * cols + 1) * (qt * rows);
  }
  return count;
}

/**
 * Zoom of the page image. "Fit width" follows the pane's width, "fit page" its width and height (the whole page in
 * view); a numeric scale is image pixels → CSS pixels (1 = 100 %, one image pixel per CSS pixel).
 */
export type Zoom = { mode: 'fit' } | { mode: 'fit-page' } | { mode: 'scale'; scale: number };

export const minScale = 0.1;
export const maxScale = 8;
const step = 1.25;

/** The pane's inner size in CSS pixels (its padding taken off). */
export interface PaneSize {
  width: number;
  height: number;
}

export function effectiveScale(zoom: Zoom, imageWidth: number, paneWidth: number, imageHeight = 0, paneHeight = 0): number {
  if (zoom.mode === 'scale') return zoom.scale;
  if (imageWidth <= 0 || paneWidth <= 0) return 1;
  const fitWidth = paneWidth / imageWidth;
  if (zoom.mode === 'fit' || imageHeight <= 0 || paneHeight <= 0) return fitWidth;
  return Math.min(fitWidth, paneHeight / imageHeight);
}

export function zoomedIn(current: number): Zoom {
  return { mode: 'scale', scale: Math.min(maxScale, roundScale(current * step)) };
}

export function zoomedOut(current: number): Zoom {
  return { mode: 'scale', scale: Math.max(minScale, roundScale(current / step)) };
}

/**
 * Zoomed to a field: its box (in image pixels, [x1, y1, x2, y2]) takes at most this share of the pane's width and
 * height — read at a glance with the words around it for context — and the page is never drawn larger than
 * `fieldMaxScale` (a tiny box would otherwise fill the pane with a few blurred pixels) nor smaller than fit width.
 */
const fieldShare = { width: 0.6, height: 0.3 };
export const fieldMaxScale = 2;

export function scaleForBox(box: readonly [number, number, number, number], imageWidth: number, pane: PaneSize): number {
  const [x1, y1, x2, y2] = box;
  const fitWidth = imageWidth > 0 && pane.width > 0 ? pane.width / imageWidth : 1;
  const byWidth = (pane.width * fieldShare.width) / Math.max(1, x2 - x1);
  const byHeight = (pane.height * fieldShare.height) / Math.max(1, y2 - y1);
  return roundScale(Math.max(fitWidth, Math.min(fieldMaxScale, byWidth, byHeight)));
}

/** The scroll offsets that put the box's centre (image pixels, drawn at `scale`) in the middle of the pane. */
export function scrollToCentre(box: readonly [number, number, number, number], scale: number, pane: PaneSize): { left: number; top: number } {
  const [x1, y1, x2, y2] = box;
  return {
    left: Math.max(0, ((x1 + x2) / 2) * scale - pane.width / 2),
    top: Math.max(0, ((y1 + y2) / 2) * scale - pane.height / 2),
  };
}

/** The union of boxes (a field read over several words or lines), or null without any. */
export function unionBox(boxes: readonly (readonly number[])[]): [number, number, number, number] | null {
  if (boxes.length === 0) return null;
  return [
    Math.min(...boxes.map((b) => b[0]!)),
    Math.min(...boxes.map((b) => b[1]!)),
    Math.max(...boxes.map((b) => b[2]!)),
    Math.max(...boxes.map((b) => b[3]!)),
  ];
}

function roundScale(scale: number): number {
  return Math.round(scale * 1000) / 1000;
}

export function formatScale(scale: number): string {
  return `${Math.round(scale * 100)} %`;
}

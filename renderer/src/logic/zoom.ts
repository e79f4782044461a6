/**
 * Zoom of the page image. "Fit width" follows the pane's width; a numeric scale is image pixels → CSS pixels
 * (1 = 100 %, one image pixel per CSS pixel).
 */
export type Zoom = { mode: 'fit' } | { mode: 'scale'; scale: number };

export const minScale = 0.1;
export const maxScale = 8;
const step = 1.25;

export function effectiveScale(zoom: Zoom, imageWidth: number, paneWidth: number): number {
  if (zoom.mode === 'scale') return zoom.scale;
  if (imageWidth <= 0 || paneWidth <= 0) return 1;
  return paneWidth / imageWidth;
}

export function zoomedIn(current: number): Zoom {
  return { mode: 'scale', scale: Math.min(maxScale, roundScale(current * step)) };
}

export function zoomedOut(current: number): Zoom {
  return { mode: 'scale', scale: Math.max(minScale, roundScale(current / step)) };
}

function roundScale(scale: number): number {
  return Math.round(scale * 1000) / 1000;
}

export function formatScale(scale: number): string {
  return `${Math.round(scale * 100)} %`;
}

/**
 * Ruling lines of a PDF page: the thin horizontal and vertical strokes and filled bars a table is drawn with, as
 * boxes in page-image pixels (evidence for the bundled engine's table detection). From pdf.js's operator list:
 * each `constructPath` carries its painting op and the path's bounding box in the current user space
 * ([minX, minY, maxX, maxY]); the current transform is tracked through save / restore / transform, then the
 * viewport transform maps PDF space to image pixels.
 */
import type { PDFPageProxy } from 'pdfjs-dist/types/src/display/api.js';
import type { Box } from '../../app/model/extraction.js';
import { loadPdfjs } from './pdfjsNode.js';
import { multiply, type Matrix } from './affine.js';

/** A ruling is at most this thick (image pixels) … */
const MAX_THICKNESS = 4;
/** … and at least this long. */
const MIN_LENGTH = 12;
/** Pages with more paths than this (maps, vector drawings) are not searched for rulings. */
const MAX_PATHS = 20_000;

function apply(m: Matrix, x: number, y: number): [number, number] {
  return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
}

export async function readRulings(page: PDFPageProxy, viewportTransform: number[], clipTo: { width: number; height: number }): Promise<Box[]> {
  // pdf.js is loaded lazily (pdfjsNode.ts); its operator codes come from the loaded module.
  const { OPS } = await loadPdfjs();
  const painting = new Set<number>([OPS.stroke, OPS.closeStroke, OPS.fill, OPS.eoFill, OPS.fillStroke, OPS.eoFillStroke, OPS.closeFillStroke, OPS.closeEOFillStroke]);
  const { fnArray, argsArray } = await page.getOperatorList();
  const rulings: Box[] = [];
  let ctm: Matrix = viewportTransform.slice(0, 6) as Matrix;
  const stack: Matrix[] = [];
  let paths = 0;
  for (let i = 0; i < fnArray.length; i++) {
    const fn = fnArray[i];
    const args = argsArray[i] as unknown[];
    if (fn === OPS.save) stack.push(ctm);
    else if (fn === OPS.restore) ctm = stack.pop() ?? ctm;
    else if (fn === OPS.transform) ctm = multiply(ctm, args as Matrix);
    else if (fn === OPS.constructPath) {
      if (++paths > MAX_PATHS) return [];
      const [op, , minMax] = args as [number, unknown, ArrayLike<number> | null];
      if (!painting.has(op) || !minMax || minMax.length < 4 || !Number.isFinite(minMax[0])) continue;
      const corners = [apply(ctm, minMax[0], minMax[1]), apply(ctm, minMax[2], minMax[3]), apply(ctm, minMax[0], minMax[3]), apply(ctm, minMax[2], minMax[1])];
      const xs = corners.map((c) => c[0]);
      const ys = corners.map((c) => c[1]);
      const box: Box = [Math.max(0, Math.min(...xs)), Math.max(0, Math.min(...ys)), Math.min(clipTo.width, Math.max(...xs)), Math.min(clipTo.height, Math.max(...ys))];
      const [w, h] = [box[2] - box[0], box[3] - box[1]];
      if (w < 0 || h < 0) continue;
      if ((h <= MAX_THICKNESS && w >= MIN_LENGTH) || (w <= MAX_THICKNESS && h >= MIN_LENGTH)) {
        rulings.push(box.map((v) => Math.round(v * 10) / 10) as Box);
      }
    }
  }
  return rulings;
}

/**
 * Ruling lines of a PDF page: the thin horizontal and vertical strokes and filled bars a table is drawn with, as
 * boxes in page-image pixels (evidence for the bundled engine's table detection). From pdf.js's operator list:
 * each `constructPath` carries its painting op, its path (moveTo / lineTo / curveTo / closePath in user space) and
 * its bounding box; the current transform and line width are tracked through save / restore / transform /
 * setLineWidth, then the viewport transform maps PDF space to image pixels.
 *
 * One path often draws many rules (every cell border of a table in one path, a rectangle stroked round a table), so
 * each subpath is looked at on its own: a thin filled subpath is one rule; a stroked subpath gives one rule per
 * straight horizontal or vertical segment, rectangles included.
 */
import type { PDFPageProxy } from 'pdfjs-dist/types/src/display/api.js';
import type { Box } from '../../app/model/extraction.js';
import { loadPdfjs } from './pdfjsNode.js';
import { multiply, type Matrix } from './affine.js';

/** A ruling is at most this thick (image pixels) … */
const MAX_THICKNESS = 4;
/** … and at least this long. */
const MIN_LENGTH = 12;
/** A line stroked wider than this (image pixels) is a bar, not a rule. */
const MAX_STROKE_WIDTH = 12;
/** Pages with more paths than this (maps, vector drawings) are not searched for rulings. */
const MAX_PATHS = 20_000;
/** pdf.js's path-drawing codes inside a constructPath's path data (DrawOPS). */
const MOVE_TO = 0;
const LINE_TO = 1;
const CURVE_TO = 2;
const QUADRATIC_CURVE_TO = 3;
const CLOSE_PATH = 4;

function apply(m: Matrix, x: number, y: number): [number, number] {
  return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
}

interface Subpath {
  points: Array<[number, number]>;
  closed: boolean;
  curved: boolean;
}

/** Subpaths of a path in pdf.js's DrawOPS encoding, points in user space. */
export function subpathsOf(data: ArrayLike<number>): Subpath[] {
  const subpaths: Subpath[] = [];
  let current: Subpath | null = null;
  const start = (x: number, y: number): void => {
    current = { points: [[x, y]], closed: false, curved: false };
    subpaths.push(current);
  };
  for (let i = 0; i < data.length; ) {
    const code = data[i++];
    if (code === MOVE_TO) start(data[i++], data[i++]);
    else if (code === LINE_TO) {
      const [x, y] = [data[i++], data[i++]];
      if (!current) start(x, y);
      else (current as Subpath).points.push([x, y]);
    } else if (code === CURVE_TO || code === QUADRATIC_CURVE_TO) {
      const n = code === CURVE_TO ? 6 : 4;
      const [x, y] = [data[i + n - 2], data[i + n - 1]];
      i += n;
      if (!current) start(x, y);
      (current as unknown as Subpath).curved = true;
      (current as unknown as Subpath).points.push([x, y]);
    } else if (code === CLOSE_PATH) {
      if (current) (current as Subpath).closed = true;
      current = null;
    } else break; // unknown code: the rest cannot be decoded
  }
  return subpaths;
}

/** A thin, long box: a horizontal or vertical rule. */
function isRule(box: Box): boolean {
  const [w, h] = [box[2] - box[0], box[3] - box[1]];
  return w >= 0 && h >= 0 && ((h <= MAX_THICKNESS && w >= MIN_LENGTH) || (w <= MAX_THICKNESS && h >= MIN_LENGTH));
}

function boundsOf(points: ReadonlyArray<readonly [number, number]>): Box {
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

/**
 * Rules drawn by one painted path, in image pixels: thin filled subpaths, and the horizontal or vertical straight
 * segments of stroked ones (as thick as their line width, at most MAX_THICKNESS).
 */
export function rulesOfPath(
  subpaths: readonly Subpath[],
  ctm: Matrix,
  paint: { fill: boolean; stroke: boolean; closeStroke: boolean; lineWidthPx: number },
): Box[] {
  const rules: Box[] = [];
  for (const subpath of subpaths) {
    const points = subpath.points.map(([x, y]) => apply(ctm, x, y));
    if (points.length === 0) continue;
    if (paint.fill) {
      const box = boundsOf(points);
      if (isRule(box)) rules.push(box);
    }
    if (paint.stroke && !subpath.curved && paint.lineWidthPx <= MAX_STROKE_WIDTH) {
      // A heavy rule counts as a rule of the greatest thickness.
      const half = Math.min(paint.lineWidthPx, MAX_THICKNESS) / 2;
      const closing = subpath.closed || paint.closeStroke;
      const ends = closing && points.length > 2 ? [...points, points[0]] : points;
      for (let i = 1; i < ends.length; i++) {
        const [[x1, y1], [x2, y2]] = [ends[i - 1], ends[i]];
        // Straight along one axis (within a pixel); a diagonal is no rule.
        if (Math.abs(y2 - y1) <= 1 && Math.abs(x2 - x1) >= MIN_LENGTH) rules.push([Math.min(x1, x2), Math.min(y1, y2) - half, Math.max(x1, x2), Math.max(y1, y2) + half]);
        else if (Math.abs(x2 - x1) <= 1 && Math.abs(y2 - y1) >= MIN_LENGTH) rules.push([Math.min(x1, x2) - half, Math.min(y1, y2), Math.max(x1, x2) + half, Math.max(y1, y2)]);
      }
    }
  }
  return rules;
}

/** An image this small (image pixels, either side) is a bullet, a rule or a glyph, not a picture: not reported. */
const MIN_IMAGE_SIDE = 8;

/**
 * Ruling lines of the page; with `images`, also the boxes of the images it paints (image XObjects, inline images,
 * stencil masks: the unit square through the current transform), clipped to the page — read in the same pass over
 * the operator list. The bundled engine OCRs the images that hold text on pages read from their text layer.
 */
export async function readRulings(page: PDFPageProxy, viewportTransform: number[], clipTo: { width: number; height: number }, images?: Box[]): Promise<Box[]> {
  // pdf.js is loaded lazily (pdfjsNode.ts); its operator codes come from the loaded module.
  const { OPS } = await loadPdfjs();
  const fills = new Set<number>([OPS.fill, OPS.eoFill, OPS.fillStroke, OPS.eoFillStroke, OPS.closeFillStroke, OPS.closeEOFillStroke]);
  const strokes = new Set<number>([OPS.stroke, OPS.closeStroke, OPS.fillStroke, OPS.eoFillStroke, OPS.closeFillStroke, OPS.closeEOFillStroke]);
  const closingStrokes = new Set<number>([OPS.closeStroke, OPS.closeFillStroke, OPS.closeEOFillStroke]);
  const imageOps = new Set<number>([OPS.paintImageXObject, OPS.paintInlineImageXObject, OPS.paintImageMaskXObject, OPS.paintImageXObjectRepeat]);
  const { fnArray, argsArray } = await page.getOperatorList();
  const rulings: Box[] = [];
  let ctm: Matrix = viewportTransform.slice(0, 6) as Matrix;
  let lineWidth = 1;
  const stack: Array<{ ctm: Matrix; lineWidth: number }> = [];
  let paths = 0;
  for (let i = 0; i < fnArray.length; i++) {
    const fn = fnArray[i];
    const args = argsArray[i] as unknown[];
    if (fn === OPS.save) stack.push({ ctm, lineWidth });
    else if (fn === OPS.restore) ({ ctm, lineWidth } = stack.pop() ?? { ctm, lineWidth });
    else if (fn === OPS.transform) ctm = multiply(ctm, args as Matrix);
    else if (fn === OPS.setLineWidth) lineWidth = Number(args[0]) || 0;
    else if (images && imageOps.has(fn)) {
      const corners = [apply(ctm, 0, 0), apply(ctm, 1, 0), apply(ctm, 0, 1), apply(ctm, 1, 1)];
      const box = boundsOf(corners);
      const clipped: Box = [Math.max(0, box[0]), Math.max(0, box[1]), Math.min(clipTo.width, box[2]), Math.min(clipTo.height, box[3])];
      if (clipped[2] - clipped[0] >= MIN_IMAGE_SIDE && clipped[3] - clipped[1] >= MIN_IMAGE_SIDE) images.push(clipped.map((v) => Math.round(v * 10) / 10) as Box);
    }
    else if (fn === OPS.constructPath) {
      if (++paths > MAX_PATHS) return [];
      const [op, data, minMax] = args as [number, [ArrayLike<number> | null] | null, ArrayLike<number> | null];
      const fill = fills.has(op);
      const stroke = strokes.has(op);
      if ((!fill && !stroke) || !minMax || minMax.length < 4 || !Number.isFinite(minMax[0])) continue;
      const path = data?.[0];
      // A zero line width is the thinnest line the device can draw: one pixel.
      const scale = Math.sqrt(Math.abs(ctm[0] * ctm[3] - ctm[1] * ctm[2]));
      const lineWidthPx = Math.max(1, lineWidth * scale);
      const boxes = path
        ? rulesOfPath(subpathsOf(path), ctm, { fill, stroke, closeStroke: closingStrokes.has(op), lineWidthPx })
        : // No path data (older pdf.js shapes): the path's bounding box is the rule, when it is thin.
          [boundsOf([apply(ctm, minMax[0], minMax[1]), apply(ctm, minMax[2], minMax[3]), apply(ctm, minMax[0], minMax[3]), apply(ctm, minMax[2], minMax[1])])].filter(isRule);
      for (const box of boxes) {
        const clipped: Box = [Math.max(0, box[0]), Math.max(0, box[1]), Math.min(clipTo.width, box[2]), Math.min(clipTo.height, box[3])];
        if (isRule(clipped)) rulings.push(clipped.map((v) => Math.round(v * 10) / 10) as Box);
      }
    }
  }
  return rulings;
}

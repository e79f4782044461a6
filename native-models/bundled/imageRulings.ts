/**
 * Ruling lines of a page image: the long, thin horizontal and vertical strokes a scanned table is drawn with, as the
 * same thin boxes the PDF text layer's vector rulings give (main/import/pdfRulings.ts), so OCR pages feed the same
 * lattice / ruled-region table finders.
 *
 * Dark pixels are scanned in runs along rows (horizontal rules) and along columns (vertical rules), bridging gaps of
 * a pixel or two that binarisation leaves in faint lines. Only runs far longer than any stroke of a letter are kept,
 * runs in neighbouring rows (columns) that overlap are one line — a slightly skewed line is a staircase of runs, so
 * a line's thickness is its ink over its length, not its bounding box — and collinear pieces with short gaps are
 * joined. Filled bars and scan shadows are too thick, dotted and short-dashed lines never make a long enough run,
 * the letters of blurred text fused into a long run have ink right beside it, and lines hugging the image edge are
 * the scan's edge, not print. Ink is cut twice relative to the paper's grey: lightly (light-grey rules) and, where
 * that cut saw bars, darkly (a black rule bordering a grey-shaded row is a bar at the light cut).
 *
 * Every length is in units of the page's text height (the OCR's row height), so the same rules hold at any dpi.
 */
import type { Box } from '../../app/model/extraction.js';
import type { GreyImage } from './ocrImage.js';

export interface ImageRulingOptions {
  /** Typical height of a line of text in the image, pixels (ascender to descender). */
  textHeight: number;
  /** Grey values below this are ink; default: INK_CONTRAST below the paper's grey. */
  darkBelow?: number;
}

/**
 * Ink is this much darker than the paper (the commonest light grey). Rules are often printed light grey (an AWS
 * invoice's are ~210 on white) and scanned paper is often grey (~200 on a contrast-stretched scan), so a fixed cut
 * would lose either one or the other.
 */
const INK_CONTRAST = 40;
/** The dark cut: black and near-black print only, clear of grey shading. */
const DARK_INK_CONTRAST = 110;
/** Text rows at least this many pixels high are looked for rules at half size. */
const HALVE_ABOVE = 32;
/** A piece of a line is at least this many text heights long: longer than any stroke of a letter … */
const MIN_PIECE = 1.5;
/** … a whole horizontal line at least this long (a table's rules span columns; a long word's underline is no grid) … */
const MIN_HORIZONTAL = 2.5;
/** … and a vertical one this long (a one-row table's column rules are a little taller than its text). */
const MIN_VERTICAL = 1.5;
/** Gaps inside a run up to this many text heights are bridged (binarisation breaks faint rules). */
const RUN_GAP = 0.06;
/** Collinear pieces this close (text heights) are one line. */
const JOIN_GAP = 0.5;
/** A line is at most this thick (ink over length, text heights): thicker is a bar, a shadow, a letter. */
const MAX_THICKNESS = 0.35;
/** A line is at least this many times as long as it is thick (a tall heading's letter stems are thick and short). */
const MIN_ASPECT = 12;
/** A line drifts across at most this share of its length (residual skew); more is a shape, not a rule. */
const MAX_DRIFT = 0.03;
/**
 * A rule stands clear: a gap's width off its edge, on each side, at most this share of its length is ink. The letters
 * of a line of text merged into a blob by a blurry scan make long thin runs along the baseline and through the body,
 * with the letters' ink right beside them; the text in a tight table cell keeps a pixel or two off its rules.
 */
const MAX_SIDE_INK = 0.5;
/** Lines within this share of the image size of its edge, along it, are the scan's edge. */
const EDGE_MARGIN = 0.01;
/** A shaded row or column is a bar at least this long (text heights): blurred words fused into one are shorter. */
const MIN_BAR = 8;
/** More lines than this either way: a drawing or a halftone, not tables. */
const MAX_LINES = 3000;

interface Run {
  /** Row (horizontal) or column (vertical). */
  pos: number;
  start: number;
  /** Inclusive. */
  end: number;
}

interface Line {
  /** Centre across the line. */
  pos: number;
  start: number;
  /** Exclusive. */
  end: number;
  thickness: number;
}

/** Ruling boxes in the image's pixels: [x1, y1, x2, y2], thin across, long along. */
export function findImageRulings(image: GreyImage, options: ImageRulingOptions): Box[] {
  if (!(options.textHeight > 0) || image.width < 2 || image.height < 2 || image.data.length < image.width * image.height) return [];
  // Large print is looked at halved (darkest of each 2 × 2, so one-pixel rules stay): a quarter of the pixels to scan.
  const factor = options.textHeight >= HALVE_ABOVE ? 2 : 1;
  const small = factor === 1 ? image : darkestOf2x2(image);
  const unit = options.textHeight / factor;
  const paper = paperGrey(small.data);
  // Two cuts: a light one for light-grey rules, a dark one for black rules bordering grey-shaded cells (at the light
  // cut the rule and the shading are one bar).
  const cuts = options.darkBelow !== undefined ? [options.darkBelow] : [paper - INK_CONTRAST, paper - DARK_INK_CONTRAST].filter((cut) => cut > 0);
  let horizontal: Line[] = [];
  let vertical: Line[] = [];
  for (const dark of cuts) {
    const found = linesAt(small, dark, unit);
    horizontal = [...horizontal, ...found.horizontal.filter((line) => !horizontal.some((seen) => sameLine(seen, line)))];
    vertical = [...vertical, ...found.vertical.filter((line) => !vertical.some((seen) => sameLine(seen, line)))];
    // The dark cut only finds rules the light one saw merged into a bar: without bars it would find the same again.
    if (found.bars === 0) break;
  }
  if (horizontal.length > MAX_LINES || vertical.length > MAX_LINES) return [];
  const round = (v: number): number => Math.round(v * factor * 10) / 10;
  return [
    ...horizontal.map((l): Box => [round(l.start), round(l.pos - l.thickness / 2), round(l.end), round(l.pos + l.thickness / 2)]),
    ...vertical.map((l): Box => [round(l.pos - l.thickness / 2), round(l.start), round(l.pos + l.thickness / 2), round(l.end)]),
  ];
}

/** The same rule seen at both cuts: at about one position, mostly overlapping. */
function sameLine(a: Line, b: Line): boolean {
  const overlap = Math.min(a.end, b.end) - Math.max(a.start, b.start);
  return Math.abs(a.pos - b.pos) <= 1 + Math.max(a.thickness, b.thickness) && overlap >= 0.5 * Math.min(a.end - a.start, b.end - b.start);
}

/** The rules of the image where ink is darker than `dark`, measured against text `unit` pixels high. */
function linesAt(image: GreyImage, dark: number, unit: number): { horizontal: Line[]; vertical: Line[]; bars: number } {
  const { width, height, data } = image;
  const gap = Math.max(1, Math.round(RUN_GAP * unit));
  const minPiece = Math.max(8, MIN_PIECE * unit);
  const rows = horizontalRuns(data, width, height, dark, gap, minPiece);
  const columns = verticalRuns(data, width, height, dark, gap, minPiece);
  const maxThickness = Math.max(4, MAX_THICKNESS * unit);
  const joinGap = Math.max(gap, JOIN_GAP * unit);
  const standsAlone = (line: Line, across: boolean): boolean => {
    const reach = Math.ceil(line.thickness / 2) + gap + 1;
    const side = (offset: number): number => inkShare(image, dark, line, Math.round(line.pos + offset), across);
    return Math.max(side(-reach), side(reach)) <= MAX_SIDE_INK;
  };
  const rowLines = linesOf(rows, maxThickness, MIN_BAR * unit);
  const columnLines = linesOf(columns, maxThickness, MIN_BAR * unit);
  const horizontal = joinCollinear(rowLines.lines.filter((line) => standsAlone(line, false)), joinGap, maxThickness).filter(
    (line) => line.end - line.start >= MIN_HORIZONTAL * unit && !alongEdge(line, height),
  );
  const vertical = joinCollinear(columnLines.lines.filter((line) => standsAlone(line, true)), joinGap, maxThickness).filter(
    (line) => line.end - line.start >= Math.max(minPiece, MIN_VERTICAL * unit) && !alongEdge(line, width),
  );
  return { horizontal, vertical, bars: rowLines.bars + columnLines.bars };
}

/** The image at half size, each pixel the darkest of the 2 × 2 it stands for. */
function darkestOf2x2(image: GreyImage): GreyImage {
  const { width, height, data } = image;
  const [w, h] = [width >> 1, height >> 1];
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    const top = 2 * y * width;
    const bottom = top + width;
    for (let x = 0; x < w; x++) {
      const i = 2 * x;
      out[y * w + x] = Math.min(data[top + i]!, data[top + i + 1]!, data[bottom + i]!, data[bottom + i + 1]!);
    }
  }
  return { data: out, width: w, height: h };
}

/** The commonest grey of the lighter half of a sample of the pixels: the paper. */
function paperGrey(data: Uint8Array): number {
  const counts = new Uint32Array(256);
  const step = Math.max(1, Math.floor(data.length / 200_000));
  for (let i = 0; i < data.length; i += step) counts[data[i]!]!++;
  let mode = 255;
  for (let v = 128; v < 256; v++) if (counts[v]! > counts[mode]!) mode = v;
  return mode;
}

/** Share of ink along a line's extent in row (`vertical` false) or column `at`; outside the image counts as no ink. */
function inkShare(image: GreyImage, dark: number, line: Line, at: number, vertical: boolean): number {
  const { data, width, height } = image;
  if (at < 0 || at >= (vertical ? width : height)) return 0;
  let ink = 0;
  for (let i = line.start; i < line.end; i++) if (data[vertical ? i * width + at : at * width + i]! < dark) ink++;
  return ink / Math.max(1, line.end - line.start);
}

const alongEdge = (line: Line, size: number): boolean => line.pos < EDGE_MARGIN * size || line.pos > (1 - EDGE_MARGIN) * size;

/** Runs of ink along each row at least `minLength` long, gaps up to `gap` bridged; in row order. */
function horizontalRuns(data: Uint8Array, width: number, height: number, dark: number, gap: number, minLength: number): Run[] {
  const runs: Run[] = [];
  for (let y = 0; y < height; y++) {
    const row = y * width;
    let start = -1;
    let last = -1;
    for (let x = 0; x < width; x++) {
      if (data[row + x]! < dark) {
        if (start < 0 || x - last > gap + 1) {
          if (start >= 0 && last - start + 1 >= minLength) runs.push({ pos: y, start, end: last });
          start = x;
        }
        last = x;
      }
    }
    if (start >= 0 && last - start + 1 >= minLength) runs.push({ pos: y, start, end: last });
  }
  return runs;
}

/**
 * Runs of ink down each column, found in one pass over the rows (row-major, as the image lies in memory) with each
 * column's open run kept aside; sorted by column.
 */
function verticalRuns(data: Uint8Array, width: number, height: number, dark: number, gap: number, minLength: number): Run[] {
  const runs: Run[] = [];
  const start = new Int32Array(width).fill(-1);
  const last = new Int32Array(width).fill(-1);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      if (data[row + x]! < dark) {
        const s = start[x]!;
        if (s < 0 || y - last[x]! > gap + 1) {
          if (s >= 0 && last[x]! - s + 1 >= minLength) runs.push({ pos: x, start: s, end: last[x]! });
          start[x] = y;
        }
        last[x] = y;
      }
    }
  }
  for (let x = 0; x < width; x++) if (start[x]! >= 0 && last[x]! - start[x]! + 1 >= minLength) runs.push({ pos: x, start: start[x]!, end: last[x]! });
  return runs.sort((a, b) => a.pos - b.pos || a.start - b.start);
}

interface Growing {
  first: number;
  last: number;
  start: number;
  end: number;
  /** The extent of its runs in the last row (column) it took one: what the next row's run must touch. */
  lastStart: number;
  lastEnd: number;
  /** The extent of its runs in the row (column) being read. */
  pendingStart: number;
  pendingEnd: number;
  ink: number;
  weighted: number;
}

/**
 * Runs sorted by `pos` → lines: a run joins the line whose runs in the previous row (or the one before) it overlaps
 * or touches; a line's thickness is its ink over its length, its position the ink's centre.
 */
function linesOf(runs: readonly Run[], maxThickness: number, minBar: number): { lines: Line[]; bars: number } {
  const done: Growing[] = [];
  let open: Growing[] = [];
  let currentPos = -1;
  // Lines that took a run in the row being read: their previous row's extent moves on once the row is done.
  let thisRow: Growing[] = [];
  const settleRow = (): void => {
    for (const g of thisRow) {
      g.lastStart = g.pendingStart;
      g.lastEnd = g.pendingEnd;
    }
    thisRow = [];
  };
  for (const run of runs) {
    if (run.pos !== currentPos) {
      settleRow();
      currentPos = run.pos;
      const still: Growing[] = [];
      for (const g of open) (run.pos - g.last > 2 ? done : still).push(g);
      open = still;
    }
    const length = run.end - run.start + 1;
    // Matched against the line's previous row, so a line broken within this row keeps both pieces.
    const line = open.find((g) => g.first < run.pos && run.start <= g.lastEnd + 1 && run.end >= g.lastStart - 1);
    if (line) {
      if (line.last < run.pos) {
        line.pendingStart = run.start;
        line.pendingEnd = run.end;
        thisRow.push(line);
      } else {
        line.pendingStart = Math.min(line.pendingStart, run.start);
        line.pendingEnd = Math.max(line.pendingEnd, run.end);
      }
      line.last = run.pos;
      line.start = Math.min(line.start, run.start);
      line.end = Math.max(line.end, run.end);
      line.ink += length;
      line.weighted += length * run.pos;
    } else {
      const g: Growing = {
        first: run.pos, last: run.pos, start: run.start, end: run.end, lastStart: run.start, lastEnd: run.end,
        pendingStart: run.start, pendingEnd: run.end, ink: length, weighted: length * run.pos,
      };
      open.push(g);
      thisRow.push(g);
    }
  }
  done.push(...open);
  const lines: Line[] = [];
  let bars = 0;
  for (const g of done) {
    const length = g.end - g.start + 1;
    const thickness = g.ink / length;
    const drift = g.last - g.first + 1 - thickness;
    if (thickness > maxThickness && length >= minBar) bars++;
    if (thickness > maxThickness || length < MIN_ASPECT * thickness || drift > Math.max(maxThickness, MAX_DRIFT * length)) continue;
    lines.push({ pos: g.weighted / g.ink + 0.5, start: g.start, end: g.end + 1, thickness: Math.max(1, thickness) });
  }
  return { lines, bars };
}

/** Pieces of one line (positions within its thickness) whose ends are at most `joinGap` apart become one line. */
function joinCollinear(lines: Line[], joinGap: number, maxThickness: number): Line[] {
  const sorted = [...lines].sort((a, b) => a.start - b.start);
  const joined: Line[] = [];
  for (const line of sorted) {
    const near = joined.find((j) => Math.abs(j.pos - line.pos) <= Math.max(2, maxThickness / 2) && line.start - j.end <= joinGap && line.end >= j.start);
    if (!near) {
      joined.push({ ...line });
      continue;
    }
    const [a, b] = [near.end - near.start, line.end - line.start];
    near.pos = (near.pos * a + line.pos * b) / (a + b);
    near.thickness = (near.thickness * a + line.thickness * b) / (a + b);
    near.start = Math.min(near.start, line.start);
    near.end = Math.max(near.end, line.end);
  }
  return joined;
}

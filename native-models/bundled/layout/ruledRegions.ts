/**
 * Regions fenced by horizontal rules only (the "booktabs" style of papers and reports: a rule above the table, one
 * under its header, one below it, maybe some between groups of rows). Rules of the same extent stacked on a page
 * are one table's, unless what runs between two of them is not table rows: paragraph text, text reaching past their
 * ends (a caption, body text), several lines most of which are not cut into cells (an address block under a page
 * header's rule), a title or a wide white gap, or nothing but white space (two tables, one under the other). The
 * rules then belong to two tables, or to none. Rules that run through the words (the lines of notepaper,
 * strike-throughs) fence nothing.
 * The region from the first to the last rule of a stack is where the alignment finder looks, without breaking its
 * run of rows at a long cell or a wide gap.
 */
import type { Box } from '../../../app/model/extraction.js';
import { buildRows } from './buildSegments.js';
import { boxWidth, median, type Segment } from './layoutTypes.js';
import { mergeRulings, type RulingLine } from './rulingGrid.js';
import { overlapX } from './tableGeometry.js';
import { isRotated } from './uprightProxies.js';

/** A rule shorter than this many text heights is an underline or a footnote mark, not a table's rule. */
const MIN_RULE_LENGTH = 8;
/** Rules whose ends are this many text heights apart or closer have the same extent. */
const SAME_EXTENT = 0.6;
/** A segment with this many words, as wide as this share of the rules, is a line of paragraph text … */
const PARAGRAPH_WORDS = 8;
const PARAGRAPH_WIDTH = 0.6;
/** … and two such lines between two rules make them two tables' rules. */
const PARAGRAPH_LINES = 2;
/** Between two rules of one table, up to this many rows may be anything (a row, a wrapped row, a section label) … */
const SHORT_BAND_ROWS = 2;
/** … more must be mostly rows of two or more cells (an address block or a letter between two rules is not a table). */
const TABULAR_ROW_SHARE = 0.5;
/** Two rules further apart than this many text heights with nothing between them end one table and start another. */
const BLANK_BAND = 1;
/** A rule more than this share of a word's height inside its box runs through it … */
const CROSSING_MARGIN = 0.2;
/** … and a region whose rules run through more than this share of its words is not a table. */
const MAX_CROSSED_SHARE = 0.1;
/** Rows of one table are never further apart than this many text heights … */
const MAX_ROW_GAP = 2;
/** … nor is one of them a line set this much larger than the others (a title over what follows). */
const TITLE_SIZE = 1.25;

export interface RuledRegion {
  box: Box;
  /** y of each rule, top to bottom (the first and last are the region's top and bottom). */
  rules: number[];
}

export function ruledRegions(rulings: readonly Box[], segments: readonly Segment[], unit: number, exclude: readonly Box[] = []): RuledRegion[] {
  const tolerance = Math.max(2, 0.3 * unit);
  const lines = mergeRulings(rulings, tolerance).horizontal.filter(
    (line) => line.end - line.start >= MIN_RULE_LENGTH * unit && !exclude.some((box) => line.pos >= box[1] - tolerance && line.pos <= box[3] + tolerance && line.start >= box[0] - tolerance && line.end <= box[2] + tolerance),
  );
  // Groups of rules with the same extent, top to bottom.
  const groups: RulingLine[][] = [];
  for (const line of [...lines].sort((a, b) => a.pos - b.pos)) {
    const group = groups.find((g) => Math.abs(g[0].start - line.start) <= SAME_EXTENT * unit && Math.abs(g[0].end - line.end) <= SAME_EXTENT * unit);
    if (group) group.push(line);
    else groups.push([line]);
  }
  const regions: RuledRegion[] = [];
  for (const group of groups) {
    let stack: RulingLine[] = [group[0]];
    const close = (): void => {
      if (stack.length >= 2) regions.push({ box: [stack[0].start, stack[0].pos, stack[0].end, stack[stack.length - 1].pos], rules: stack.map((line) => line.pos) });
    };
    for (const line of group.slice(1)) {
      const previous = stack[stack.length - 1];
      if (separates(previous, line, segments, unit)) {
        close();
        stack = [line];
      } else stack.push(line);
    }
    close();
  }
  // Rules that run through the text (the lines of ruled notepaper, strike-throughs) do not fence table rows.
  const crossed = (region: RuledRegion): boolean => {
    const words = segments.filter((s) => centreIn(s.box, region.box)).flatMap((s) => s.words);
    const through = words.filter((w) => region.rules.some((y) => y > w.box[1] + CROSSING_MARGIN * (w.box[3] - w.box[1]) && y < w.box[3] - CROSSING_MARGIN * (w.box[3] - w.box[1])));
    return through.length > MAX_CROSSED_SHARE * words.length;
  };
  // A region must hold text; nested or overlapping regions (rules of two widths in one table) keep the larger.
  const area = (box: Box): number => boxWidth(box) * (box[3] - box[1]);
  return regions
    .filter((region) => segments.some((s) => centreIn(s.box, region.box)) && !crossed(region))
    .sort((a, b) => area(b.box) - area(a.box))
    .filter((region, i, all) => !all.slice(0, i).some((other) => overlaps(region.box, other.box)));
}

/** Paragraph text between two rules, or text that reaches past their ends: they are not one table's rules. */
function separates(upper: RulingLine, lower: RulingLine, segments: readonly Segment[], unit: number): boolean {
  const between = segments.filter((s) => {
    const cy = (s.box[1] + s.box[3]) / 2;
    return cy > upper.pos && cy < lower.pos && s.box[2] > upper.start && s.box[0] < upper.end;
  });
  const width = upper.end - upper.start;
  const paragraphLines = between.filter((s) => s.words.length >= PARAGRAPH_WORDS && boxWidth(s.box) >= PARAGRAPH_WIDTH * width).length;
  // (A rotated heading's upright box may reach past the rules; its text does not.)
  const outside = between.some((s) => s.words.some((w) => !isRotated(w) && (w.box[0] < upper.start - unit || w.box[2] > upper.end + unit)));
  // Several lines between two rules must look like table rows: most of them cut into two or more cells, not
  // counting the wrapped lines of a cell (one-segment lines under a cell of the row above).
  const rows = buildRows(between);
  let multi = 0;
  let logical = 0;
  let anchor: (typeof rows)[number] | null = null;
  for (const row of rows) {
    const wrapped = anchor !== null && row.segments.length === 1 && anchor.segments.some((cell) => overlapX(cell.box, row.segments[0].box) > 0);
    if (wrapped) continue;
    logical++;
    if (row.segments.length >= 2) {
      multi++;
      anchor = row;
    } else anchor = null;
  }
  const tabular = logical <= SHORT_BAND_ROWS || multi >= TABULAR_ROW_SHARE * logical;
  // Rules with only white space between them are a double rule when close, else the bottom of one table and the top
  // of the next.
  const blank = between.length === 0 && lower.pos - upper.pos > BLANK_BAND * unit;
  // A wide white gap between two rows, or a line set larger than the rest (a title), is not inside a table.
  const gapped = rows.some((row, i) => i > 0 && row.box[1] - rows[i - 1].box[3] > MAX_ROW_GAP * unit);
  const typicalSize = median(rows.map((row) => row.fontSize));
  const titled = rows.length >= 2 && rows.some((row) => row.segments.length === 1 && row.fontSize > TITLE_SIZE * typicalSize);
  return paragraphLines >= PARAGRAPH_LINES || outside || !tabular || blank || gapped || titled;
}

function centreIn(box: Box, region: Box): boolean {
  const cx = (box[0] + box[2]) / 2;
  const cy = (box[1] + box[3]) / 2;
  return cx >= region[0] && cx <= region[2] && cy >= region[1] && cy <= region[3];
}

function overlaps(a: Box, b: Box): boolean {
  return Math.min(a[2], b[2]) > Math.max(a[0], b[0]) && Math.min(a[3], b[3]) > Math.max(a[1], b[1]);
}

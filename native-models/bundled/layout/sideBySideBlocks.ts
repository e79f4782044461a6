/**
 * Two blocks set side by side (the customer's address beside the invoice's details, "Bill to" beside "Ship to")
 * versus lines that run across a gutter (label/value pairs, the rows of a table). Read row by row, the first would
 * interleave two unrelated blocks; read one side after the other, the second would part each label from its value.
 *
 * The sides are blocks of their own when neither needs the other:
 *  - no left line waits for a value across the gutter (ends in ':' with a line level with it on the right), and the
 *    gutter is much wider than any gap between a label and its value inside a side;
 *  - and either a side carries its own labels (most of its lines are "label: value"; labels on the left only count
 *    when the right side is more than a column of values), or both sides open with a heading line of their own and
 *    start or end on different rows (a table's header row sits over cells that start and end level with each other).
 */
import { buildRows } from './buildSegments.js';
import { median, type Row, type Segment } from './layoutTypes.js';
import { fontTraits } from './mathSymbols.js';

/** The gutter is at least this many times the widest gap between segments of one row inside either side. */
const GUTTER_OVER_INNER_GAP = 1.5;
/** Each side holds at least this many lines. */
const MIN_ROWS = 2;
/** A heading line set in a larger size than the rest of its side: at least this ratio. */
const HEADING_SIZE_RATIO = 1.05;
/** OCR sizes are line heights, which ascenders and descenders alone change by more than a heading's step. */
const OCR_HEADING_SIZE_RATIO = 1.25;
/** A heading line is short. */
const HEADING_MAX_WORDS = 5;
/** Sides start or end on different rows when their first (or last) lines are this many median heights apart. */
const EXTENT_SLACK = 0.5;

/**
 * A line that names its own value: a label that starts with a letter and ends in a letter, '.' or ')' before the
 * colon, then the value ("Issued: 2 November", "Date : 28/11/2022"). Not a time ("at 10:30") or an address
 * ("http://").
 */
const LABELLED = /^\p{L}[^:]{0,40}[\p{L}.)]\s?:\s*[^\s/]/u;

export function sidesAreBlocks(left: readonly Segment[], right: readonly Segment[], gutter: number, unit: number): boolean {
  const leftRows = buildRows(left);
  const rightRows = buildRows(right);
  if (leftRows.length < MIN_ROWS || rightRows.length < MIN_ROWS) return false;
  if (gutter < GUTTER_OVER_INNER_GAP * Math.max(widestInnerGap(leftRows), widestInnerGap(rightRows))) return false;
  const leftHeading = opensWithHeading(leftRows);
  const rightHeading = opensWithHeading(rightRows);
  // A left line ending in ':' with a line level with it across the gutter is a label and that line its value —
  // unless both open their blocks as headings ("Bill to:" level with "Ship to:"). With nothing across, it heads
  // what follows it on its own side.
  const waiting = leftRows.filter((row, index) => awaitsValue(row) && !(index === 0 && leftHeading && rightHeading));
  if (waiting.some((row) => rightRows.some((other) => level(row, other)))) return false;
  if (mostlyLabelled(rightRows)) return true;
  if (mostlyLabelled(leftRows) && !rightRows.every((row) => /\d/u.test(rowText(row)))) return true;
  return leftHeading && rightHeading && extentsDiffer(leftRows, rightRows, unit);
}

function widestInnerGap(rows: readonly Row[]): number {
  let widest = 0;
  for (const row of rows) {
    for (let i = 1; i < row.segments.length; i++) widest = Math.max(widest, row.segments[i].box[0] - row.segments[i - 1].box[2]);
  }
  return widest;
}

const rowText = (row: Row): string =>
  row.segments
    .flatMap((segment) => segment.words.map((word) => word.text))
    .join(' ')
    .trim();

const level = (a: Row, b: Row): boolean => Math.min(a.box[3], b.box[3]) > Math.max(a.box[1], b.box[1]);

const awaitsValue = (row: Row): boolean => rowText(row).endsWith(':');

const labelled = (row: Row): boolean => LABELLED.test(rowText(row));

function mostlyLabelled(rows: readonly Row[]): boolean {
  const count = rows.filter(labelled).length;
  return count >= MIN_ROWS && 2 * count >= rows.length;
}

/** The side's first line is a short label set apart from the lines under it: ending in ':', bold, or larger. */
function opensWithHeading(rows: readonly Row[]): boolean {
  const [first, ...rest] = rows;
  const text = rowText(first);
  if (labelled(first) || text.split(/\s+/u).length > HEADING_MAX_WORDS || !/\p{L}{2}/u.test(text)) return false;
  if (text.endsWith(':')) return true;
  const bold = (row: Row): boolean => row.segments.every((segment) => segment.words.every((word) => fontTraits(word.fontName).bold));
  if (bold(first) && !rest.some(bold)) return true;
  const ocr = first.segments.some((segment) => segment.words.some((word) => word.lineKey !== undefined));
  return first.fontSize >= (ocr ? OCR_HEADING_SIZE_RATIO : HEADING_SIZE_RATIO) * median(rest.map((row) => row.fontSize));
}

function extentsDiffer(left: readonly Row[], right: readonly Row[], unit: number): boolean {
  const slack = EXTENT_SLACK * unit;
  return Math.abs(left[0].box[1] - right[0].box[1]) > slack || Math.abs(left.at(-1)!.box[3] - right.at(-1)!.box[3]) > slack;
}

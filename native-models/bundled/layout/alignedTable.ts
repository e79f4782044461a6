/**
 * One table from the alignment of the segments of a candidate region (detectTables finds the regions):
 *  3. columns are the x-intervals between gutters; a gutter is an x-range that (almost) no row covers, so a header
 *     cell spanning two columns does not erase the gutter under it;
 *  4. each segment becomes a cell over the columns it overlaps (colspan); one-cell rows right under a fuller row are
 *     wrapped text of that row; leading non-numeric rows (and spanning rows) are header rows;
 *  5. the region is a table when it has ≥ 3 rows of ≥ 2 cells and either ruling lines around it, or ≥ 3 columns with
 *     one mostly numeric column, or ≥ 4 columns; text that runs like prose (long cells) is not.
 */
import type { Box } from '../../../app/model/extraction.js';
import { buildRows, toSegment } from './buildSegments.js';
import { boxHeight, boxWidth, median, unionBox, type Row, type Segment, type TableCellLayout, type TableLayout } from './layoutTypes.js';
import { overlapX } from './tableGeometry.js';
import { isNumericText, segmentText } from './tableText.js';

/** A gutter is at least this many row heights wide … */
const MIN_GUTTER = 0.5;
/** … and crossed by at most this share of the rows (spanning headers and section labels). */
const GUTTER_CROSSING_SHARE = 0.12;
/** A table has at most this many header rows. */
const MAX_HEADER_ROWS = 3;
/** Rows with at least this share of the fullest row's cells (and at least 3) are full rows … */
const FULL_ROW_SHARE = 0.6;
/** … whose gutters sparser rows may cross, up to this share of all rows. */
const SPARSE_CROSSING_SHARE = 0.4;
/** Tables whose cells average more words than this are text laid out in columns, not tables. */
const MAX_MEAN_WORDS_PER_CELL = 6;
/** A first or last column filled in fewer than this share of the rows is dropped from the table. */
const EDGE_COLUMN_MIN_FILL = 0.25;

/** Steps 3–5 on the segments of one candidate region; null when they do not make a table. */
export interface BuildTableOptions {
  /** Where a rule closes the header (a ruled region's rule under its column headings): rows above it are the header. */
  headerBottom?: number;
}

export function buildTable(members: Segment[], unit: number, rulings: readonly Box[], options: BuildTableOptions = {}, depth = 0): TableLayout | null {
  let rows = buildRows(members);
  const box = unionBox(members.map((s) => s.box));
  const columns = findColumns(rows, box, unit);
  if (columns.length < 2) return null;
  // An edge column that few rows fill (labels of a chart beside the table, a note in the margin) is not the table's.
  if (depth < 4 && columns.length > 2) {
    for (const column of [columns[0], columns.at(-1)!]) {
      const within = (s: Segment): boolean => s.box[0] >= column[0] - 1 && s.box[2] <= column[1] + 1;
      const filled = rows.filter((row) => row.segments.some(within)).length;
      if (filled < EDGE_COLUMN_MIN_FILL * rows.length) {
        return buildTable(members.filter((s) => !within(s)), unit, rulings, options, depth + 1);
      }
    }
  }

  // Cells: each segment over the columns it overlaps; segments of one row in the same column range are one cell.
  // A segment is first cut where a gutter falls between two of its words that are wider apart than a space
  // ("0 reclassifications   52" set a little closer than the segment gap): a gutter under normal word spacing
  // is a heading spanning columns and stays whole.
  let drafts: CellDraft[][] = rows.map((row) => {
    const cells: CellDraft[] = [];
    for (const segment of row.segments.flatMap((seg) => cutAtGutters(seg, columns, unit))) {
      const hit = columns.flatMap(([x1, x2], c) => (Math.min(x2, segment.box[2] - 1) - Math.max(x1, segment.box[0] + 1) > 0 ? [c] : []));
      const first = hit.length ? hit[0] : nearestColumn(columns, segment.box);
      const last = hit.length ? hit.at(-1)! : first;
      const clash = cells.at(-1);
      if (clash && clash.last >= first) {
        clash.last = Math.max(clash.last, last);
        clash.segments.push(segment);
      } else cells.push({ first, last, segments: [segment] });
    }
    return cells;
  });

  ({ drafts, rows } = mergeWrappedRows(drafts, rows, unit));

  const fullRows = drafts.filter((row) => row.length >= 2).length;
  if (fullRows < 3) return null;
  const cellTexts = drafts.flat().map((cell) => cell.segments.map(segmentText).join(' '));
  const meanWords = cellTexts.reduce((sum, t) => sum + t.split(/\s+/u).length, 0) / Math.max(1, cellTexts.length);
  if (meanWords > MAX_MEAN_WORDS_PER_CELL) return null;
  if (hasRunningTextColumn(drafts)) return null;
  // A displayed formula laid out in pieces (Σ, limits, exponents) is not a table: mostly tiny non-numeric cells.
  const tiny = cellTexts.filter((t) => t.replace(/\s/gu, '').length <= 2 && !isNumericText(t)).length;
  if (tiny > 0.4 * cellTexts.length) return null;

  const ruled = isRuled(box, rulings, unit);
  if (!ruled) {
    const numericColumn = columns.some((_, c) => {
      const texts = drafts.flatMap((row) => row.filter((cell) => cell.first === c && cell.last === c).map((cell) => cell.segments.map(segmentText).join(' ')));
      return texts.length >= 3 && texts.filter(isNumericText).length >= 0.5 * texts.length;
    });
    if (!(columns.length >= 4 || (columns.length >= 3 && numericColumn) || (columns.length === 2 && headedNumberList(drafts)))) return null;
  }

  // Header rows: leading rows without numbers (at most 3), when numbers follow; a row with a spanning cell is a header
  // row, and so is the row right under it (the spanned sub-headings).
  let headerRowCount = 0;
  const numericRow = (row: CellDraft[]): boolean => row.some((cell) => isNumericText(cell.segments.map(segmentText).join(' ')));
  const laterNumbers = drafts.some(numericRow);
  if (laterNumbers) {
    while (headerRowCount < Math.min(MAX_HEADER_ROWS, drafts.length - 1) && !numericRow(drafts[headerRowCount]) && (drafts[headerRowCount].length >= 2 || drafts[headerRowCount][0].last > drafts[headerRowCount][0].first)) headerRowCount++;
    // A first row that spans columns heads the row below it too.
    if (headerRowCount === 1 && drafts[0].some((cell) => cell.last > cell.first) && drafts.length > 2 && !numericRow(drafts[1])) headerRowCount = 2;
  }
  if (options.headerBottom !== undefined) {
    const above = rows.filter((row) => (row.box[1] + row.box[3]) / 2 < options.headerBottom!).length;
    // (More rows than a header has above the rule: the rule does not close a header.)
    if (above >= 1 && above <= MAX_HEADER_ROWS && above < drafts.length) headerRowCount = above;
  }
  if (headerRowCount >= drafts.length) headerRowCount = 0;
  // Header cells set on several lines ("Number of / financial / companies") are one cell: header rows close together
  // whose cells sit in the same column ranges (or in columns the row above leaves empty) are merged.
  const headerGap = Math.min(0.6 * unit, 0.5 * median(rows.slice(1).map((row, i) => row.box[1] - rows[i].box[3])) + 0.15 * unit);
  for (let r = headerRowCount - 1; r >= 1; r--) {
    const [above, row] = [drafts[r - 1], drafts[r]];
    const fits = row.every(
      (cell) =>
        above.some((other) => other.first === cell.first && other.last === cell.last) ||
        above.every((other) => cell.last < other.first || cell.first > other.last),
    );
    if (!fits || rows[r].box[1] - rows[r - 1].box[3] > headerGap) continue;
    for (const cell of row) {
      const target = above.find((other) => other.first === cell.first && other.last === cell.last);
      if (target) target.segments.push(...cell.segments);
      else above.push(cell);
    }
    above.sort((a, b) => a.first - b.first);
    drafts.splice(r, 1);
    rows = [...rows.slice(0, r), ...rows.slice(r + 1)];
    rows[r - 1] = { ...rows[r - 1] };
    headerRowCount--;
  }

  const cells: TableCellLayout[] = drafts.flatMap((row, r) =>
    row.map((cell) => ({
      row: r,
      col: cell.first,
      rowspan: 1,
      colspan: cell.last - cell.first + 1,
      header: r < headerRowCount,
      segments: cell.segments,
      box: unionBox(cell.segments.map((s) => s.box)),
    })),
  );
  return {
    rowCount: drafts.length,
    colCount: columns.length,
    headerRowCount,
    cells,
    segments: members,
    box,
    evidence: ruled ? 'ruling-lines' : 'alignment',
  };
}

function cutAtGutters(segment: Segment, columns: Array<[number, number]>, unit: number): Segment[] {
  if (segment.words.length < 2) return [segment];
  const pieces: Segment['words'][] = [[segment.words[0]]];
  for (let i = 1; i < segment.words.length; i++) {
    const [left, right] = [segment.words[i - 1], segment.words[i]];
    const wide = right.box[0] - left.box[2] >= MIN_GUTTER * unit;
    const gutterBetween = columns.some(([, x2], c) => c + 1 < columns.length && x2 <= right.box[0] + 1 && columns[c + 1][0] >= left.box[2] - 1);
    if (wide && gutterBetween) pieces.push([]);
    pieces.at(-1)!.push(right);
  }
  return pieces.length === 1 ? [segment] : pieces.map((words) => toSegment(words));
}

interface CellDraft {
  first: number;
  last: number;
  segments: Segment[];
}

/**
 * Rows that are wrapped text of the row above are merged into it: rows closer than the table's usual row gap where
 * either the lower row is one cell under a filled cell of a fuller row (a wrapped cell), or the two rows fill
 * disjoint columns (a cell of several lines with the rest of the row set against one of them).
 */
function mergeWrappedRows(drafts: CellDraft[][], rows: Row[], unit: number): { drafts: CellDraft[][]; rows: Row[] } {
  const gaps = rows.slice(1).map((row, i) => row.box[1] - rows[i].box[3]);
  const wrapGap = Math.min(0.6 * unit, 0.5 * median(gaps) + 0.15 * unit);
  const outDrafts: CellDraft[][] = [];
  const outRows: Row[] = [];
  drafts.forEach((row, r) => {
    const above = outDrafts.at(-1);
    const aboveRow = outRows.at(-1);
    if (above && aboveRow && rows[r].box[1] - aboveRow.box[3] <= wrapGap) {
      const same = row.length === 1 ? above.find((cell) => cell.first === row[0].first && cell.last === row[0].last) : undefined;
      const disjoint = row.every((cell) => above.every((other) => cell.last < other.first || cell.first > other.last));
      if ((same && above.length >= 2) || (disjoint && above.length + row.length >= 2 && Math.min(above.length, row.length) === 1)) {
        for (const cell of row) {
          const target = above.find((other) => other.first === cell.first && other.last === cell.last);
          if (target) target.segments.push(...cell.segments);
          else above.push({ ...cell, segments: [...cell.segments] });
        }
        above.sort((a, b) => a.first - b.first);
        outRows[outRows.length - 1] = { ...aboveRow, box: unionBox([aboveRow.box, rows[r].box]), segments: [...aboveRow.segments, ...rows[r].segments] };
        return;
      }
    }
    outDrafts.push(row.map((cell) => ({ ...cell, segments: [...cell.segments] })));
    outRows.push(rows[r]);
  });
  return { drafts: outDrafts, rows: outRows };
}

/**
 * Columns as [x1, x2] intervals: the table's width minus its gutters. A gutter is an x-range at least MIN_GUTTER
 * rows wide that at most GUTTER_CROSSING_SHARE of the rows cover (1-px histogram of row coverage).
 */
export function findColumns(rows: Row[], box: Box, unit: number): Array<[number, number]> {
  const x0 = Math.floor(box[0]);
  const width = Math.ceil(box[2]) - x0 + 1;
  if (width <= 0 || width > 100_000) return [];
  // Full rows (most of the table's cells filled) set the columns; sparser rows (section labels, spanning headings,
  // totals) may cross a gutter of the full rows, up to a share of all rows.
  const counts = rows.map((row) => row.segments.length);
  const fullCount = Math.max(3, Math.ceil(FULL_ROW_SHARE * Math.max(...counts)));
  const full = rows.filter((_, r) => counts[r] >= fullCount);
  const cover = coverage(rows, x0, width);
  const coverFull = full.length >= 3 ? coverage(full, x0, width) : null;
  // At least one crossing row allowed from four rows on: a spanning heading over a small table.
  const allowed = Math.max(rows.length >= 4 ? 1 : 0, Math.floor(GUTTER_CROSSING_SHARE * rows.length));
  const allowedFull = Math.floor(GUTTER_CROSSING_SHARE * full.length);
  const isGutter = (x: number): boolean =>
    cover[x] <= allowed || (coverFull !== null && coverFull[x] <= allowedFull && cover[x] <= SPARSE_CROSSING_SHARE * rows.length);
  // Covered runs of x, then runs closer than a gutter merged.
  const runs: Array<[number, number]> = [];
  for (let x = 0; x < width; x++) {
    if (isGutter(x)) continue;
    const last = runs.at(-1);
    if (last && x - last[1] <= 1) last[1] = x;
    else runs.push([x, x]);
  }
  const columns: Array<[number, number]> = [];
  for (const run of runs) {
    const last = columns.at(-1);
    if (last && run[0] - last[1] < MIN_GUTTER * unit) last[1] = run[1];
    else columns.push([run[0], run[1]]);
  }
  return columns.map(([a, b]) => [a + x0, b + x0]);
}

/** How many of the rows have a word over each x (1-px histogram from x0). */
function coverage(rows: readonly Row[], x0: number, width: number): Uint16Array {
  const cover = new Uint16Array(width);
  for (const row of rows) {
    const seen = new Uint8Array(width);
    // Words, not segments: a gutter can run between two words of a segment cut too coarsely.
    for (const word of row.segments.flatMap((segment) => segment.words)) {
      for (let x = Math.max(0, Math.floor(word.box[0]) - x0); x <= Math.min(width - 1, Math.ceil(word.box[2]) - x0); x++) seen[x] = 1;
    }
    for (let x = 0; x < width; x++) cover[x] += seen[x];
  }
  return cover;
}

function nearestColumn(columns: Array<[number, number]>, box: Box): number {
  const centre = (box[0] + box[2]) / 2;
  let best = 0;
  columns.forEach(([x1, x2], c) => {
    const [b1, b2] = columns[best];
    if (Math.abs((x1 + x2) / 2 - centre) < Math.abs((b1 + b2) / 2 - centre)) best = c;
  });
  return best;
}

/** Ruled: at least two horizontal rules spanning most of the table's width, at or near its top and bottom. */
function isRuled(box: Box, rulings: readonly Box[], unit: number): boolean {
  const horizontal = rulings.filter(
    (r) => boxHeight(r) <= unit * 0.5 && overlapX(r, box) >= 0.6 * boxWidth(box) && r[1] >= box[1] - 2 * unit && r[3] <= box[3] + 2 * unit,
  );
  return horizontal.length >= 2;
}


/** Rows of a two-column candidate under its heading row, at least this many … */
const LIST_MIN_ROWS = 4;
/** … nearly all of them (this share) a label and a number. */
const LIST_ROW_SHARE = 0.8;

/**
 * A two-column table, unruled: a heading row of two labels over at least LIST_MIN_ROWS rows of a label and a number
 * ("Country | Signed TA (EURm)" over one amount per country). Label/value lines of an invoice ("Invoice date: …",
 * "Total $4.11") have no heading row over them, or labels ending in a colon, and stay text.
 */
function headedNumberList(drafts: CellDraft[][]): boolean {
  const text = (cell: CellDraft): string => cell.segments.map(segmentText).join(' ');
  const [heading, ...body] = drafts;
  if (body.length < LIST_MIN_ROWS || heading.length !== 2 || heading.some((cell) => isNumericText(text(cell)))) return false;
  const pairs = body.filter((row) => row.length === 2 && !isNumericText(text(row[0])) && isNumericText(text(row[1])) && !/:\s*$/u.test(text(row[0])));
  return pairs.length >= LIST_ROW_SHARE * body.length;
}

/** A cell of at least this many words whose next cell down starts in lower case is running text … */
const SENTENCE_WORDS = 5;
/** … and a column with such continuations in this share of the rows is a column of prose. */
const RUNNING_TEXT_SHARE = 0.3;

/**
 * A column whose cells continue one another as sentences (a cell of several words, the cell under it starting in
 * lower case) is a column of prose that happens to line up with something beside it (a paper's text column next to
 * the labels of a figure), not a table column: a table's wrapped cells are joined before this is asked.
 */
function hasRunningTextColumn(drafts: CellDraft[][]): boolean {
  const columns = Math.max(0, ...drafts.flatMap((row) => row.map((cell) => cell.last + 1)));
  for (let c = 0; c < columns; c++) {
    const texts = drafts.map((row) => row.find((cell) => cell.first === c)?.segments.map(segmentText).join(' ') ?? '');
    let continued = 0;
    for (let r = 1; r < texts.length; r++) {
      if (texts[r - 1].split(/\s+/u).length >= SENTENCE_WORDS && /^\p{Ll}/u.test(texts[r])) continued++;
    }
    if (continued > 0 && continued >= RUNNING_TEXT_SHARE * drafts.length) return true;
  }
  return false;
}

/**
 * One olmOCR-Bench test against one page's Markdown. Semantics follow upstream olmocr/bench/tests.py:
 * - present/absent: normalised text (see normalize.ts), optional case folding, optional first_n/last_n window; found
 *   when rapidfuzz `partial_ratio(text, page) / 100 ≥ 1 − max_diffs / |text|`, as upstream (../fuzzRatio.ts). With
 *   max_diffs 0 that is "the shorter of the two occurs in the longer": a page whose whole text is "Total" contains
 *   the line "Total amount due";
 * - order: some fuzzy match of `before` starts before some fuzzy match of `after`;
 * - table: some cell of some table (HTML, or pipe read leniently like upstream) matches `cell` (normalised; rapidfuzz
 *   `ratio` ≥ max(0.5, 1 − max_diffs/|cell|), as upstream), and every given relation holds for
 *   it; neighbours and headings follow upstream's table_parsing.py (see `neighbours` / `headings`);
 * - math: normalised-LaTeX containment in a math segment (see ../formula.ts for how this differs from upstream's
 *   rendered comparison);
 * - baseline: blank-page length limit (alphanumeric characters ≤ max_length), otherwise some alphanumeric text, no
 *   tail repetition over max_repeats, no disallowed characters.
 */
import { cellAt, type TableCell, type TableGrid } from '../../tables/index.js';
import { normalizeLatex } from '../formula.js';
import { partialRatio, partialRatioIsFull, ratio } from '../fuzzRatio.js';
import { fuzzyMatchStarts } from '../fuzzySearch.js';
import { tailRepeats } from '../repetition.js';
import { benchPageOf, type BenchPage } from './benchPage.js';
import { normalizeBenchText } from './normalize.js';
import type { BaselineTest, BenchTest, MathTest, OrderTest, PresenceTest, TableTest } from './schema.js';

export interface TestOutcome {
  passed: boolean;
  /** Why it failed (empty when passed). */
  reason: string;
}

const pass: TestOutcome = { passed: true, reason: '' };
const fail = (reason: string): TestOutcome => ({ passed: false, reason });

function runPresence(test: PresenceTest, page: BenchPage): TestOutcome {
  let content = test.case_sensitive ? page.normalized : page.normalizedLowerCase;
  const query = normalizeBenchText(test.case_sensitive ? test.text : test.text.toLowerCase());
  const firstN = test.first_n ?? 0;
  const lastN = test.last_n ?? 0;
  if (firstN && lastN) content = content.slice(0, firstN) + content.slice(-lastN);
  else if (firstN) content = content.slice(0, firstN);
  else if (lastN) content = content.slice(-lastN);
  const threshold = 1 - test.max_diffs / (Array.from(query).length || 1);
  // At threshold 1 only a full match counts: an `includes` either way round, not the window search.
  const found = threshold >= 1 ? partialRatioIsFull(query, content) : partialRatio(query, content) / 100 >= threshold;
  if (test.type === 'present') return found ? pass : fail(`"${test.text}" not found (max_diffs ${test.max_diffs})`);
  return found ? fail(`"${test.text}" found but should be absent`) : pass;
}

function runOrder(test: OrderTest, page: BenchPage): TestOutcome {
  const content = page.normalized;
  const before = fuzzyMatchStarts(normalizeBenchText(test.before), content, test.max_diffs);
  const after = fuzzyMatchStarts(normalizeBenchText(test.after), content, test.max_diffs);
  if (before.length === 0) return fail(`anchor "${test.before}" not found`);
  if (after.length === 0) return fail(`anchor "${test.after}" not found`);
  return before[0]! < after[after.length - 1]! ? pass : fail(`"${test.before}" does not come before "${test.after}"`);
}

/** `cellText` normalised and trimmed already (BenchPage.cellText), `expected` normalised and trimmed by the caller. */
function cellMatches(cellText: string, expected: string, maxDiffs: number): boolean {
  if (maxDiffs === 0) return cellText === expected;
  return ratio(expected, cellText) / 100 >= Math.max(0.5, 1 - maxDiffs / (Array.from(expected).length || 1));
}

const normalizedCell = (text: string): string => normalizeBenchText(text).trim();

type Side = 'up' | 'down' | 'left' | 'right';

/**
 * The nearest cells on one side of `cell`, as upstream's table_parsing.py: for each row (left/right) or column
 * (up/down) the cell spans, scan outward past uncovered slots to the first covering cell (empty cells count).
 */
function neighbours(grid: TableGrid, cell: TableCell, side: Side): TableCell[] {
  const found = new Set<TableCell>();
  const scan = (r: number, c: number, dr: number, dc: number): void => {
    for (; r >= 0 && r < grid.rowCount && c >= 0 && c < grid.colCount; r += dr, c += dc) {
      const n = cellAt(grid, r, c);
      if (n && n !== cell) {
        found.add(n);
        return;
      }
    }
  };
  if (side === 'up') for (let c = cell.col; c < cell.col + cell.colspan; c++) scan(cell.row - 1, c, -1, 0);
  if (side === 'down') for (let c = cell.col; c < cell.col + cell.colspan; c++) scan(cell.row + cell.rowspan, c, 1, 0);
  if (side === 'left') for (let r = cell.row; r < cell.row + cell.rowspan; r++) scan(r, cell.col - 1, 0, -1);
  if (side === 'right') for (let r = cell.row; r < cell.row + cell.rowspan; r++) scan(r, cell.col + cell.colspan, 0, 1);
  return [...found];
}

/** Heading cells: `<th>`/`<thead>` in HTML; the first row and the first column in pipe tables (as upstream). */
function isHeading(grid: TableGrid, cell: TableCell): boolean {
  return grid.source === 'pipe' ? cell.row === 0 || cell.col === 0 : cell.header;
}

/**
 * Headings of a cell, as upstream: walk the up (top) or left (left) relations transitively; the heading cells met on
 * the way, or — when there are none — the cells where the walk ends (top row / first column).
 */
function headings(grid: TableGrid, cell: TableCell, side: 'top' | 'left'): TableCell[] {
  const direction: Side = side === 'top' ? 'up' : 'left';
  const headingCells = new Set<TableCell>();
  const endCells = new Set<TableCell>();
  const visited = new Set<TableCell>();
  const toVisit: TableCell[] = [cell];
  while (toVisit.length > 0) {
    const current = toVisit.pop()!;
    if (visited.has(current)) continue;
    visited.add(current);
    if (isHeading(grid, current)) headingCells.add(current);
    const next = neighbours(grid, current, direction);
    if (next.length === 0) endCells.add(current);
    else toVisit.push(...next);
  }
  headingCells.delete(cell);
  endCells.delete(cell);
  return [...(headingCells.size > 0 ? headingCells : endCells)];
}

function runTable(test: TableTest, page: BenchPage): TestOutcome {
  const tables = page.tables;
  if (tables.length === 0) return fail('no table in the output');
  const relations: [string, string | null | undefined][] = [
    ['up', test.up],
    ['down', test.down],
    ['left', test.left],
    ['right', test.right],
    ['top_heading', test.top_heading],
    ['left_heading', test.left_heading],
  ];
  const wanted = normalizedCell(test.cell);
  const expectations = relations.map(([relation, text]) => [relation, text === null || text === undefined ? null : normalizedCell(text)] as const);
  let cellFound = false;
  for (const grid of tables) {
    for (const cell of grid.cells) {
      if (!cellMatches(page.cellText(cell), wanted, test.max_diffs)) continue;
      cellFound = true;
      const holds = expectations.every(([relation, expected]) => {
        if (expected === null) return true;
        const candidates =
          relation === 'top_heading'
            ? headings(grid, cell, 'top')
            : relation === 'left_heading'
              ? headings(grid, cell, 'left')
              : neighbours(grid, cell, relation as 'up' | 'down' | 'left' | 'right');
        return candidates.some((n) => cellMatches(page.cellText(n), expected, test.max_diffs));
      });
      if (holds) return pass;
    }
  }
  return fail(cellFound ? `cell "${test.cell}" found but its neighbours differ` : `cell "${test.cell}" not in any table`);
}

/** As ../formula.ts markdownContainsFormula, over the page's math segments normalised once. */
function runMath(test: MathTest, page: BenchPage): TestOutcome {
  const target = normalizeLatex(test.math);
  return target && page.normalizedMath.some((segment) => segment.includes(target)) ? pass : fail(`formula not found: ${test.math}`);
}

/** Upstream's disallowed set: CJK ideographs, Hiragana, Katakana, emoji blocks and regional indicators. */
const disallowedCharacters = /[\u4e00-\u9fff\u3040-\u309f\u30a0-\u30ff\u{1F600}-\u{1F64F}\u{1F300}-\u{1F5FF}\u{1F680}-\u{1F6FF}\u{1F1E0}-\u{1F1FF}]/u;

function runBaseline(test: BaselineTest, markdown: string): TestOutcome {
  const alphanumeric = Array.from(markdown).filter((ch) => /[\p{L}\p{N}]/u.test(ch)).length;
  if (test.max_length !== null && test.max_length !== undefined) {
    return alphanumeric > test.max_length
      ? fail(`${alphanumeric} alphanumeric characters on a page expected to be blank (max ${test.max_length})`)
      : pass;
  }
  if (alphanumeric === 0) return fail('the output has no alphanumeric characters');
  const repeats = tailRepeats(markdown, 5);
  const worst = repeats.findIndex((count) => count > test.max_repeats);
  if (worst >= 0) return fail(`text ends with ${repeats[worst]} repeats of a ${worst + 1}-gram`);
  if (test.check_disallowed_characters && disallowedCharacters.test(markdown)) return fail('disallowed characters');
  return pass;
}

/** Runs one test on a page: its Markdown, or a BenchPage when many tests run on the same page. */
export function runBenchTest(test: BenchTest, markdown: string | BenchPage): TestOutcome {
  const page = benchPageOf(markdown);
  switch (test.type) {
    case 'present':
    case 'absent':
      return runPresence(test, page);
    case 'order':
      return runOrder(test, page);
    case 'table':
      return runTable(test, page);
    case 'math':
      return runMath(test, page);
    case 'baseline':
      return runBaseline(test, page.markdown);
  }
}

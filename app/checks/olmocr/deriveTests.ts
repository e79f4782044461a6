/**
 * olmOCR-Bench unit tests derived from an analyst's correction: given what the engine wrote and what the analyst saved,
 * emit tests that pass on the corrected page and fail on the engine's page, so a model can be scored on exactly what
 * was fixed (the corpus export's `tests.jsonl`):
 * - present: corrected lines whose text the engine did not produce;
 * - absent: engine lines the analyst deleted (running headers, hallucinations, repeats);
 * - order: neighbouring corrected blocks that the engine wrote in the other order;
 * - table: corrected cells whose neighbours differ in the engine's table (cell + its non-empty neighbours);
 * - math: corrected formulas the engine did not write.
 * Every candidate is run through the scorer on both texts and kept only if it passes on the correction and fails on
 * the engine output. Deterministic: same inputs → same tests, same ids.
 */
import { cellAt, parsePipeTables, type TableCell, type TableGrid } from '../../tables/index.js';
import { extractMath } from '../formula.js';
import { BenchPage } from './benchPage.js';
import { normalizeBenchText } from './normalize.js';
import { runBenchTest } from './runTest.js';
import { benchTestSchema, type BenchTest, type BenchTestType } from './schema.js';

export interface DeriveOptions {
  pdf: string;
  page: number;
  /** Prefix of test ids, e.g. the page's id in the project. */
  idPrefix: string;
  /** At most this many tests per type (default 20). */
  maxPerType?: number;
}

/** Prose lines of Markdown: outside tables, code fences and display math; heading/list markers dropped. */
function proseLines(markdown: string): string[] {
  const withoutBlocks = markdown
    .replace(/<table[\s>][\s\S]*?<\/table>/gi, '\n')
    .replace(/```[\s\S]*?```/g, '\n')
    .replace(/\$\$[\s\S]*?\$\$/g, '\n')
    .replace(/\\\[[\s\S]*?\\\]/g, '\n');
  return withoutBlocks
    .split(/\r?\n/)
    .filter((l) => !l.includes('|'))
    .map((l) => l.replace(/^\s{0,3}(?:#{1,6}\s+|[-*+]\s+|\d+[.)]\s+|>\s*)/, '').trim())
    .filter((l) => l.length >= 8 && /\p{L}/u.test(l) && !/\$/.test(l));
}

/** A table's cells and their places: equal keys, equal answers to every table test. */
function gridKey(grid: TableGrid): string {
  return JSON.stringify(grid.cells.map((c) => [c.row, c.col, c.rowspan, c.colspan, c.text]));
}

function snippet(text: string, words = 10): string {
  return text.split(/\s+/).slice(0, words).join(' ');
}

export function deriveBenchTests(engineMarkdown: string, correctedMarkdown: string, options: DeriveOptions): BenchTest[] {
  const max = options.maxPerType ?? 20;
  const base = { pdf: options.pdf, page: options.page, max_diffs: 0 };
  // Every candidate runs on both pages: their normalised text and tables are computed once, not per candidate.
  const enginePage = new BenchPage(engineMarkdown);
  const correctedPage = new BenchPage(correctedMarkdown);
  const engineText = enginePage.normalized;
  const correctedText = correctedPage.normalized;
  const kept: BenchTest[] = [];
  const counters = new Map<string, number>();
  const consider = (candidate: { type: BenchTestType } & Record<string, unknown>): void => {
    const type = candidate.type;
    const n = counters.get(type) ?? 0;
    if (n >= max) return;
    const raw = { ...base, ...candidate, id: `${options.idPrefix}_${type}_${String(n).padStart(2, '0')}` };
    // A candidate carries every field the scorer reads, so it is run as it is; only the kept ones go through the
    // schema (most candidates are dropped, and validation cost as much as running them): what is written to
    // tests.jsonl is exactly what the loader accepts.
    const candidateTest = raw as unknown as BenchTest;
    if (!runBenchTest(candidateTest, correctedPage).passed || runBenchTest(candidateTest, enginePage).passed) return;
    const parsed = benchTestSchema.safeParse(raw);
    if (!parsed.success) return;
    kept.push(parsed.data);
    counters.set(type, n + 1);
  };

  const correctedLines = proseLines(correctedMarkdown);
  for (const line of correctedLines)
    if (!engineText.includes(normalizeBenchText(line))) consider({ type: 'present', text: line.slice(0, 300), case_sensitive: true });
  for (const line of proseLines(engineMarkdown))
    if (!correctedText.includes(normalizeBenchText(line))) consider({ type: 'absent', text: line.slice(0, 300), case_sensitive: true });

  // Order: consecutive corrected lines present in both texts, swapped by the engine. An anchor is the longest opening
  // of a line (3–10 words) found once in each text, so a line whose end was corrected can still anchor an order test.
  const unique = (s: string): boolean => correctedText.indexOf(s) === correctedText.lastIndexOf(s) && engineText.indexOf(s) === engineText.lastIndexOf(s);
  const anchorOf = (line: string): string | undefined => {
    for (let words = 10; words >= 3; words--) {
      const s = normalizeBenchText(snippet(line, words));
      if (s.length >= 8 && engineText.includes(s) && unique(s)) return s;
    }
    return undefined;
  };
  const anchors = correctedLines.map(anchorOf).filter((s): s is string => s !== undefined);
  for (let i = 0; i + 1 < anchors.length; i++)
    if (engineText.indexOf(anchors[i]!) > engineText.indexOf(anchors[i + 1]!)) consider({ type: 'order', before: anchors[i]!, after: anchors[i + 1]! });

  // Tables: a cell is tested with its non-empty neighbours; the scorer keeps it only where the engine's tables differ.
  // The same tables as app/tables parseTables (HTML, then strict pipe tables), the HTML ones parsed once. A table the
  // engine wrote identically gives no test (each of its cells, with the same neighbours, is in the engine's copy), so
  // its cells are not tried: most corrections leave most tables alone.
  const engineGrids = new Set(enginePage.tables.map(gridKey));
  [...correctedPage.htmlTables, ...parsePipeTables(correctedMarkdown)].forEach((grid: TableGrid) => {
    if (engineGrids.has(gridKey(grid))) return;
    const texts = grid.cells.map((c) => c.text);
    for (const cell of grid.cells) {
      if (!cell.text || texts.indexOf(cell.text) !== texts.lastIndexOf(cell.text)) continue;
      const near = (r: number, c: number): TableCell | undefined => {
        const n = cellAt(grid, r, c);
        return n && n !== cell && n.text ? n : undefined;
      };
      const relations = {
        up: near(cell.row - 1, cell.col)?.text,
        down: near(cell.row + cell.rowspan, cell.col)?.text,
        left: near(cell.row, cell.col - 1)?.text,
        right: near(cell.row, cell.col + cell.colspan)?.text,
      };
      const given = Object.fromEntries(Object.entries(relations).filter(([, v]) => v !== undefined));
      if (Object.keys(given).length === 0) continue;
      consider({ type: 'table', cell: cell.text, ...given });
    }
  });

  for (const formula of extractMath(correctedMarkdown)) consider({ type: 'math', math: formula });
  return kept;
}

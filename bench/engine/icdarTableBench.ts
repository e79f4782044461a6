/**
 * ICDAR 2013 EU tables: cell-neighbour F1 of the tables in an engine's Markdown against the grids derived from the
 * competition's `-str.xml` (shared/testdata/camelot/icdar2013_derived_from_str_xml: CSV with spanning text in the
 * top-left slot, spans in `_summary.json`). Each true table is scored against the predicted table of its page that
 * matches it best; totals are micro-averaged over relations (the competition's way) and also given per table.
 */
import path from 'node:path';
import { tableNeighbourScore, type RelationScore } from '../../app/checks/tableNeighbours.js';
import { gridFromTopLeft, gridToHtml, parseTables, type TableGrid } from '../../app/tables/index.js';

export { gridToHtml };
import type { ReadPage } from './olmocrBench.js';
import { defaultTestdataRoot, parseCsv, readTextFile, testdataPath } from '../../testing/testdataPaths.js';

interface SummaryEntry {
  file: string;
  cells_with_spans: { start_row: number; start_col: number; end_row: number; end_col: number }[];
}

export interface IcdarTruthTable {
  /** CSV file name, e.g. eu-001_table1_region1_page1.csv */
  file: string;
  pdfPath: string;
  page: number;
  grid: TableGrid;
}

export async function loadIcdarTruth(testdataRoot = defaultTestdataRoot): Promise<IcdarTruthTable[]> {
  const csvDir = testdataPath(testdataRoot, 'icdarCsv');
  const summary = JSON.parse(await readTextFile(path.join(csvDir, '_summary.json'))) as SummaryEntry[];
  const tables: IcdarTruthTable[] = [];
  for (const entry of summary) {
    const m = /^(.+?)_table\d+_region\d+_page(\d+)\.csv$/.exec(entry.file);
    if (!m) throw new Error(`${path.join(csvDir, '_summary.json')}: unexpected table file name ${entry.file}`);
    const matrix = parseCsv(await readTextFile(path.join(csvDir, entry.file)));
    const spans = entry.cells_with_spans.map((s) => ({
      row: s.start_row,
      col: s.start_col,
      rowspan: s.end_row - s.start_row + 1,
      colspan: s.end_col - s.start_col + 1,
    }));
    tables.push({
      file: entry.file,
      pdfPath: testdataPath(testdataRoot, 'icdarEu', `${m[1]}.pdf`),
      page: Number(m[2]),
      grid: gridFromTopLeft(matrix, spans),
    });
  }
  return tables;
}

export interface IcdarTableBenchResult {
  tables: { file: string; score: RelationScore; predictedTables: number }[];
  /** Micro-averaged over all relations of all tables. */
  micro: { precision: number; recall: number; f1: number };
  /** Mean of per-table F1. */
  meanF1: number;
  errors: string[];
}

export async function runIcdarTableBench(
  readPage: ReadPage,
  options: { testdataRoot?: string; onProgress?: (done: number, total: number) => void } = {},
): Promise<IcdarTableBenchResult> {
  const truth = await loadIcdarTruth(options.testdataRoot);
  const pages = [...new Set(truth.map((t) => `${t.pdfPath}\u0000${t.page}`))];
  const predictedByPage = new Map<string, TableGrid[]>();
  const errors: string[] = [];
  let done = 0;
  for (const key of pages) {
    const [pdfPath, page] = key.split('\u0000') as [string, string];
    try {
      predictedByPage.set(key, parseTables(await readPage(pdfPath, Number(page))));
    } catch (error) {
      errors.push(`${pdfPath} page ${page}: ${(error as Error).message}`);
      predictedByPage.set(key, []);
    }
    options.onProgress?.(++done, pages.length);
  }
  const tables = truth.map((t) => {
    const predicted = predictedByPage.get(`${t.pdfPath}\u0000${t.page}`) ?? [];
    const empty: RelationScore = { truePositives: 0, predicted: 0, expected: tableNeighbourScore(t.grid, t.grid).expected, precision: 0, recall: 0, f1: 0 };
    const best = predicted.map((p) => tableNeighbourScore(p, t.grid)).reduce((a, b) => (b.f1 > a.f1 ? b : a), empty);
    return { file: t.file, score: best, predictedTables: predicted.length };
  });
  const sum = (k: 'truePositives' | 'predicted' | 'expected'): number => tables.reduce((a, t) => a + t.score[k], 0);
  const precision = sum('predicted') === 0 ? 0 : sum('truePositives') / sum('predicted');
  const recall = sum('expected') === 0 ? 0 : sum('truePositives') / sum('expected');
  return {
    tables,
    micro: { precision, recall, f1: precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall) },
    meanF1: tables.length === 0 ? 0 : tables.reduce((a, t) => a + t.score.f1, 0) / tables.length,
    errors,
  };
}

export function formatIcdarTableBench(result: IcdarTableBenchResult): string {
  return [
    `ICDAR 2013 EU tables: ${result.tables.length} tables`,
    `  cell-neighbour micro P ${result.micro.precision.toFixed(3)} R ${result.micro.recall.toFixed(3)} F1 ${result.micro.f1.toFixed(3)}; mean per-table F1 ${result.meanF1.toFixed(3)}`,
    ...result.errors.map((e) => `  error: ${e}`),
  ].join('\n');
}

/**
 * curation.summary: page and correction counts, mean of every check, the score histogram, errors by element kind
 * and corrections per day. The combined score's mean and histogram are over the corrected pages only: a score compares
 * the engine with a correction, and a page nobody corrected has none (its stored figure compares the engine with
 * itself; counted, it filled the top bin with pages nobody checked). Under the queue's dimension filters (review status, engine, corrected, element kind) it
 * adds up the maintained aggregates of migration 003 — a few dozen rows whatever the project's size; for one
 * document it aggregates that document's pages. (The list's score range does not apply: the histogram is what one
 * picks a range from.)
 */
import type Database from 'better-sqlite3';
import type { CurationFilter, CurationSummary, KindChangeSummary } from '../../../app/contract/curation.js';
import { pageWhereOf, rollupCellOf, type RollupCell } from './curationFilter.js';

/** The checks averaged, with their page_checks column and their rollup column stem (sum `_micro`, count `_n`). */
const checks = [
  { key: 'text', column: 'text_score', stem: 'text', nullable: false },
  { key: 'structure', column: 'structure_score', stem: 'structure', nullable: false },
  { key: 'tables', column: 'tables_score', stem: 'tables', nullable: true },
  { key: 'tablesStructure', column: 'tables_structure_score', stem: 'tables_structure', nullable: true },
  { key: 'formulas', column: 'formulas_score', stem: 'formulas', nullable: true },
  { key: 'repetition', column: 'repetition_score', stem: 'repetition', nullable: false },
  { key: 'unitTests', column: 'unit_tests_score', stem: 'unit_tests', nullable: true },
] as const;

const binCount = 10;

interface KindRow {
  kind: KindChangeSummary['kind'];
  pages: number;
  pagesChanged: number;
  elements: number;
  chars: number;
  changedChars: number;
  insertedChars: number;
}

/**
 * Changed characters (removed + inserted) over the kind's text: the engine's characters plus the inserted ones.
 * Removed characters are part of the engine's (attributeChanges charges a removal only to text it covers, text outside
 * every element counting as "other"), so this is a share in [0, 1].
 */
export function changeRateOf(kind: { chars: number; changedChars: number; insertedChars: number }): number {
  const text = kind.chars + kind.insertedChars;
  return text > 0 ? Math.min(1, kind.changedChars / text) : 0;
}

const withRates = (rows: KindRow[]) => rows.map((row) => ({ ...row, changeRate: changeRateOf(row) }));

export interface SummaryOptions {
  /** 'pages' aggregates page_checks even where the rollups could answer (tests compare the two). */
  source?: 'auto' | 'pages';
}

export function summarizeCuration(db: Database.Database, filter: CurationFilter, options: SummaryOptions = {}): CurationSummary {
  const cell = options.source === 'pages' ? null : rollupCellOf(filter);
  return cell ? summaryFromRollups(db, cell) : summaryFromPages(db, filter);
}

const micro = 1_000_000;

function summaryFromRollups(db: Database.Database, cell: RollupCell): CurationSummary {
  const totals = db
    .prepare(
      `SELECT COALESCE(SUM(r.pages), 0) AS pages, COALESCE(SUM(CASE WHEN r.has_revision = 1 THEN r.pages ELSE 0 END), 0) AS corrected,
              COALESCE(SUM(CASE WHEN r.has_revision = 1 THEN r.score_micro ELSE 0 END), 0) AS score,
              ${checks.map((c) => `COALESCE(SUM(r.${c.stem}_micro), 0) AS ${c.key}${c.nullable ? `, COALESCE(SUM(r.${c.stem}_n), 0) AS ${c.key}N` : ''}`).join(', ')},
              ${Array.from({ length: binCount }, (_, i) => `COALESCE(SUM(CASE WHEN r.has_revision = 1 THEN r.bin${i} ELSE 0 END), 0) AS bin${i}`).join(', ')}
       FROM curation_rollup r ${cell.sql}`,
    )
    .get(...cell.params) as Record<string, number>;
  const pages = totals.pages!;
  const mean = (sum: number, count: number) => (count > 0 ? sum / micro / count : null);
  const errorsByKind = db
    .prepare(
      `SELECT r.kind, SUM(r.pages) AS pages, SUM(r.pages_changed) AS pagesChanged, SUM(r.elements) AS elements,
              SUM(r.chars) AS chars, SUM(r.changed_chars) AS changedChars, SUM(r.inserted_chars) AS insertedChars
       FROM curation_rollup_kinds r ${cell.sql} GROUP BY r.kind HAVING SUM(r.pages) > 0 ORDER BY r.kind`,
    )
    .all(...cell.params) as KindRow[];
  const days = db
    .prepare(
      `SELECT r.day, SUM(r.pages) AS pages, SUM(r.score_micro) AS score
       FROM curation_rollup_days r ${cell.daysSql} GROUP BY r.day HAVING SUM(r.pages) > 0 ORDER BY r.day`,
    )
    .all(...cell.daysParams) as { day: string; pages: number; score: number }[];
  return {
    pages,
    correctedPages: totals.corrected!,
    meanScore: mean(totals.score!, totals.corrected!),
    meanByCheck: Object.fromEntries(checks.map((c) => [c.key, mean(totals[c.key]!, c.nullable ? totals[`${c.key}N`]! : pages)])),
    scoreHistogram: Array.from({ length: binCount }, (_, i) => ({ from: i / binCount, to: (i + 1) / binCount, count: totals[`bin${i}`]! })),
    errorsByKind: withRates(errorsByKind),
    correctionsOverTime: days.map((d) => ({ day: d.day, pages: d.pages, meanScore: d.score / micro / d.pages })),
  };
}

function summaryFromPages(db: Database.Database, filter: CurationFilter): CurationSummary {
  const where = pageWhereOf(filter);
  const from = `FROM page_checks c ${where.sql}`;
  // One pass for the totals and the histogram; bin i is [i/10, (i+1)/10), the last bin includes 1.
  const totals = db
    .prepare(
      `SELECT COUNT(*) AS pages, COALESCE(SUM(c.has_revision), 0) AS corrected, AVG(CASE WHEN c.has_revision = 1 THEN c.score END) AS meanScore,
              ${checks.map((c) => `AVG(c.${c.column}) AS ${c.key}`).join(', ')},
              ${Array.from({ length: binCount }, (_, i) => `COALESCE(SUM(c.has_revision = 1 AND c.score >= ${i / binCount}${i < binCount - 1 ? ` AND c.score < ${(i + 1) / binCount}` : ''}), 0) AS bin${i}`).join(', ')}
       ${from}`,
    )
    .get(...where.params) as Record<string, number | null>;
  // Without a filter the kinds table is aggregated alone; with one, the filtered page set is built once.
  const kindJoin = where.sql
    ? `FROM page_check_kinds k WHERE k.page_id IN (SELECT c.page_id FROM page_checks c ${where.sql})`
    : 'FROM page_check_kinds k';
  const errorsByKind = db
    .prepare(
      `SELECT k.kind, COUNT(*) AS pages, SUM(k.changed_chars > 0) AS pagesChanged, SUM(k.elements) AS elements,
              SUM(k.chars) AS chars, SUM(k.changed_chars) AS changedChars, SUM(k.inserted_chars) AS insertedChars
       ${kindJoin} GROUP BY k.kind ORDER BY k.kind`,
    )
    .all(...where.params) as KindRow[];
  const timeWhere = where.sql ? `${where.sql} AND c.has_revision = 1` : 'WHERE c.has_revision = 1';
  const correctionsOverTime = db
    .prepare(
      `SELECT substr(c.revision_at, 1, 10) AS day, COUNT(*) AS pages, AVG(c.score) AS meanScore
       FROM page_checks c ${timeWhere} GROUP BY day ORDER BY day`,
    )
    .all(...where.params) as { day: string; pages: number; meanScore: number }[];
  return {
    pages: totals.pages ?? 0,
    correctedPages: totals.corrected ?? 0,
    meanScore: totals.meanScore ?? null,
    meanByCheck: Object.fromEntries(checks.map((c) => [c.key, totals[c.key] ?? null])),
    scoreHistogram: Array.from({ length: binCount }, (_, i) => ({ from: i / binCount, to: (i + 1) / binCount, count: totals[`bin${i}`] ?? 0 })),
    errorsByKind: withRates(errorsByKind),
    correctionsOverTime,
  };
}

/**
 * The curation queue and its summary, read from page_checks (migration 002). Sorting uses the per-check indexes:
 * ties are broken by rowid, which every index carries, so a page of the queue is an index walk, not a sort. The
 * chosen slice is picked first (rowids only) and joined to its details after; CROSS JOIN keeps SQLite from turning
 * that around (with a bound LIMIT it otherwise scans every page and probes the slice: ~1 s at 100,000 pages).
 */
import type Database from 'better-sqlite3';
import type {
  CurationFilter,
  CurationItem,
  CurationList,
  CurationSort,
  CurationSummary,
  KindChangeSummary,
} from '../../app/contract/curation.js';
import type { ReviewStatus } from '../../app/model/page.js';
import { kindBits, scoresOf, type PageCheckRow } from '../store/checkResults.js';

const sortColumns: Record<CurationSort, string> = {
  score: 'c.score',
  text: 'c.text_score',
  structure: 'c.structure_score',
  tables: 'c.tables_score',
  tablesStructure: 'c.tables_structure_score',
  formulas: 'c.formulas_score',
  repetition: 'c.repetition_score',
  unitTests: 'c.unit_tests_score',
  changedChars: 'c.changed_chars',
  revisionAt: 'c.revision_at',
};

/** Sort keys that are null where they do not apply: sorting by one lists only the pages it applies to. */
const nullableSorts = new Set<CurationSort>(['tables', 'tablesStructure', 'formulas', 'unitTests', 'revisionAt']);

interface Where {
  sql: string;
  params: unknown[];
  /** The element-kind filter alone, for counting from the kinds table (a few pages of a kind, not all pages). */
  kind?: { sql: string; param: string; onlyFilter: boolean };
}

function whereOf(filter: CurationFilter, sort?: CurationSort): Where {
  const clauses: string[] = [];
  const params: unknown[] = [];
  if (filter.reviewStatus && filter.reviewStatus.length > 0) {
    clauses.push(`c.review_status IN (${filter.reviewStatus.map(() => '?').join(', ')})`);
    params.push(...filter.reviewStatus);
  }
  if (filter.engine) {
    clauses.push('c.engine_id = ?');
    params.push(filter.engine);
  }
  if (filter.documentId) {
    clauses.push('c.document_id = ?');
    params.push(filter.documentId);
  }
  if (filter.correctedOnly) clauses.push('c.has_revision = 1');
  if (sort && nullableSorts.has(sort)) clauses.push(`${sortColumns[sort]} IS NOT NULL`);
  const otherFilters = clauses.length;
  let kind: Where['kind'];
  if (filter.elementKind) {
    const kindSql = `k.kind = ?${filter.elementKindChanged ? ' AND k.changed_chars > 0' : ''}`;
    // A bit test on the page's kind masks (no join): walking the sort index stops after one page of results, and a
    // count with other filters reads only the page_checks_for_counts index.
    const bit = kindBits[filter.elementKind] ?? 0;
    clauses.push(`(c.${filter.elementKindChanged ? 'changed_kinds_mask' : 'kinds_mask'} & ${bit}) != 0`);
    kind = { sql: kindSql, param: filter.elementKind, onlyFilter: otherFilters === 0 };
  }
  return {
    sql: clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '',
    params,
    kind,
  };
}

const fromPages = (): string => 'FROM page_checks c';

export interface CurationListRequest extends CurationFilter {
  sort: CurationSort;
  direction: 'asc' | 'desc';
  offset: number;
  limit: number;
}

type ListRow = PageCheckRow & {
  document_id: string;
  engine_id: string;
  has_revision: number;
  changed_chars: number;
  engine_chars: number;
  revision_author: string | null;
  revision_at: string | null;
  page_number: number;
  review_status: ReviewStatus;
  document_name: string;
};

export function listCuration(db: Database.Database, request: CurationListRequest): CurationList {
  const where = whereOf(request, request.sort);
  const total = countOf(db, where);
  const direction = request.direction === 'desc' ? 'DESC' : 'ASC';
  const rows = db
    .prepare(
      `SELECT c.page_id, c.document_id, c.extraction_id, c.revision_id, c.engine_id, c.has_revision, c.score, c.text_score,
              c.structure_score, c.tables_score, c.tables_structure_score, c.formulas_score, c.repetition_score,
              c.unit_tests_score, c.changed_chars, c.engine_chars, c.revision_author, c.revision_at,
              pg.page_number, pg.review_status, d.name AS document_name
       FROM (SELECT c.rowid AS rid ${fromPages()} ${where.sql}
             ORDER BY ${sortColumns[request.sort]} ${direction}, c.rowid ${direction} LIMIT ? OFFSET ?) chosen
       CROSS JOIN page_checks c ON c.rowid = chosen.rid
       JOIN pages pg ON pg.id = c.page_id JOIN documents d ON d.id = c.document_id
       ORDER BY ${sortColumns[request.sort]} ${direction}, c.rowid ${direction}`,
    )
    .all(...where.params, request.limit, request.offset) as ListRow[];
  const kinds = changedKindsOf(db, rows.map((r) => r.page_id));
  const items: CurationItem[] = rows.map((row) => ({
    pageId: row.page_id,
    documentId: row.document_id,
    documentName: row.document_name,
    pageNumber: row.page_number,
    reviewStatus: row.review_status,
    engine: row.engine_id,
    hasRevision: row.has_revision === 1,
    scores: scoresOf(row),
    changedChars: row.changed_chars,
    engineChars: row.engine_chars,
    changedKinds: kinds.get(row.page_id) ?? [],
    revisionAuthor: row.revision_author,
    revisionAt: row.revision_at,
  }));
  return { total, items };
}

function countOf(db: Database.Database, where: Where): number {
  if (!where.kind) return db.prepare(`SELECT COUNT(*) ${fromPages()} ${where.sql}`).pluck().get(...where.params) as number;
  const { sql, param, onlyFilter } = where.kind;
  // Every kinds row belongs to a page_checks row (foreign key), so without other filters the kinds key alone counts
  // (a few thousand entries instead of every page).
  if (onlyFilter) return db.prepare(`SELECT COUNT(*) FROM page_check_kinds k WHERE ${sql}`).pluck().get(param) as number;
  return db.prepare(`SELECT COUNT(*) ${fromPages()} ${where.sql}`).pluck().get(...where.params) as number;
}

function changedKindsOf(db: Database.Database, pageIds: string[]): Map<string, KindChangeSummary[]> {
  const byPage = new Map<string, KindChangeSummary[]>();
  if (pageIds.length === 0) return byPage;
  const rows = db
    .prepare(
      `SELECT page_id, kind, elements, chars, changed_chars AS changedChars FROM page_check_kinds
       WHERE page_id IN (${pageIds.map(() => '?').join(', ')}) AND changed_chars > 0 ORDER BY page_id, kind`,
    )
    .all(...pageIds) as (KindChangeSummary & { page_id: string })[];
  for (const { page_id, ...kind } of rows) {
    const list = byPage.get(page_id) ?? [];
    list.push(kind);
    byPage.set(page_id, list);
  }
  return byPage;
}

const checkColumns = {
  text: 'text_score',
  structure: 'structure_score',
  tables: 'tables_score',
  tablesStructure: 'tables_structure_score',
  formulas: 'formulas_score',
  repetition: 'repetition_score',
  unitTests: 'unit_tests_score',
} as const;

export function summarizeCuration(db: Database.Database, filter: CurationFilter): CurationSummary {
  const where = whereOf(filter);
  const from = `${fromPages()} ${where.sql}`;
  const totals = db
    .prepare(
      `SELECT COUNT(*) AS pages, COALESCE(SUM(c.has_revision), 0) AS corrected, AVG(c.score) AS meanScore,
              ${Object.entries(checkColumns).map(([key, column]) => `AVG(c.${column}) AS ${key}`).join(', ')},
              ${Array.from({ length: 10 }, (_, i) => `COALESCE(SUM(c.score >= ${i / 10}${i < 9 ? ` AND c.score < ${(i + 1) / 10}` : ''}), 0) AS bin${i}`).join(', ')}
       ${from}`,
    )
    .get(...where.params) as Record<string, number | null>;
  // One scan for the totals and the histogram; bin i is [i/10, (i+1)/10), the last bin includes 1.
  const scoreHistogram = Array.from({ length: 10 }, (_, i) => ({ from: i / 10, to: (i + 1) / 10, count: totals[`bin${i}`] ?? 0 }));
  // Without a filter the kinds table is aggregated alone; with one, the filtered page set is built once.
  const kindJoin = where.sql
    ? `FROM page_check_kinds k WHERE k.page_id IN (SELECT c.page_id FROM page_checks c ${where.sql})`
    : 'FROM page_check_kinds k';
  const errorsByKind = (
    db
      .prepare(
        `SELECT k.kind, COUNT(*) AS pages, SUM(k.changed_chars > 0) AS pagesChanged, SUM(k.elements) AS elements,
                SUM(k.chars) AS chars, SUM(k.changed_chars) AS changedChars
         ${kindJoin} GROUP BY k.kind ORDER BY k.kind`,
      )
      .all(...where.params) as { kind: KindChangeSummary['kind']; pages: number; pagesChanged: number; elements: number; chars: number; changedChars: number }[]
  ).map((row) => ({ ...row, changeRate: row.chars > 0 ? row.changedChars / row.chars : 0 }));
  const timeWhere = where.sql ? `${where.sql} AND c.has_revision = 1` : 'WHERE c.has_revision = 1';
  const correctionsOverTime = db
    .prepare(
      `SELECT substr(c.revision_at, 1, 10) AS day, COUNT(*) AS pages, AVG(c.score) AS meanScore
       ${fromPages()} ${timeWhere} GROUP BY day ORDER BY day`,
    )
    .all(...where.params) as { day: string; pages: number; meanScore: number }[];
  return {
    pages: totals.pages ?? 0,
    correctedPages: totals.corrected ?? 0,
    meanScore: totals.meanScore ?? null,
    meanByCheck: Object.fromEntries(Object.keys(checkColumns).map((key) => [key, totals[key] ?? null])),
    scoreHistogram,
    errorsByKind,
    correctionsOverTime,
  };
}

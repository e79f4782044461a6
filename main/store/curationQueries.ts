/**
 * The curation queue, read from page_checks (migration 002). Sorting uses the per-check indexes: ties are broken by
 * rowid, which every index carries, so a page of the queue is an index walk, not a sort. The chosen slice is picked
 * first (rowids only) and joined to its details after; CROSS JOIN keeps SQLite from turning that around (with a bound
 * LIMIT it otherwise scans every page and probes the slice: ~1 s at 100,000 pages). The queue's total comes from the
 * maintained aggregates where they answer the filter (curationSummary.ts), else from an index count.
 */
import type Database from 'better-sqlite3';
import type { CurationFilter, CurationItem, CurationList, CurationSummary, CurationSort, KindChangeSummary, ScoreRange } from '../../app/contract/curation.js';
import type { ReviewStatus } from '../../app/model/page.js';
import { scoresOf, type PageCheckRow } from './checkResults.js';
import { nullableSorts, pageWhereOf, rollupCellOf, sortColumns, type PageWhere } from './curationFilter.js';

import { summarizeCuration, type SummaryOptions } from './curationSummary.js';

export { summarizeCuration };

const fromPages = (): string => 'FROM page_checks c';

export interface CurationListRequest extends CurationFilter, ScoreRange {
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
  const where = pageWhereOf(request, request.sort);
  const total = countOf(db, request, where);
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

function countOf(db: Database.Database, request: CurationListRequest, where: PageWhere): number {
  // The rollups count every page under the filter; a sort by a check that can be null lists only pages it applies to.
  const cell = nullableSorts.has(request.sort) ? null : rollupCellOf(request);
  if (cell) return db.prepare(`SELECT COALESCE(SUM(r.pages), 0) FROM curation_rollup r ${cell.sql}`).pluck().get(...cell.params) as number;
  // Otherwise an index count (a document's pages, a score index range; kind filters are bit tests on the masks).
  return db.prepare(`SELECT COUNT(*) ${fromPages()} ${where.sql}`).pluck().get(...where.params) as number;
}

function changedKindsOf(db: Database.Database, pageIds: string[]): Map<string, KindChangeSummary[]> {
  const byPage = new Map<string, KindChangeSummary[]>();
  if (pageIds.length === 0) return byPage;
  const rows = db
    .prepare(
      `SELECT page_id, kind, elements, chars, changed_chars AS changedChars, inserted_chars AS insertedChars FROM page_check_kinds
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

/** The curation queue and its summary over one project's connection (ProjectStore.curation). */
export class CurationQueries {
  constructor(private readonly db: Database.Database) {}

  list(request: CurationListRequest): CurationList {
    return listCuration(this.db, request);
  }

  summarize(filter: CurationFilter, options: SummaryOptions = {}): CurationSummary {
    return summarizeCuration(this.db, filter, options);
  }
}

/**
 * The curation queue, read from page_checks (migration 002). Sorting uses the per-check indexes: ties are broken by
 * rowid, which every index carries, so a page of the queue is an index walk, not a sort. The chosen slice is picked
 * first (rowids only) and joined to its details after; CROSS JOIN keeps SQLite from turning that around (with a bound
 * LIMIT it otherwise scans every page and probes the slice: ~1 s at 100,000 pages). The queue's total comes from the
 * maintained aggregates where they answer the filter (curationSummary.ts), else from an index count.
 */
import type Database from 'better-sqlite3';
import type { AttentionItem } from '../../../app/contract/attention.js';
import type { CurationFilter, CurationList, CurationSummary } from '../../../app/contract/curation.js';
import { listCurationByAttention, withSignals } from './curationAttention.js';
import { nullableSorts, pageWhereOf, rollupCellOf, sortColumns, type ColumnSort, type CurationListRequest, type PageWhere } from './curationFilter.js';
import { itemColumns, itemsOf, type ListRow } from './curationItems.js';
import { summarizeCuration, type SummaryOptions } from './curationSummary.js';

export type { CurationListRequest };
export { summarizeCuration };

const fromPages = (): string => 'FROM page_checks c';

/** The list, for a sort by a page_checks column (`attention` is ordered in curationAttention.ts). */
export function listCuration(db: Database.Database, request: CurationListRequest & { sort: ColumnSort }): CurationList {
  const where = pageWhereOf(request, request.sort);
  const total = countOf(db, request, where);
  const direction = request.direction === 'desc' ? 'DESC' : 'ASC';
  const rows = db
    .prepare(
      `SELECT ${itemColumns}
       FROM (SELECT c.rowid AS rid ${fromPages()} ${where.sql}
             ORDER BY ${sortColumns[request.sort]} ${direction}, c.rowid ${direction} LIMIT ? OFFSET ?) chosen
       CROSS JOIN page_checks c ON c.rowid = chosen.rid
       JOIN pages pg ON pg.id = c.page_id JOIN documents d ON d.id = c.document_id
       ORDER BY ${sortColumns[request.sort]} ${direction}, c.rowid ${direction}`,
    )
    .all(...where.params, request.limit, request.offset) as ListRow[];
  return { total, items: itemsOf(db, rows) };
}

function countOf(db: Database.Database, request: CurationListRequest, where: PageWhere): number {
  // The rollups count every page under the filter; a sort by a check that can be null lists only pages it applies to.
  const cell = nullableSorts.has(request.sort) ? null : rollupCellOf(request);
  if (cell) return db.prepare(`SELECT COALESCE(SUM(r.pages), 0) FROM curation_rollup r ${cell.sql}`).pluck().get(...cell.params) as number;
  // Otherwise an index count (a document's pages, a score index range; kind filters are bit tests on the masks).
  return db.prepare(`SELECT COUNT(*) ${fromPages()} ${where.sql}`).pluck().get(...where.params) as number;
}

/** The curation queue and its summary over one project's connection (ProjectStore.curation). */
export class CurationQueries {
  constructor(private readonly db: Database.Database) {}

  /**
   * One slice of the queue, each page with its needs-attention signals (`attention()`, AttentionRepository.list);
   * ordered by attention or narrowed to a signal in curationAttention.ts, by a check column here.
   */
  list(request: CurationListRequest, attention: () => readonly AttentionItem[] = () => []): CurationList {
    if (request.sort === 'attention' || request.signal) return listCurationByAttention(this.db, request, attention());
    const list = listCuration(this.db, { ...request, sort: request.sort });
    return { ...list, items: withSignals(list.items, attention()) };
  }

  summarize(filter: CurationFilter, options: SummaryOptions = {}): CurationSummary {
    return summarizeCuration(this.db, filter, options);
  }
}

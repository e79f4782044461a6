/**
 * The curation queue ordered or narrowed by needs-attention signals (app/review/attention.ts). Those signals are
 * computed in memory per page (AttentionRepository), not stored in page_checks, so this path reads the filtered
 * pages' sort keys (one index-only pass), orders them here and joins the details for the slice only.
 *
 * Order `attention`: pages nobody corrected first, heaviest signals first (an approved or rejected page asks for
 * nothing: weight 0), ties in project order; then corrected pages by their combined score, worst first — the
 * engine-vs-correction score only says something once a correction exists. `desc` reverses the whole order.
 * Any other sort with a signal filter orders by its column as the SQL path does.
 */
import type Database from 'better-sqlite3';
import type { AttentionItem } from '../../../app/contract/attention.js';
import type { CurationItem, CurationList } from '../../../app/contract/curation.js';
import { attentionWeight } from '../../../app/review/attention.js';
import { pageWhereOf, sortColumns, type CurationListRequest } from './curationFilter.js';
import { curationItemsFor } from './curationItems.js';

interface Candidate {
  pageId: string;
  corrected: boolean;
  weight: number;
  /** The sort column's value (the combined score for `attention`). */
  value: number | string | null;
  /** Project order (the attention list's), for ties. */
  order: number;
}

const compareValues = (a: number | string | null, b: number | string | null): number =>
  a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1;

export function listCurationByAttention(db: Database.Database, request: CurationListRequest, attention: readonly AttentionItem[]): CurationList {
  const byPage = new Map(attention.map((item, index) => [item.pageId, { item, index }]));
  const where = pageWhereOf(request, request.sort);
  const column = request.sort === 'attention' ? 'c.score' : sortColumns[request.sort];
  const rows = db
    .prepare(`SELECT c.page_id AS pageId, c.has_revision AS hasRevision, ${column} AS value FROM page_checks c ${where.sql} ORDER BY c.rowid`)
    .all(...where.params) as { pageId: string; hasRevision: number; value: number | string | null }[];
  let candidates: Candidate[] = rows.map((row, rowIndex) => {
    const known = byPage.get(row.pageId);
    return {
      pageId: row.pageId,
      corrected: row.hasRevision === 1 || known?.item.corrected === true,
      weight: known ? attentionWeight(known.item.signals, known.item.reviewStatus) : 0,
      value: row.value,
      order: known ? known.index : attention.length + rowIndex,
    };
  });
  if (request.signal) {
    const kind = request.signal;
    candidates = candidates.filter((candidate) => byPage.get(candidate.pageId)?.item.signals.some((signal) => signal.kind === kind));
  }
  const byAttention = (a: Candidate, b: Candidate) =>
    Number(a.corrected) - Number(b.corrected) ||
    (a.corrected ? compareValues(a.value, b.value) : b.weight - a.weight) ||
    a.order - b.order;
  const byColumn = (a: Candidate, b: Candidate) => compareValues(a.value, b.value) || a.order - b.order;
  candidates.sort(request.sort === 'attention' ? byAttention : byColumn);
  if (request.direction === 'desc') candidates.reverse();
  const slice = candidates.slice(request.offset, request.offset + request.limit).map((candidate) => candidate.pageId);
  return { total: candidates.length, items: withSignals(curationItemsFor(db, slice), attention) };
}

/** Each item with its page's signals and whether a field revision corrected it (from `attention.list`). */
export function withSignals(items: CurationItem[], attention: readonly AttentionItem[]): CurationItem[] {
  const byPage = new Map(attention.map((item) => [item.pageId, item]));
  return items.map((item) => {
    const known = byPage.get(item.pageId);
    return { ...item, signals: known?.signals ?? [], corrected: item.corrected || known?.corrected === true };
  });
}

/**
 * A curation filter (and the list's score range) as SQL, two ways: a WHERE over page_checks (alias c; every filter), and — for the filters the
 * maintained aggregates are kept by (review status, engine, corrected, element kind present / changed; migration
 * 003) — a WHERE over the rollup tables (alias r) with the filter key to read.
 */
import type { CurationFilter, CurationSort, ScoreRange } from '../../../app/contract/curation.js';
import type { AttentionSignalKind } from '../../../app/review/attention.js';
import { kindBits } from './checkResults.js';

export interface CurationListRequest extends CurationFilter, ScoreRange {
  sort: CurationSort;
  /** Only pages with a needs-attention signal of this kind. */
  signal?: AttentionSignalKind;
  direction: 'asc' | 'desc';
  offset: number;
  limit: number;
}

/** Sorts by a page_checks column (all but `attention`, which orders by signals computed in memory). */
export type ColumnSort = Exclude<CurationSort, 'attention'>;

export const sortColumns: Record<ColumnSort, string> = {
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
export const nullableSorts = new Set<CurationSort>(['tables', 'tablesStructure', 'formulas', 'unitTests', 'revisionAt']);

export interface PageWhere {
  sql: string;
  params: unknown[];
}

export function pageWhereOf(filter: CurationFilter & ScoreRange, sort?: CurationSort): PageWhere {
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
  // The score range reads the score index (with the review status index when both filter).
  if (filter.minScore !== undefined && filter.minScore > 0) {
    clauses.push('c.score >= ?');
    params.push(filter.minScore);
  }
  if (filter.maxScore !== undefined && filter.maxScore < 1) {
    clauses.push('c.score <= ?');
    params.push(filter.maxScore);
  }
  if (sort && sort !== 'attention' && nullableSorts.has(sort)) clauses.push(`${sortColumns[sort]} IS NOT NULL`);
  if (filter.elementKind) {
    // A bit test on the page's kind masks (no join): walking the sort index stops after one page of results, and a
    // count with other filters reads only the page_checks_for_counts index.
    const bit = kindBits[filter.elementKind] ?? 0;
    clauses.push(`(c.${filter.elementKindChanged ? 'changed_kinds_mask' : 'kinds_mask'} & ${bit}) != 0`);
  }
  return { sql: clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

export interface RollupCell {
  /** WHERE over curation_rollup / curation_rollup_kinds (alias r). */
  sql: string;
  params: unknown[];
  /** The same without the corrected-only clause, for curation_rollup_days (corrected pages only, no such column). */
  daysSql: string;
  daysParams: unknown[];
}

/**
 * The filter as a choice of rollup rows, or null when it filters on something the rollups are not kept by (a
 * document, the list's score range): those are answered from page_checks.
 */
export function rollupCellOf(filter: CurationFilter & ScoreRange): RollupCell | null {
  const documentOrScore =
    filter.documentId !== undefined ||
    (filter.minScore !== undefined && filter.minScore > 0) ||
    (filter.maxScore !== undefined && filter.maxScore < 1);
  if (documentOrScore) return null;
  const clauses: string[] = [];
  const params: unknown[] = [];
  if (filter.reviewStatus && filter.reviewStatus.length > 0) {
    clauses.push(`r.review_status IN (${filter.reviewStatus.map(() => '?').join(', ')})`);
    params.push(...filter.reviewStatus);
  }
  if (filter.engine) {
    clauses.push('r.engine_id = ?');
    params.push(filter.engine);
  }
  clauses.push('r.filter_key = ?');
  params.push(filter.elementKind ? `${filter.elementKindChanged ? 'changed' : 'has'}:${filter.elementKind}` : '');
  const daysSql = `WHERE ${clauses.join(' AND ')}`;
  const daysParams = [...params];
  if (filter.correctedOnly) clauses.push('r.has_revision = 1');
  return { sql: `WHERE ${clauses.join(' AND ')}`, params, daysSql, daysParams };
}

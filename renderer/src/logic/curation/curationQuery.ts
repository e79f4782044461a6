/**
 * What the curation view's controls hold, and how it becomes a `curation.list` request and a `curation.summary`
 * filter. Empty choices ("All") are left out of the request rather than sent as empty strings, which the contract
 * would refuse.
 */
import type { CurationFilter, CurationSort } from '../../../../app/contract/curation.js';
import type { RequestOf } from '../../../../app/contract/methods.js';
import type { ElementKind } from '../../../../app/model/extraction.js';
import type { ReviewStatus } from '../../../../app/model/page.js';

export interface CurationQuery {
  sort: CurationSort;
  direction: 'asc' | 'desc';
  /** Empty = every status. */
  statuses: ReviewStatus[];
  /** '' = every engine. */
  engine: string;
  /** '' = every kind. */
  elementKind: ElementKind | '';
  /** With a kind chosen: only pages where the correction changed that kind. */
  kindChangedOnly: boolean;
  /** '' = every document. */
  documentId: string;
  correctedOnly: boolean;
  /** 0-based page of the list. */
  pageIndex: number;
  pageSize: number;
}

export const defaultCurationQuery: CurationQuery = {
  sort: 'score',
  direction: 'asc',
  statuses: [],
  engine: '',
  elementKind: '',
  kindChangedOnly: false,
  documentId: '',
  correctedOnly: false,
  pageIndex: 0,
  pageSize: 50,
};

/** The sort choices in the order the menu shows them, with their labels. */
export const sortOptions: { key: CurationSort; label: string }[] = [
  { key: 'score', label: 'Combined score' },
  { key: 'text', label: 'Text' },
  { key: 'structure', label: 'Structure' },
  { key: 'tables', label: 'Tables (TEDS)' },
  { key: 'tablesStructure', label: 'Table structure' },
  { key: 'formulas', label: 'Formulas' },
  { key: 'repetition', label: 'Repetition' },
  { key: 'unitTests', label: 'Unit tests' },
  { key: 'changedChars', label: 'Characters changed' },
  { key: 'revisionAt', label: 'Last corrected' },
];

/**
 * The direction that puts the most interesting pages first: worst score first for checks, most changed first for
 * changedChars, newest first for revisionAt.
 */
export function naturalDirection(sort: CurationSort): 'asc' | 'desc' {
  return sort === 'changedChars' || sort === 'revisionAt' ? 'desc' : 'asc';
}

/** A new sort: its natural direction, and back to the first page. */
export function withSort(query: CurationQuery, sort: CurationSort): CurationQuery {
  return { ...query, sort, direction: naturalDirection(sort), pageIndex: 0 };
}

/** Any filter change goes back to the first page (the old page number may not exist under the new filter). */
export function withFilter(query: CurationQuery, change: Partial<Omit<CurationQuery, 'pageIndex' | 'sort' | 'direction'>>): CurationQuery {
  return { ...query, ...change, pageIndex: 0 };
}

export function toSummaryFilter(query: CurationQuery): CurationFilter {
  const filter: CurationFilter = {};
  if (query.statuses.length > 0) filter.reviewStatus = [...new Set(query.statuses)];
  if (query.engine) filter.engine = query.engine;
  if (query.elementKind) {
    filter.elementKind = query.elementKind;
    if (query.kindChangedOnly) filter.elementKindChanged = true;
  }
  if (query.documentId) filter.documentId = query.documentId;
  if (query.correctedOnly) filter.correctedOnly = true;
  return filter;
}

export function toListRequest(query: CurationQuery): RequestOf<'curation.list'> {
  const pageSize = Math.min(500, Math.max(1, Math.floor(query.pageSize)));
  return {
    ...toSummaryFilter(query),
    sort: query.sort,
    direction: query.direction,
    offset: Math.max(0, Math.floor(query.pageIndex)) * pageSize,
    limit: pageSize,
  };
}

export interface PageRange {
  /** 1-based first and last row shown; 0 and 0 for an empty list. */
  first: number;
  last: number;
  total: number;
  hasPrevious: boolean;
  hasNext: boolean;
  pageCount: number;
}

export function pageRange(total: number, pageIndex: number, pageSize: number): PageRange {
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const first = total === 0 ? 0 : Math.min(total, pageIndex * pageSize + 1);
  const last = Math.min(total, (pageIndex + 1) * pageSize);
  return { first, last, total, hasPrevious: pageIndex > 0, hasNext: last < total, pageCount };
}

/** "1–50 of 123 pages". */
export function describeRange(range: PageRange): string {
  if (range.total === 0) return 'No pages';
  const noun = range.total === 1 ? 'page' : 'pages';
  return `${range.first}–${range.last} of ${range.total} ${noun}`;
}

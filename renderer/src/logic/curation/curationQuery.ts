/**
 * What the curation view's controls hold, and how it becomes a `curation.list` request and a `curation.summary`
 * filter (the same filters, without the list's score range). Empty choices ("All") are left out of the request rather than sent as empty strings, which the contract
 * would refuse.
 */
import type { CurationFilter, CurationSort } from '../../../../app/contract/curation.js';
import type { RequestOf } from '../../../../app/contract/methods.js';
import type { ElementKind } from '../../../../app/model/extraction.js';
import type { ReviewStatus } from '../../../../app/model/page.js';
import type { AttentionSignalKind } from '../../../../app/review/attention.js';

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
  /** Combined score range, both ends inclusive; null = no bound. In [0, 1], in either order (effectiveScoreRange). */
  minScore: number | null;
  maxScore: number | null;
  /** Only pages with this needs-attention signal; '' = any. */
  signal: AttentionSignalKind | '';
  /** 0-based page of the list. */
  pageIndex: number;
  pageSize: number;
}

/** By default the queue leads with what needs attention: uncorrected pages by their signals, then corrected by score. */
export const defaultCurationQuery: CurationQuery = {
  sort: 'attention',
  direction: 'asc',
  statuses: [],
  engine: '',
  elementKind: '',
  kindChangedOnly: false,
  documentId: '',
  correctedOnly: false,
  minScore: null,
  maxScore: null,
  signal: '',
  pageIndex: 0,
  pageSize: 50,
};

/** The sort choices in the order the menu shows them, with their labels. */
export const sortOptions: { key: CurationSort; label: string }[] = [
  { key: 'attention', label: 'Needs attention, then score' },
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

/**
 * A new score range (either end null for none), back to the first page. Ends are clamped to [0, 1]; they are kept
 * as given otherwise (the fields show what was typed) and put in order when the request is made.
 */
export function withScoreRange(query: CurationQuery, min: number | null, max: number | null): CurationQuery {
  const clamp = (value: number | null) => (value === null || Number.isNaN(value) ? null : Math.min(1, Math.max(0, value)));
  return { ...query, minScore: clamp(min), maxScore: clamp(max), pageIndex: 0 };
}

/** The range in order, with ends that filter nothing (0, 1) dropped: what the request carries. */
export function effectiveScoreRange(query: Pick<CurationQuery, 'minScore' | 'maxScore'>): { min: number | null; max: number | null } {
  let { minScore: min, maxScore: max } = query;
  if (min !== null && max !== null && min > max) [min, max] = [max, min];
  return { min: min !== null && min > 0 ? min : null, max: max !== null && max < 1 ? max : null };
}

/**
 * A typed score bound: null for an empty field (no bound), the number for a score in [0, 1], undefined for anything
 * else (half typed, out of range): the query keeps its bound until the field holds a score again.
 */
export function parseScoreBound(typed: string): number | null | undefined {
  const text = typed.trim();
  if (text === '') return null;
  if (!/^(?:\d+(?:\.\d*)?|\.\d+)$/.test(text)) return undefined;
  const value = Number(text);
  return value >= 0 && value <= 1 ? value : undefined;
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
  // The score range narrows the list only: the summary's histogram keeps showing where every page lies.
  const range = effectiveScoreRange(query);
  return {
    ...toSummaryFilter(query),
    ...(range.min !== null ? { minScore: range.min } : {}),
    ...(range.max !== null ? { maxScore: range.max } : {}),
    // Like the score range, a signal narrows the list only (the summary's charts are over every page).
    ...(query.signal ? { signal: query.signal } : {}),
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

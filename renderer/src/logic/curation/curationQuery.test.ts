import { describe, expect, it } from 'vitest';
import { contractMethods } from '../../../../app/contract/methods.js';
import {
  defaultCurationQuery,
  describeRange,
  naturalDirection,
  pageRange,
  parseScoreBound,
  toListRequest,
  toSummaryFilter,
  withFilter,
  withScoreRange,
  withSort,
} from './curationQuery.js';

describe('toListRequest', () => {
  it('sends needs-attention order with no filters by default', () => {
    expect(toListRequest(defaultCurationQuery)).toEqual({ sort: 'attention', direction: 'asc', offset: 0, limit: 50 });
  });
  it('sends a signal filter to the list only, not to the summary', () => {
    const query = withFilter(defaultCurationQuery, { signal: 'failed-rule' });
    expect(toListRequest(query)).toMatchObject({ signal: 'failed-rule' });
    expect(toSummaryFilter(query)).toEqual({});
  });
  it('leaves "All" choices out and maps every filter', () => {
    const request = toListRequest({
      ...defaultCurationQuery,
      statuses: ['approved', 'in-review', 'approved'],
      engine: 'tesseract',
      elementKind: 'table',
      kindChangedOnly: true,
      documentId: 'doc-1',
      correctedOnly: true,
      pageIndex: 2,
      pageSize: 25,
    });
    expect(request).toEqual({
      reviewStatus: ['approved', 'in-review'],
      engine: 'tesseract',
      elementKind: 'table',
      elementKindChanged: true,
      documentId: 'doc-1',
      correctedOnly: true,
      sort: 'attention',
      direction: 'asc',
      offset: 50,
      limit: 25,
    });
  });
  it('ignores "changed only" without a kind', () => {
    expect(toSummaryFilter({ ...defaultCurationQuery, kindChangedOnly: true })).toEqual({});
  });
  it('produces requests the contract accepts', () => {
    const schema = contractMethods['curation.list'].request;
    expect(schema.safeParse(toListRequest(defaultCurationQuery)).success).toBe(true);
    const filtered = toListRequest({ ...defaultCurationQuery, statuses: ['rejected'], elementKind: 'formula', pageSize: 9999 });
    expect(schema.safeParse(filtered).success).toBe(true);
    expect(filtered.limit).toBe(500);
    expect(contractMethods['curation.summary'].request.safeParse(toSummaryFilter(defaultCurationQuery)).success).toBe(true);
  });
});

describe('sorting and filtering', () => {
  it('puts the most interesting pages first for each sort', () => {
    expect(naturalDirection('tables')).toBe('asc');
    expect(naturalDirection('changedChars')).toBe('desc');
    expect(naturalDirection('revisionAt')).toBe('desc');
  });
  it('returns to the first page on a new sort or filter', () => {
    const onPage3 = { ...defaultCurationQuery, pageIndex: 3 };
    expect(withSort(onPage3, 'changedChars')).toMatchObject({ sort: 'changedChars', direction: 'desc', pageIndex: 0 });
    expect(withFilter(onPage3, { engine: 'x' })).toMatchObject({ engine: 'x', pageIndex: 0 });
  });
});

describe('pageRange', () => {
  it('describes the slice shown', () => {
    const range = pageRange(123, 2, 50);
    expect(range).toMatchObject({ first: 101, last: 123, hasPrevious: true, hasNext: false, pageCount: 3 });
    expect(describeRange(range)).toBe('101–123 of 123 pages');
    expect(describeRange(pageRange(0, 0, 50))).toBe('No pages');
    expect(describeRange(pageRange(1, 0, 50))).toBe('1–1 of 1 page');
    expect(pageRange(100, 0, 50).hasNext).toBe(true);
  });
});

describe('score range', () => {
  const schema = contractMethods['curation.list'].request;
  it('sends the range in order, without ends that filter nothing', () => {
    const onPage2 = { ...defaultCurationQuery, pageIndex: 2 };
    const range = withScoreRange(onPage2, 0.2, 0.6);
    expect(range).toMatchObject({ minScore: 0.2, maxScore: 0.6, pageIndex: 0 });
    expect(toListRequest(range)).toMatchObject({ minScore: 0.2, maxScore: 0.6 });
    // The summary keeps showing every page (its histogram is where a range is picked from).
    expect(toSummaryFilter(range)).toEqual({});
    // Typed the wrong way round: the fields keep it, the request puts it in order (the contract refuses min > max).
    const reversed = withScoreRange(defaultCurationQuery, 0.9, 0.3);
    expect(reversed).toMatchObject({ minScore: 0.9, maxScore: 0.3 });
    expect(toListRequest(reversed)).toMatchObject({ minScore: 0.3, maxScore: 0.9 });
    expect(schema.safeParse(toListRequest(reversed)).success).toBe(true);
    expect(schema.safeParse({ minScore: 0.9, maxScore: 0.3 }).success).toBe(false);
    // 0 and 1 filter nothing; out-of-range ends are clamped.
    const bounds = (min: number | null, max: number | null) => {
      const { minScore, maxScore } = toListRequest(withScoreRange(defaultCurationQuery, min, max));
      return { minScore, maxScore };
    };
    expect(bounds(0, 1)).toEqual({ minScore: undefined, maxScore: undefined });
    expect(bounds(-3, 0.5)).toEqual({ minScore: undefined, maxScore: 0.5 });
    expect(bounds(0.75, null)).toEqual({ minScore: 0.75, maxScore: undefined });
  });
  it('reads what is typed into a score field', () => {
    expect(parseScoreBound('')).toBeNull();
    expect(parseScoreBound(' 0.35 ')).toBe(0.35);
    expect(parseScoreBound('.5')).toBe(0.5);
    expect(parseScoreBound('1')).toBe(1);
    expect(parseScoreBound('0.')).toBe(0);
    expect(parseScoreBound('1.2')).toBeUndefined();
    expect(parseScoreBound('-0.1')).toBeUndefined();
    expect(parseScoreBound('abc')).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import type { AttentionItem } from '../../../../app/contract/attention.js';
import { nextAfterApproval } from './nextAfterApproval.js';

const page = (pageId: string, documentId: string, flagged: boolean, reviewStatus: AttentionItem['reviewStatus'] = 'unreviewed'): AttentionItem => ({
  pageId,
  documentId,
  documentName: `${documentId}.pdf`,
  pageNumber: Number(pageId.split('-')[1]),
  reviewStatus,
  corrected: false,
  signals: flagged ? [{ kind: 'failed-rule', detail: 'BR-CO-15' }] : [],
});

describe('the page after an approval', () => {
  const items = [page('a-1', 'a', true), page('a-2', 'a', true), page('b-1', 'b', false), page('c-1', 'c', true), page('d-1', 'd', false, 'approved')];
  it('skips the other pages of the invoice just approved, to the next page needing attention', () => {
    expect(nextAfterApproval(items, 'a-1', 'a')).toBe('c-1');
  });
  it('keeps the document\'s other pages where only the page was approved (not an invoice)', () => {
    expect(nextAfterApproval(items, 'a-1', null)).toBe('a-2');
  });
  it('goes on to an invoice nothing flags where none needs attention, never to one decided', () => {
    const calm = [page('a-1', 'a', true), page('b-1', 'b', false), page('d-1', 'd', false, 'approved'), page('e-1', 'e', false, 'rejected')];
    expect(nextAfterApproval(calm, 'a-1', 'a')).toBe('b-1');
    calm[0] = page('a-1', 'a', true, 'approved');
    expect(nextAfterApproval(calm, 'b-1', 'b')).toBeNull();
  });
  it('stays within the curation filter', () => {
    expect(nextAfterApproval(items, 'a-1', 'a', { signal: 'missing-field', documentId: '', statuses: [] })).toBeNull();
  });
});

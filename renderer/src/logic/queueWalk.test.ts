import { describe, expect, it } from 'vitest';
import type { AttentionItem } from '../../../app/contract/attention.js';
import { countNeedingAttention, stepNeedingAttention } from './queueWalk.js';

const item = (pageId: string, kinds: AttentionItem['signals'][number]['kind'][], reviewStatus: AttentionItem['reviewStatus'] = 'unreviewed', documentId = 'd1'): AttentionItem => ({
  pageId, documentId, documentName: `${documentId}.pdf`, pageNumber: 1, reviewStatus, corrected: false, signals: kinds.map((kind) => ({ kind, detail: kind })),
});

const queue = [
  item('a', ['failed-rule']),
  item('b', ['low-confidence']),
  item('c', []),
  item('d', ['failed-rule'], 'approved'),
  item('e', ['xml-disagreement', 'failed-rule'], 'unreviewed', 'd2'),
  item('f', ['low-confidence'], 'in-review', 'd2'),
];

describe('stepNeedingAttention', () => {
  it('walks forward and back through the pages needing attention, wrapping, skipping clean and approved pages', () => {
    expect(stepNeedingAttention(queue, 'a', 1)).toBe('b');
    expect(stepNeedingAttention(queue, 'b', 1)).toBe('e');
    expect(stepNeedingAttention(queue, 'f', 1)).toBe('a');
    expect(stepNeedingAttention(queue, 'a', -1)).toBe('f');
    expect(stepNeedingAttention(queue, 'e', -1)).toBe('b');
    expect(stepNeedingAttention(queue, null, 1)).toBe('a');
    expect(stepNeedingAttention(queue, null, -1)).toBe('f');
  });
  it('follows the curation filter: signal, document, status', () => {
    const failing = { signal: 'failed-rule' as const, documentId: '', statuses: [] };
    expect(stepNeedingAttention(queue, 'a', 1, failing)).toBe('e');
    expect(stepNeedingAttention(queue, 'e', 1, failing)).toBe('a');
    expect(stepNeedingAttention(queue, 'a', -1, failing)).toBe('e');
    expect(stepNeedingAttention(queue, 'a', 1, { signal: '', documentId: 'd2', statuses: [] })).toBe('e');
    expect(stepNeedingAttention(queue, 'a', 1, { signal: '', documentId: '', statuses: ['in-review'] })).toBe('f');
    expect(stepNeedingAttention(queue, 'e', 1, { signal: 'repetition', documentId: '', statuses: [] })).toBeNull();
    expect(countNeedingAttention(queue, failing)).toBe(2);
    expect(countNeedingAttention(queue)).toBe(4);
  });
  it('from the invoice queue: invoice by invoice in its visible order, at the first page needing attention, else the first page', () => {
    const pages = [...queue, item('g', [], 'unreviewed', 'd3'), item('h', [], 'approved', 'd4')];
    const order = { signal: '' as const, documentId: '', statuses: [], documentOrder: ['d3', 'd2', 'd1'] };
    expect(stepNeedingAttention(pages, 'g', 1, order)).toBe('e');
    expect(stepNeedingAttention(pages, 'f', 1, order)).toBe('a');
    expect(stepNeedingAttention(pages, 'a', 1, order)).toBe('g');
    expect(stepNeedingAttention(pages, 'g', -1, order)).toBe('a');
    expect(stepNeedingAttention(pages, 'h', 1, order)).toBe('g');
    expect(stepNeedingAttention(pages, 'h', -1, order)).toBe('a');
    expect(countNeedingAttention(pages, order)).toBe(2);
  });
});

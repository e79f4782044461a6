import { describe, expect, it } from 'vitest';
import type { AttentionItem } from '../../../app/contract/attention.js';
import { pageMark, pageMarks } from './pageMarks.js';

const item = (pageId: string, signals: AttentionItem['signals'], reviewStatus: AttentionItem['reviewStatus'] = 'unreviewed'): AttentionItem => ({
  pageId, documentId: 'd', documentName: 'a.pdf', pageNumber: 1, reviewStatus, corrected: false, signals,
});

describe('pageMark', () => {
  it('counts failing rules and missing fields, before disagreements and other signals', () => {
    const mark = pageMark(item('p', [
      { kind: 'failed-rule', detail: 'BR-CO-10: …' },
      { kind: 'missing-field', detail: 'BR-02: …' },
      { kind: 'xml-disagreement', detail: 'total' },
    ]));
    expect(mark).toMatchObject({ kind: 'fail', text: '✕2' });
    expect(mark!.title).toContain('Failed rule: BR-CO-10');
    expect(pageMark(item('p', [{ kind: 'xml-disagreement', detail: 'total' }]))).toMatchObject({ kind: 'xml', text: '≠' });
    expect(pageMark(item('p', [{ kind: 'low-confidence', detail: 'fields tax' }]))).toMatchObject({ kind: 'attention' });
  });
  it('marks nothing on clean, approved or rejected pages', () => {
    expect(pageMark(item('p', []))).toBeNull();
    expect(pageMark(item('p', [{ kind: 'failed-rule', detail: 'x' }], 'approved'))).toBeNull();
    expect(pageMark(item('p', [{ kind: 'failed-rule', detail: 'x' }], 'rejected'))).toBeNull();
    expect([...pageMarks([item('a', []), item('b', [{ kind: 'repetition', detail: 'r' }])]).keys()]).toEqual(['b']);
  });
});

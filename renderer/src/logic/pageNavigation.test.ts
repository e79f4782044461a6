import { describe, expect, it } from 'vitest';
import type { DocumentSummary, PageSummary } from '../../../app/model/page.js';
import { keepOrFirstPage, neighbourPage } from './pageNavigation.js';

function page(id: string, documentId: string, pageNumber: number): PageSummary {
  return {
    id,
    documentId,
    pageNumber,
    width: 100,
    height: 100,
    dpi: 144,
    status: 'done',
    error: null,
    engine: null,
    revisionCount: 0,
    reviewStatus: 'unreviewed',
  };
}

const documents: DocumentSummary[] = [
  { id: 'a', name: 'a.pdf', sha256: 'x', mediaType: 'application/pdf', importedAt: '', pages: [page('a1', 'a', 1), page('a2', 'a', 2)] },
  { id: 'b', name: 'b.png', sha256: 'y', mediaType: 'image/png', importedAt: '', pages: [page('b1', 'b', 1)] },
];

describe('page navigation', () => {
  it('moves across document boundaries and stops at the ends', () => {
    expect(neighbourPage(documents, 'a2', 1)).toBe('b1');
    expect(neighbourPage(documents, 'b1', -1)).toBe('a2');
    expect(neighbourPage(documents, 'b1', 1)).toBe('b1');
    expect(neighbourPage(documents, 'a1', -1)).toBe('a1');
    expect(neighbourPage(documents, 'gone', 1)).toBe('a1');
    expect(neighbourPage([], 'a1', 1)).toBeNull();
  });
  it('keeps an existing selection or falls back to the first page', () => {
    expect(keepOrFirstPage(documents, 'b1')).toBe('b1');
    expect(keepOrFirstPage(documents, 'zz')).toBe('a1');
    expect(keepOrFirstPage(documents, null)).toBe('a1');
    expect(keepOrFirstPage([], null)).toBeNull();
  });
});

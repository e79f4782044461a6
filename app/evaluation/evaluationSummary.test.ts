import { describe, expect, it } from 'vitest';
import { summarizeEvaluation, whyLow, type PageEvaluation } from './evaluationSummary.js';

function row(overrides: Partial<PageEvaluation>): PageEvaluation {
  return {
    engine: 'bundled',
    engineName: 'Bundled',
    engineVersion: '1',
    pageId: 'p1',
    documentId: 'd1',
    documentName: 'a.pdf',
    pageNumber: 1,
    referenceSha256: 'x',
    seconds: 2,
    error: null,
    score: 1,
    terms: { text: 1 },
    kinds: [{ kind: 'text', chars: 100, changedChars: 0 }],
    ...overrides,
  };
}

describe('summarizeEvaluation', () => {
  const rows = [
    row({ pageId: 'p1', score: 0.97, terms: { text: 0.97, tables: 0.9 } }),
    row({ pageId: 'p2', pageNumber: 2, score: 0.5, terms: { text: 0.5 }, kinds: [{ kind: 'table', chars: 50, changedChars: 25 }] }),
    row({ pageId: 'p3', documentId: 'd2', documentName: 'b.pdf', error: 'timed out', score: 0, terms: {}, kinds: [], seconds: 4 }),
    row({ engine: 'pack:/m', pageId: 'p1', score: 0.99, seconds: 0.5 }),
  ];

  it('counts accepted pages at the threshold, failed pages as not accepted, and costs per accepted page', () => {
    const summary = summarizeEvaluation(rows, { threshold: 0.9, costPerHour: 3.6, engines: ['bundled', 'pack:/m'] });
    const bundled = summary.engines[0]!;
    expect(bundled.pages).toBe(3);
    expect(bundled.accepted).toBe(1);
    expect(bundled.accepted_share).toBeCloseTo(1 / 3, 4);
    expect(bundled.errors).toBe(1);
    expect(bundled.seconds_per_page).toBeCloseTo(8 / 3, 3);
    // 8 s at 3.6 per hour = 0.008, over one accepted page.
    expect(bundled.cost_per_accepted_page).toBeCloseTo(0.008, 6);
    expect(bundled.terms).toEqual({ text: 0.735, tables: 0.9 });
    expect(bundled.worst.map((w) => w.pageId)).toEqual(['p3', 'p2', 'p1']);
    expect(bundled.failures).toEqual([{ pageId: 'p3', document: 'b.pdf', page: 1, error: 'timed out' }]);
    expect(bundled.by_kind).toEqual([
      { kind: 'table', chars: 50, changed_chars: 25, kept_share: 0.5 },
      { kind: 'text', chars: 100, changed_chars: 0, kept_share: 1 },
    ]);
    expect(bundled.by_document.map((d) => d.document)).toEqual(['b.pdf', 'a.pdf']);
    expect(summary.engines[1]!.engine).toBe('pack:/m');
  });

  it('averages what each check measured, not the floor the combined score multiplies', () => {
    const formula = row({ pageId: 'p1', score: 0.2, terms: { text: 1, format: 0.2 }, raw: { text: 1, format: 0 } });
    const clean = row({ pageId: 'p2', pageNumber: 2, score: 1, terms: { text: 1 }, raw: { text: 1 } });
    expect(summarizeEvaluation([formula, clean], { threshold: 0.9 }).engines[0]!.terms).toEqual({ text: 1, format: 0 });
  });

  it('has no cost without a cost per hour or without an accepted page', () => {
    expect(summarizeEvaluation(rows, { threshold: 0.9 }).engines[0]!.cost_per_accepted_page).toBeNull();
    expect(summarizeEvaluation(rows, { threshold: 1, costPerHour: 1 }).engines[0]!.cost_per_accepted_page).toBeNull();
  });

  it('keeps only the latest row of a page that a resumed run scored again', () => {
    const summary = summarizeEvaluation([...rows, row({ pageId: 'p2', pageNumber: 2, score: 0.95, terms: { text: 0.95 } })], { threshold: 0.9 });
    expect(summary.engines[0]!.pages).toBe(3);
    expect(summary.engines[0]!.accepted).toBe(2);
  });

  it('says why a page scored low', () => {
    expect(whyLow(row({ error: 'boom' }))).toBe('error: boom');
    expect(whyLow(row({ terms: { text: 0.6, tables: 0.3, structure: 1 } }))).toBe('tables 0.30, text 0.60');
    expect(whyLow(row({ terms: { text: 0.99 } }))).toBe('every term ≥ 0.95');
    expect(whyLow(row({ terms: { text: 1, format: 0.2 }, raw: { text: 1, format: 0 } }))).toBe('format 0.00');
  });
});

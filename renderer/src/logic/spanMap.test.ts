import { describe, expect, it } from 'vitest';
import type { Span } from '../../../app/model/extraction.js';
import { applyChangesToSpans, elementAtOffset, mapSpansThroughEdit } from './spanMap.js';

const text = '# Invoice\n\nTotal: 12.00\n';
// "# Invoice" = [0, 9), "Total: 12.00" = [11, 23)
const spans: Span[] = [
  [0, 9],
  [11, 23],
];

function spanText(source: string, span: Span): string {
  return source.slice(span[0], span[1]);
}

describe('applyChangesToSpans', () => {
  it('shifts spans after an insertion and grows the span it touches', () => {
    // Insert "Tax invoice " at the start of "Invoice" (offset 2).
    const next = applyChangesToSpans(spans, [{ offset: 2, removedLength: 0, insertedLength: 4 }]);
    const edited = '# Tax Invoice\n\nTotal: 12.00\n';
    expect(spanText(edited, next[0]!)).toBe('# Tax Invoice');
    expect(spanText(edited, next[1]!)).toBe('Total: 12.00');
  });

  it('keeps a span on its text when a replacement inside it changes length', () => {
    // "12.00" -> "1,234.50" inside the second span.
    const next = applyChangesToSpans(spans, [{ offset: 18, removedLength: 5, insertedLength: 8 }]);
    const edited = '# Invoice\n\nTotal: 1,234.50\n';
    expect(spanText(edited, next[1]!)).toBe('Total: 1,234.50');
    expect(next[0]).toEqual([0, 9]);
  });

  it('collapses a span whose text was deleted', () => {
    const next = applyChangesToSpans(spans, [{ offset: 0, removedLength: 11, insertedLength: 0 }]);
    expect(next[0]![1] - next[0]![0]).toBe(0);
    expect(spanText('Total: 12.00\n', next[1]!)).toBe('Total: 12.00');
  });

  it('applies several changes of one event in reverse order', () => {
    // Both against the original: delete "# " (0..2) and insert "EUR " at 18.
    const next = applyChangesToSpans(spans, [
      { offset: 0, removedLength: 2, insertedLength: 0 },
      { offset: 18, removedLength: 0, insertedLength: 4 },
    ]);
    const edited = 'Invoice\n\nTotal: EUR 12.00\n';
    expect(spanText(edited, next[0]!)).toBe('Invoice');
    expect(spanText(edited, next[1]!)).toBe('Total: EUR 12.00');
  });
});

describe('mapSpansThroughEdit', () => {
  it('is the identity for unchanged text', () => {
    expect(mapSpansThroughEdit(text, text, spans)).toEqual(spans);
  });

  it('follows the text through a saved revision with edits in several places', () => {
    const edited = '# INVOICE 2024\n\nSubtotal\n\nTotal: 12.50\n';
    const mapped = mapSpansThroughEdit(text, edited, spans);
    expect(spanText(edited, mapped[0]!)).toContain('INVOICE');
    expect(spanText(edited, mapped[1]!)).toContain('Total: 12.5');
    expect(spanText(edited, mapped[1]!)).not.toContain('Subtotal\n');
  });
});

describe('elementAtOffset', () => {
  const items = [
    { id: 'table', span: [0, 40] as Span },
    { id: 'cell-formula', span: [10, 15] as Span },
    { id: 'empty', span: [20, 20] as Span },
  ];
  it('picks the narrowest element containing the cursor', () => {
    expect(elementAtOffset(items, 12)?.id).toBe('cell-formula');
    expect(elementAtOffset(items, 30)?.id).toBe('table');
  });
  it('counts the position right after the last character and ignores empty spans', () => {
    expect(elementAtOffset(items, 15)?.id).toBe('cell-formula');
    expect(elementAtOffset(items, 20)?.id).toBe('table');
    expect(elementAtOffset(items, 41)).toBeNull();
  });
});

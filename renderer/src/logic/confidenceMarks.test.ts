import { describe, expect, it } from 'vitest';
import type { Element, Word } from '../../../app/model/extraction.js';
import { confidenceMarks, neighbourMark } from './confidenceMarks.js';

const element = (id: string, span: [number, number], box: Element['box'], confidence: number | null = null): Element => ({ id, kind: 'text', box, span, confidence });
const word = (text: string, x: number, y: number, confidence: number | null): Word => ({ text, box: [x, y, x + 10, y + 10], confidence });

describe('confidenceMarks', () => {
  const markdown = 'Total - 5\n\n<table><tr><td>-</td><td>&#36;5</td></tr></table>';
  const elements = [element('p', [0, 9], [0, 0, 100, 20]), element('t', [11, markdown.length], [0, 30, 100, 60])];
  const words = [word('Total', 0, 0, 0.99), word('-', 20, 0, 0.3), word('5', 40, 0, 0.95), word('-', 0, 40, 0.2), word('$5', 30, 40, 0.4)];

  it('places each low-confidence word at its own occurrence inside its element, escaped spellings included', () => {
    const marks = confidenceMarks({ markdown, elements, words }, 0.6);
    expect(marks.map((m) => markdown.slice(...m.span))).toEqual(['-', '-', '&#36;5']);
    expect(marks.map((m) => m.span[0])).toEqual([6, 26, 36]);
    expect(confidenceMarks({ markdown, elements, words }, 0.25).map((m) => m.text)).toEqual(['-']);
  });

  it('marks a whole element below the threshold when it has no words', () => {
    const marks = confidenceMarks({ markdown, elements: [element('p', [0, 9], [0, 0, 10, 10], 0.4)], words: [] }, 0.6);
    expect(marks).toHaveLength(1);
    expect(marks[0]!.kind).toBe('element');
    expect(marks[0]!.span).toEqual([0, 9]);
  });

  it('steps forward and back through marks from the selection, wrapping around', () => {
    const spans: [number, number][] = [[5, 8], [20, 22], [30, 30], [40, 45]];
    expect(neighbourMark(spans, [0, 0], 1)).toBe(0);
    expect(neighbourMark(spans, [5, 8], 1)).toBe(1);
    expect(neighbourMark(spans, [6, 6], 1)).toBe(1);
    expect(neighbourMark(spans, [41, 41], 1)).toBe(0);
    expect(neighbourMark(spans, [20, 22], -1)).toBe(0);
    expect(neighbourMark(spans, [2, 2], -1)).toBe(3);
    expect(neighbourMark([], [0, 0], 1)).toBeNull();
  });
});

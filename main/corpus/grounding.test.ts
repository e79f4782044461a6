import { describe, expect, it } from 'vitest';
import { GROUNDING_SCALE, parseGroundingOutput } from '../../app/grounding/groundingParser.js';
import type { CorpusRecord } from './corpusRecord.js';
import { groundedText, promptAndAnswer, toGrid } from './grounding.js';
import { defaultDocumentPrompt } from './trainingFormats.js';

const page = { width: 1240, height: 1754 };
const engine = '# Invoice 17\n\nTotal due: 120.00 EUR\n\n<table><tr><td>A</td><td>1</td></tr></table>\n';
const elements: CorpusRecord['elements'] = [
  { id: 'e1', kind: 'title', box: [100, 80, 900, 140], span: [0, 12], confidence: null, level: 1 },
  { id: 'e2', kind: 'text', box: [100, 200, 700, 240], span: [14, 35], confidence: 0.9, level: null },
  { id: 'e3', kind: 'table', box: [90, 300, 1150, 700], span: [37, 83], confidence: null, level: null },
];
const record = (corrected: string, withElements = elements) =>
  ({ elements: withElements, element_page: page, engine_markdown: engine, corrected_markdown: corrected }) as CorpusRecord;

/** One grid cell of the 0–999 grid in page pixels: how far a box may move through the model's coordinates. */
const cell = Math.max(page.width, page.height) / GROUNDING_SCALE;

describe('grounded answers', () => {
  it('parse back (as the remote engine parses the model) into the same text and the same boxes', () => {
    const corrected = engine.replace('120.00', '102.00').replace('<td>A</td>', '<td>Apples</td>');
    const text = groundedText(record(corrected))!;
    expect(text).toContain('<|ref|>title<|/ref|><|det|>[[');
    const parsed = parseGroundingOutput(text, page);
    expect(parsed.warnings).toEqual([]);
    expect(parsed.markdown).toBe(corrected);
    expect(parsed.elements.map((e) => e.kind)).toEqual(['title', 'text', 'table']);
    for (const [i, element] of parsed.elements.entries()) {
      for (let k = 0; k < 4; k++) expect(Math.abs(element.box[k]! - elements[i]!.box[k]!)).toBeLessThanOrEqual(cell);
      // Each element starts where its text starts in the corrected Markdown.
      expect(corrected.slice(element.span[0]).startsWith(engine.slice(elements[i]!.span[0], elements[i]!.span[0] + 2))).toBe(true);
    }
  });

  it('keeps the grounding prompt with boxes, and falls back to the plain prompt without them', () => {
    const grounded = promptAndAnswer(record(engine), defaultDocumentPrompt);
    expect(grounded.prompt).toBe(defaultDocumentPrompt);
    expect(grounded.answer).toContain('<|det|>');
    const plain = promptAndAnswer(record(engine, []), defaultDocumentPrompt);
    expect(plain).toEqual({ prompt: 'Convert the document to markdown.', answer: engine });
    expect(promptAndAnswer(record(engine), 'Free OCR.')).toEqual({ prompt: 'Free OCR.', answer: engine });
  });

  it('leaves out elements nested in an earlier one and clamps boxes to the grid', () => {
    const nested = [...elements, { id: 'c1', kind: 'text' as const, box: [95, 310, 300, 340] as [number, number, number, number], span: [44, 52] as [number, number], confidence: null, level: null }];
    expect(parseGroundingOutput(groundedText(record(engine, nested))!, page).elements).toHaveLength(3);
    expect(toGrid([-5, 0, 2000, page.height], page)).toEqual([0, 0, GROUNDING_SCALE, GROUNDING_SCALE]);
  });
});

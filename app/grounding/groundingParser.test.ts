import { describe, expect, it } from 'vitest';
import { parseGroundingOutput } from './groundingParser.js';

const page = { width: 999 * 2, height: 999 * 3 };

const sample = [
  '<|ref|>title<|/ref|><|det|>[[100, 20, 900, 60]]<|/det|>',
  '# ACME GmbH — Invoice 2024-17',
  '',
  '<|ref|>text<|/ref|><|det|>[[100, 80, 500, 120]]<|/det|>',
  'Date: 2024-03-01',
  '',
  '<|ref|>table<|/ref|><|det|>[[50, 200, 950, 600]]<|/det|>',
  '<table><tr><td>Item</td><td>Price</td></tr><tr><td colspan="2">Total $12.50$</td></tr></table>',
  '',
  '<|ref|>equation<|/ref|><|det|>[[300, 650, 700, 700]]<|/det|>',
  '$$a^2 + b^2 = c^2$$',
].join('\n');

describe('parseGroundingOutput', () => {
  it('turns grounded output into Markdown without tags and elements with pixel boxes and spans', () => {
    const result = parseGroundingOutput(sample, page);
    expect(result.warnings).toEqual([]);
    expect(result.markdown).not.toMatch(/<\|(\/)?(ref|det)\|>/);
    expect(result.elements.map((e) => e.kind)).toEqual(['title', 'text', 'table', 'formula']);
    const [title, text, table, formula] = result.elements;
    expect(title!.box).toEqual([200, 60, 1800, 180]);
    expect(title!.level).toBe(1);
    expect(result.markdown.slice(...title!.span)).toBe('# ACME GmbH — Invoice 2024-17');
    expect(result.markdown.slice(...text!.span)).toBe('Date: 2024-03-01');
    expect(result.markdown.slice(...table!.span)).toMatch(/^<table>.*colspan="2".*<\/table>$/);
    expect(result.markdown.slice(...formula!.span)).toBe('$$a^2 + b^2 = c^2$$');
  });

  it('keeps text before the first element and takes the union of several boxes', () => {
    const result = parseGroundingOutput('intro\n<|ref|>text<|/ref|><|det|>[[0, 0, 10, 10], [20, 30, 40, 50]]<|/det|>\nbody', page);
    expect(result.markdown).toBe('intro\nbody');
    expect(result.elements[0]!.box).toEqual([0, 0, 80, 150]);
    expect(result.markdown.slice(...result.elements[0]!.span)).toBe('body');
  });

  it('drops malformed elements with a warning and keeps the rest', () => {
    const raw = [
      '<|ref|>text<|/ref|><|det|>[[10, 10, 20, 20]]<|/det|>',
      'good one',
      '<|ref|>text<|/ref|><|det|>[[10, 10, 2000, 20]]<|/det|>',
      'out of range',
      '<|ref|>text<|/ref|><|det|>[[10, 10, oops]]<|/det|>',
      'not numbers',
      '<|ref|>table<|/ref|><|det|>[[10, 10, 20, 20]',
      'unclosed det',
      '<|ref|>text',
      'unclosed ref',
      '<|ref|>text<|/ref|><|det|>[[30, 10, 20, 20]]<|/det|>',
      'swapped',
      '<|ref|>footer<|/ref|><|det|>[[0, 950, 999, 999]]<|/det|>',
      'page 1',
    ].join('\n');
    const result = parseGroundingOutput(raw, page);
    expect(result.elements.map((e) => e.kind)).toEqual(['text', 'footer']);
    expect(result.warnings).toHaveLength(5);
    expect(result.warnings.join('\n')).toMatch(/outside 0–999/);
    expect(result.warnings.join('\n')).toMatch(/unclosed <\|det\|>/);
    expect(result.warnings.join('\n')).toMatch(/unclosed <\|ref\|>/);
    expect(result.warnings.join('\n')).toMatch(/swapped/);
    for (const text of ['good one', 'out of range', 'not numbers', 'unclosed det', 'unclosed ref', 'swapped', 'page 1']) {
      expect(result.markdown).toContain(text);
    }
    expect(result.markdown).not.toMatch(/<\|(\/)?(ref|det)\|>/);
    const footer = result.elements[1]!;
    expect(result.markdown.slice(...footer.span)).toBe('page 1');
  });

  it('maps unknown labels to other and sub_title to a level-2 heading', () => {
    const result = parseGroundingOutput('<|ref|>sub_title<|/ref|><|det|>[[0,0,1,1]]<|/det|>\nTerms\n<|ref|>stamp<|/ref|><|det|>[[0,0,1,1]]<|/det|>\nPAID', page);
    expect(result.elements.map((e) => [e.kind, e.level])).toEqual([
      ['heading', 2],
      ['other', undefined],
    ]);
  });

  it('returns plain text unchanged when there is no grounding', () => {
    expect(parseGroundingOutput('just text', page)).toEqual({ markdown: 'just text', elements: [], warnings: [] });
  });
});

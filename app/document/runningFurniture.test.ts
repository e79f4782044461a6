import { describe, expect, it } from 'vitest';
import type { Element, Extraction } from '../model/extraction.js';
import { findRunningFurniture, markRunningFurniture, withFurniture } from './runningFurniture.js';

const WIDTH = 1000;
const HEIGHT = 1400;

/** A page of blocks laid out top to bottom; each block is [text, y1, y2] (x from 100 to 900). */
function page(blocks: [string, number, number][]): Extraction {
  let markdown = '';
  const elements: Element[] = blocks.map(([text, y1, y2], i) => {
    if (markdown) markdown += '\n\n';
    const start = markdown.length;
    markdown += text;
    return { id: `b${i + 1}`, kind: text.startsWith('#') ? 'heading' : 'text', box: [100, y1, 900, y2], span: [start, markdown.length], confidence: 1, ...(text.startsWith('#') ? { level: 2 } : {}) };
  });
  return {
    markdown,
    elements,
    page: { width: WIDTH, height: HEIGHT },
    engine: { id: 't', name: 't', version: '0', packSha256: null, licence: null, provider: null, settings: {} },
    stats: { durationMs: 0 },
    warnings: [],
  };
}

/** The checks of extractionChecks.elementProblems that concern spans: content spans tile the Markdown, furniture spans are empty. */
function spanProblems(extraction: Extraction): string[] {
  const furniture = new Set(['header', 'footer', 'page-number']);
  const problems: string[] = [];
  for (const e of extraction.elements) if (furniture.has(e.kind) && e.span[0] !== e.span[1]) problems.push(`${e.id} furniture with text`);
  const content = extraction.elements.filter((e) => !furniture.has(e.kind));
  if (content.map((e) => extraction.markdown.slice(...e.span)).join('\n\n') !== extraction.markdown) problems.push('spans do not tile');
  for (const e of extraction.elements) if (e.span[0] > extraction.markdown.length || e.span[1] > extraction.markdown.length) problems.push(`${e.id} span past the end`);
  return problems;
}

const body = (n: number): [string, number, number][] => [
  [`Body paragraph one of page ${n}, long enough to be prose.`, 300, 400],
  [`Body paragraph two of page ${n}.`, 420, 500],
];

describe('markRunningFurniture', () => {
  it('turns a repeated running header and "Page N of M" footer into furniture on every page', () => {
    const pages = [1, 2, 3].map((n) =>
      page([['Journal of Repeated Lines — Vol. 3', 40, 70], ...body(n), [`Page ${n} of 3`, 1340, 1365]]),
    );
    const out = markRunningFurniture(pages);
    out.forEach((extraction, i) => {
      expect(extraction.elements.map((e) => e.kind)).toEqual(['header', 'text', 'text', 'page-number']);
      expect(extraction.markdown).toBe(`Body paragraph one of page ${i + 1}, long enough to be prose.\n\nBody paragraph two of page ${i + 1}.`);
      expect(spanProblems(extraction)).toEqual([]);
      expect(extraction.fields?.pageFurniture).toEqual([
        { id: 'b1', kind: 'header', text: 'Journal of Repeated Lines — Vol. 3' },
        { id: 'b4', kind: 'page-number', text: `Page ${i + 1} of 3` },
      ]);
    });
  });

  it('finds a footer that shifts a little and one with OCR noise, on pages of any parity', () => {
    const footer = ['ACME GmbH · Hauptstraße 1 · 10115 Berlin · HRB 12345', 'ACME GmbH · Hauptstrasse 1 · 10115 Berlin · HRB 12345', 'ACME GmbH · Hauptstraße 1 · 10115 Berl1n · HRB 12345'];
    const pages = footer.map((text, i) => page([...body(i + 1), [text, 1300 + i * 4, 1330 + i * 4]]));
    const marks = findRunningFurniture(pages);
    expect([0, 1, 2].map((p) => marks.get(p)?.get('b3')?.kind)).toEqual(['footer', 'footer', 'footer']);
  });

  it('leaves lines that do not repeat, repeat elsewhere on the page, or sit in the body', () => {
    const pages = [1, 2, 3].map((n) =>
      page([
        [`Chapter ${n * 7} begins`, 40, 70], // numbers that do not advance with the page
        ...body(n),
        ['Repeated in the middle of the page', 700, 730], // not near an edge
        [n === 2 ? 'A different footer' : 'Footer of pages one and three only', 1340, 1365],
      ]),
    );
    // Three pages: a line must be on at least two. Pages 1 and 3 share the footer; the chapter lines do not match.
    const marks = findRunningFurniture(pages);
    expect(marks.get(0)?.get('b1')).toBeUndefined();
    expect(marks.get(0)?.get('b4')).toBeUndefined();
    expect(marks.get(0)?.get('b5')?.kind).toBe('footer');
    expect(marks.get(1)?.get('b5')).toBeUndefined();
    expect(marks.get(2)?.get('b5')?.kind).toBe('footer');
  });

  it('does not take equal bare numbers for page numbers, and needs three pages in a long document', () => {
    const figures = [1, 2, 3, 4].map((n) => page([...body(n), ['16', 1340, 1365]]));
    expect(findRunningFurniture(figures).size).toBe(0);
    const numbered = [1, 2, 3, 4].map((n) => page([...body(n), [`${n + 10}`, 1340, 1365]]));
    expect(findRunningFurniture(numbered).get(3)?.get('b3')?.kind).toBe('page-number');
    // Six pages, a line on only two of them: coincidence, not furniture.
    const long = [1, 2, 3, 4, 5, 6].map((n) => page([...body(n), [n <= 2 ? 'Figure 3: aligned by chance' : ['Results differ', 'A method is shown', 'Related work', 'Conclusions'][n - 3]!, 1340, 1365]]));
    expect(findRunningFurniture(long).size).toBe(0);
  });

  it('takes a number that follows the page for a page number only where the line names a page or is a long title', () => {
    const titles = [1, 2, 3].map((n) => page([[`Chapter ${n}`, 40, 70], ...body(n), [`- ${n} -`, 1340, 1365]]));
    const marks = findRunningFurniture(titles);
    expect(marks.get(1)?.get('b1')).toBeUndefined(); // "Chapter 2" is the page's title
    expect(marks.get(1)?.get('b4')?.kind).toBe('page-number');
    const running = [1, 2, 3].map((n) => page([[`Journal of Repeated Examples · ${n + 16}`, 40, 70], ...body(n), [`Seite ${n}`, 1340, 1365]]));
    const found = findRunningFurniture(running);
    expect([found.get(1)?.get('b1')?.kind, found.get(1)?.get('b4')?.kind]).toEqual(['header', 'page-number']);
  });

  it('returns single pages and pages without repeats unchanged', () => {
    const one = [page([['Only page header', 40, 70], ...body(1)])];
    expect(markRunningFurniture(one)[0]).toBe(one[0]);
    const two = [page(body(1)), page(body(2))];
    const out = markRunningFurniture(two);
    expect(out[0]).toBe(two[0]);
    expect(out[1]).toBe(two[1]);
  });
});

describe('withFurniture', () => {
  it('cuts the first, a middle and the last block and keeps the other spans exact', () => {
    const extraction = page([['# Head', 40, 70], ['Middle one', 300, 330], ['Cut me', 400, 430], ['Middle two', 500, 530], ['Tail', 1340, 1365]]);
    extraction.elements.push({ id: 'pn', kind: 'page-number', box: [900, 1370, 920, 1390], span: [extraction.markdown.length, extraction.markdown.length], confidence: 1 });
    const out = withFurniture(
      extraction,
      new Map([
        ['b1', { kind: 'header' as const, text: 'Head' }],
        ['b3', { kind: 'footer' as const, text: 'Cut me' }],
        ['b5', { kind: 'footer' as const, text: 'Tail' }],
      ]),
    );
    expect(out.markdown).toBe('Middle one\n\nMiddle two');
    expect(spanProblems(out)).toEqual([]);
    expect(out.elements.find((e) => e.id === 'b1')).toMatchObject({ kind: 'header', span: [0, 0] });
    expect(out.elements.find((e) => e.id === 'b1')!.level).toBeUndefined();
    expect(out.elements.find((e) => e.id === 'pn')!.span).toEqual([out.markdown.length, out.markdown.length]);
    expect(extraction.markdown).toContain('Cut me'); // the input is not changed
  });

  it('can empty a page', () => {
    const out = withFurniture(page([['Alone', 1340, 1365]]), new Map([['b1', { kind: 'footer' as const, text: 'Alone' }]]));
    expect(out.markdown).toBe('');
    expect(out.elements[0]!.span).toEqual([0, 0]);
  });
});

describe('pages read earlier as context', () => {
  it('matches a line against furniture already marked on other pages, which stays as it is', () => {
    const earlier = withFurniture(page([['ACME Annual Report', 40, 70], ...body(1)]), new Map([['b1', { kind: 'header' as const, text: 'ACME Annual Report' }]]));
    const reread = page([['ACME Annual Report', 40, 70], ...body(2)]);
    const [first, second] = markRunningFurniture([earlier, reread]);
    expect(first).toBe(earlier);
    expect(second!.elements[0]!.kind).toBe('header');
    expect(second!.markdown).not.toContain('ACME');
  });
});

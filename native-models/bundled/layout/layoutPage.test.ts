import { describe, expect, it } from 'vitest';
import type { Box } from '../../../app/model/extraction.js';
import type { LayoutWord } from './layoutTypes.js';
import { layoutBlocks, layoutPage } from './layoutPage.js';
import { escapeInline } from './renderMarkdown.js';
import { line } from '../../../testing/syntheticWords.js';

const page = { source: 'text-layer' as const, pageHeight: 2000 };

/** The ruling lines of a grid through the given x and y positions. */
function gridRules(xs: number[], ys: number[]): Box[] {
  return [
    ...xs.map((x): Box => [x, ys[0], x + 1, ys.at(-1)!]),
    ...ys.map((y): Box => [xs[0], y, xs.at(-1)!, y + 1]),
  ];
}

/** A ruled 4-column item table at x 600–1180, y 155–275 (header and 3 rows), and its rulings. */
function itemTableWords(): LayoutWord[] {
  const xs = [600, 800, 950, 1100];
  const rows = [['Item', 'Qty', 'Price', 'Amount'], ['Disk', '2', '1.00', '2.00'], ['Mail', '1', '0.50', '0.50'], ['Sync', '3', '1.50', '4.50']];
  return rows.flatMap((cells, r) => cells.flatMap((text, c) => line(text, xs[c]!, 175 + 30 * r)));
}
const itemTableRules = gridRules([590, 790, 940, 1090, 1180], [155, 185, 215, 245, 275]);

/** Each block's text, rows joined by " / ", a table as "TABLE". */
function blockTexts(words: LayoutWord[], options: Parameters<typeof layoutBlocks>[1]): string[] {
  return layoutBlocks(words, options).map((b) => (b.table ? 'TABLE' : b.rows.map((r) => r.segments.flatMap((s) => s.words.map((w) => w.text)).join(' ')).join(' / ')));
}

describe('layoutPage', () => {
  it('reads two columns of prose column by column, under a full-width title', () => {
    const words = [...line('A Study of Columns', 100, 100, 40)];
    const left = ['left one is a line of prose', 'left two is a line of prose', 'left three is a line here', 'left four ends it'];
    const right = ['right one is a line of prose', 'right two is a line of prose', 'right three is a line here', 'right four ends it'];
    left.forEach((text, i) => words.push(...line(text, 100, 200 + i * 26)));
    right.forEach((text, i) => words.push(...line(text, 500, 200 + i * 26)));
    const { markdown } = layoutPage(words, page);
    expect(markdown).toBe(`# A Study of Columns\n\n${left.join('\n')}\n\n${right.join('\n')}`);
  });

  it('reads label/value pairs and table rows row by row, not column by column', () => {
    const words = [
      ...line('Invoice number:', 600, 100),
      ...line('NW-1', 900, 100),
      ...line('Invoice date:', 600, 126),
      ...line('March 3', 900, 126),
      ...line('Subtotal', 600, 152),
      ...line('$10.00', 900, 152),
    ];
    const { markdown } = layoutPage(words, page);
    expect(markdown).toBe('Invoice number: NW-1\nInvoice date: March 3\nSubtotal \\$10.00');
  });

  it('reads label/value lines beside a table as one column, after the title set above the table', () => {
    const words = [
      ...line('Service Invoice', 600, 100, 40),
      ...line('Questions? Write to us at the address below', 600, 135),
      ...line('Account number:', 100, 165),
      ...line('2966 6403', 100, 200, 30),
      ...line('Bill to:', 100, 240),
      ...line('Jane Doe', 100, 266),
      ...itemTableWords(),
    ];
    const texts = blockTexts(words, { ...page, rulings: itemTableRules });
    expect(texts).toEqual(['Service Invoice', 'Questions? Write to us at the address below', 'Account number:', '2966 6403', 'Bill to: / Jane Doe', 'TABLE']);
  });

  it('reads a title set above the table before the column beside it, even when a logo on that side starts higher', () => {
    const words = [
      ...line('acme', 100, 80, 36),
      ...line('Service Invoice', 600, 100, 40),
      ...line('Questions? Write to us at the address below', 600, 145),
      ...line('Account number:', 100, 165),
      ...line('2966 6403', 100, 200),
      ...line('Bill to:', 100, 240),
      ...line('Jane Doe', 100, 266),
      ...itemTableWords(),
    ];
    const texts = blockTexts(words, { ...page, rulings: itemTableRules });
    expect(texts.indexOf('Service Invoice')).toBeLessThan(texts.findIndex((t) => t.startsWith('Account number:')));
    expect(texts.indexOf('acme')).toBe(0);
    expect(texts.at(-1)).toBe('TABLE');
  });

  it('keeps a page number in the margin beside a table out of the column rule', () => {
    const xs = [300, 500, 650, 800];
    const words = [
      ...[['Item', 'Qty', 'Price', 'Amount'], ['Disk', '2', '1.00', '2.00'], ['Mail', '1', '0.50', '0.50'], ['Sync', '3', '1.50', '4.50']].flatMap((cells, r) =>
        cells.flatMap((text, c) => line(text, xs[c], 300 + 30 * r)),
      ),
      ...line('Notes follow the table here.', 300, 500),
      ...line('54', 100, 360),
    ];
    const blocks = layoutBlocks(words, { ...page, rulings: gridRules([290, 490, 640, 790, 880], [280, 310, 340, 370, 400]) });
    expect(blocks.map((b) => (b.table ? 'TABLE' : b.rows[0].segments[0].words[0].text))).toEqual(['TABLE', '54', 'Notes']);
  });

  it('separates paragraphs at wide gaps and makes large short lines headings, levels by size', () => {
    const words = [
      ...line('Big Title', 100, 100, 48),
      ...line('Section heading', 100, 200, 30),
      ...line('first paragraph line one', 100, 260),
      ...line('first paragraph line two', 100, 286),
      ...line('second paragraph after a gap', 100, 360),
      ...line('more body text to make it the body', 100, 386),
    ];
    const blocks = layoutBlocks(words, page);
    expect(blocks.map((b) => [b.kind, b.level])).toEqual([
      ['title', 1],
      ['heading', 2],
      ['text', undefined],
      ['text', undefined],
    ]);
  });

  it('gives each element the exact span of its block and the box of its words', () => {
    const words = [
      ...line('Heading Here', 100, 100, 40),
      ...line('Total $4.11 *net*', 100, 200),
      ...line('# not a heading', 100, 300),
      ...line('7', 1000, 1950),
    ];
    const { markdown, elements } = layoutPage(words, page);
    expect(elements.map((e) => e.kind)).toEqual(['title', 'text', 'text', 'page-number']);
    expect(elements.map((e) => markdown.slice(...e.span))).toEqual([
      '# Heading Here',
      'Total \\$4.11 \\*net\\*',
      '\\# not a heading',
      '', // the page number is kept out of the Markdown: an empty span at the end
    ]);
    expect(elements[3].span).toEqual([markdown.length, markdown.length]);
    expect(elements.slice(0, 3).map((e) => markdown.slice(...e.span)).join('\n\n')).toBe(markdown);
    expect(elements[0].box).toEqual([100, 68, words[1].box[2], 108]);
    expect(elements[1].confidence).toBe(1);
  });

  it('keeps the lines an OCR engine found, even on a skewed page', () => {
    // Two lines drawn with a 2% slope: by plain overlap the right end of line one would meet line two.
    const skewed = (text: string, y: number, key: string): LayoutWord[] =>
      line(text, 100, y, 20, { lineKey: key, confidence: 0.8 }).map((word) => {
        const lift = (word.box[0] - 100) * 0.02;
        return { ...word, box: [word.box[0], word.box[1] + lift, word.box[2], word.box[3] + lift] };
      });
    const words = [...skewed('alpha beta gamma delta epsilon zeta eta theta', 100, 'a'), ...skewed('one two three four five six', 124, 'b')];
    const { markdown, elements } = layoutPage(words, { source: 'ocr', pageHeight: 2000 });
    expect(markdown).toBe('alpha beta gamma delta epsilon zeta eta theta\none two three four five six');
    expect(elements[0].confidence).toBeCloseTo(0.8, 5);
  });

  it('returns an empty page for no words', () => {
    expect(layoutPage([], page)).toEqual({ markdown: '', elements: [], furniture: [] });
  });
});

describe('page furniture and lists', () => {
  it('keeps a running header, a footer and the page number out of the Markdown, as their own elements', () => {
    const words = [
      ...line('Journal of Examples | Volume 3', 100, 80, 14),
      ...line('A body paragraph starts here and runs', 100, 300),
      ...line('on for another line of body text.', 100, 326),
      ...line('A second paragraph follows after a gap.', 100, 420),
      ...line('www.example.org | March 2014', 100, 1940, 14),
      ...line('12', 1000, 1940, 14),
    ];
    const { markdown, elements, furniture } = layoutPage(words, page);
    expect(markdown).toBe('A body paragraph starts here and runs\non for another line of body text.\n\nA second paragraph follows after a gap.');
    expect(elements.map((e) => e.kind)).toEqual(['header', 'text', 'text', 'footer']);
    expect(furniture.map((f) => f.text)).toEqual(['Journal of Examples | Volume 3', 'www.example.org | March 2014 12']);
  });

  it('writes bulleted lines as a Markdown list and keeps numbered items as an ordered list', () => {
    const words = [
      ...line('Intro line of the page.', 100, 300),
      ...line('• first point', 100, 360),
      ...line('• second point', 100, 386),
      ...line('150. An exercise', 100, 460),
    ];
    const { markdown, elements } = layoutPage(words, page);
    expect(markdown).toBe('Intro line of the page.\n\n- first point\n- second point\n\n150. An exercise');
    expect(elements.map((e) => e.kind)).toEqual(['text', 'list', 'list']);
  });
});

describe('escapeInline', () => {
  it('escapes what would turn into emphasis, code, math or HTML', () => {
    expect(escapeInline('a_b *c* `d` $1 <b> 3 < 4 \\')).toBe('a\\_b \\*c\\* \\`d\\` \\$1 \\<b> 3 < 4 \\\\');
  });
});

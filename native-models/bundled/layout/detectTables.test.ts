import { describe, expect, it } from 'vitest';
import { parseHtmlTables } from '../../../app/tables/index.js';
import type { LayoutWord } from './layoutTypes.js';
import { layoutPage } from './layoutPage.js';

/** Words of `text` from (x, baseline y), `size` px, 0.5 em per character, 0.3 em spaces. */
function line(text: string, x: number, y: number, size = 20): LayoutWord[] {
  const words: LayoutWord[] = [];
  let cursor = x;
  for (const piece of text.split(' ')) {
    const width = piece.length * size * 0.5;
    words.push({ text: piece, box: [cursor, y - size * 0.8, cursor + width, y + size * 0.2], confidence: 1, fontSize: size });
    cursor += width + size * 0.3;
  }
  return words;
}

/** A row of cells at the given x positions. */
function row(cells: string[], xs: number[], y: number): LayoutWord[] {
  return cells.flatMap((text, i) => (text ? line(text, xs[i], y) : []));
}

/** Page furniture bands are the top and bottom 7.5%: the content here starts well below. */
const page = { source: 'text-layer' as const, pageHeight: 1000 };

describe('table detection from alignment', () => {
  it('rebuilds a table with a header row between paragraphs, as HTML with the cells in their slots', () => {
    const xs = [100, 500, 700, 900];
    const words = [
      ...line('Results of the survey are below.', 100, 100),
      ...row(['Region', 'Sales', 'Costs', 'Margin'], xs, 200),
      ...row(['North', '1,200', '800', '400'], xs, 240),
      ...row(['South', '950', '700', '250'], xs, 280),
      ...row(['East', '1,010', '–', '12%'], xs, 320),
      ...line('Figures are in thousands of euros.', 100, 420),
    ];
    const { markdown, elements } = layoutPage(words, page);
    expect(elements.map((e) => e.kind)).toEqual(['text', 'table', 'text']);
    const [grid] = parseHtmlTables(markdown);
    expect([grid.rowCount, grid.colCount, grid.headerRowCount]).toEqual([4, 4, 1]);
    expect(grid.cells.map((c) => c.text)).toEqual(['Region', 'Sales', 'Costs', 'Margin', 'North', '1,200', '800', '400', 'South', '950', '700', '250', 'East', '1,010', '–', '12%']);
    const table = elements[1];
    expect(table.cells).toHaveLength(16);
    expect(table.cells![5]).toMatchObject({ row: 1, col: 1, rowspan: 1, colspan: 1, header: false });
    // Each cell's box holds its words: "1,200" starts at x = 500.
    expect(table.cells![5].box[0]).toBe(500);
    expect(markdown.slice(...table.span).startsWith('<table>')).toBe(true);
  });

  it('gives a header that spans two columns a colspan, keeps the sub-headings, and joins wrapped cells', () => {
    const xs = [100, 500, 700, 900];
    const words = [
      ...row(['', 'Threshold for releases', ''], [100, 560, 900], 200).filter((w) => w.text !== ''),
      ...row(['Pollutant', 'to air', 'to water', 'to land'], xs, 240),
      ...row(['Methane (CH4)', '100 000', '-', '-'], xs, 290),
      ...row(['Chlorine and inorganic', '10 000', '-', '-'], xs, 340),
      ...line('compounds (as HCl)', 100, 362),
      ...row(['Halons', '1', '-', '-'], xs, 410),
    ];
    const { markdown } = layoutPage(words, page);
    const [grid] = parseHtmlTables(markdown);
    expect(grid.headerRowCount).toBe(2);
    const spanning = grid.cells.find((c) => c.text === 'Threshold for releases')!;
    expect(spanning).toMatchObject({ row: 0, col: 1, colspan: 2 });
    expect(grid.cells.find((c) => c.text.startsWith('Chlorine'))!.text).toBe('Chlorine and inorganic compounds (as HCl)');
    expect(grid.rowCount).toBe(5);
  });

  it('leaves prose, label/value pairs and a two-column paper as text', () => {
    const labels = [
      ...row(['Invoice number:', 'NW-1'], [600, 900], 100),
      ...row(['Invoice date:', 'March 3'], [600, 900], 126),
      ...row(['Subtotal', '$10.00'], [600, 900], 152),
    ];
    expect(layoutPage(labels, page).elements.map((e) => e.kind)).toEqual(['text']);
    const paper: LayoutWord[] = [];
    for (let i = 0; i < 8; i++) {
      paper.push(...line('left column prose runs on for a while here', 100, 200 + 26 * i));
      paper.push(...line('right column prose runs on for a while too', 600, 200 + 26 * i));
    }
    expect(layoutPage(paper, page).elements.map((e) => e.kind)).toEqual(['text', 'text']);
  });

  it('can be turned off', () => {
    const xs = [100, 500, 700, 900];
    const words = [0, 1, 2, 3].flatMap((i) => row([`Item ${i}`, `${i}`, `${i * 2}.00`, `${i * 3}.50`], xs, 200 + 40 * i));
    expect(layoutPage(words, page).elements.map((e) => e.kind)).toEqual(['table']);
    expect(layoutPage(words, { ...page, tables: false }).elements.map((e) => e.kind)).not.toContain('table');
  });
});

import { describe, expect, it } from 'vitest';
import { parseHtmlTables } from '../../../app/tables/index.js';
import type { LayoutWord } from './layoutTypes.js';
import { isNumericText } from './detectTables.js';
import { layoutPage } from './layoutPage.js';
import { line } from '../../../testing/syntheticWords.js';

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

/** A horizontal rule across [x1, x2] at y. */
const rule = (y: number, x1: number, x2: number): [number, number, number, number] => [x1, y - 0.5, x2, y + 0.5];

describe('tables between horizontal rules only', () => {
  const xs = [100, 300, 600, 800];

  it('keeps a booktabs table whole across a long cell, with the header closed by the rule under it', () => {
    const words = [
      ...line('Table 2: Results by topic and difficulty of the tasks we ran in the study.', 100, 80),
      ...row(['Topic', 'Task', 'Score', 'Steps'], xs, 140),
      ...row(['Proteomics', 'Clustering', '0.87', '12'], xs, 200),
      ...row(['Chemistry', 'Mixing', '0.82', '30'], xs, 230),
      ...row(['Translation', 'Rosetta-stone style discovery of an alien language', '', ''], [100, 300], 260),
      ...row(['Nouns', 'Single noun', '0.40', '8'], xs, 290),
      ...row(['Verbs', 'Noun and verb', '0.20', '15'], xs, 320),
    ];
    const rulings = [rule(110, 100, 900), rule(160, 100, 900), rule(340, 100, 900)];
    const { markdown, elements } = layoutPage(words, { ...page, rulings });
    expect(elements.map((e) => e.kind)).toEqual(['text', 'table']);
    const [grid] = parseHtmlTables(markdown);
    expect([grid.rowCount, grid.headerRowCount]).toEqual([6, 1]);
    expect(grid.cells.find((c) => c.text.startsWith('Rosetta'))).toMatchObject({ row: 3, col: 1 });
  });

  it('does not make a table of an address block between a page-header rule and a table', () => {
    const words = [
      ...line('Azure Interior', 100, 140),
      ...line('4557 De Silva St', 100, 166),
      ...line('Fremont CA 94538', 100, 192),
      ...line('YourCompany, Mitchell Admin', 600, 260),
      ...line('215 Vine St', 600, 286),
      ...line('Scranton PA 18503', 600, 312),
      ...row(['Description', 'Quantity', 'Price', 'Amount'], xs, 400),
      ...row(['Beeswax', '1.00', '42.00', '42.00'], xs, 440),
      ...row(['Office Chair', '1.00', '70.00', '70.00'], xs, 480),
    ];
    const rulings = [rule(110, 100, 950), rule(375, 100, 950), rule(410, 100, 950), rule(450, 100, 950), rule(490, 100, 950)];
    const { markdown } = layoutPage(words, { ...page, rulings });
    const tables = parseHtmlTables(markdown);
    expect(tables).toHaveLength(1);
    expect(tables[0].cells[0].text).toBe('Description');
    expect(markdown).toContain('Azure Interior');
    expect(markdown.indexOf('Azure Interior')).toBeLessThan(markdown.indexOf('<table>'));
  });

  describe('header set above the first rule', () => {
    const table = [
      ...row(['Description', 'Quantity', 'Price', 'Amount'], xs, 400),
      ...row(['Beeswax', '1.00', '42.00', '42.00'], xs, 440),
      ...row(['Office Chair', '1.00', '70.00', '70.00'], xs, 480),
    ];
    const rulings = [rule(410, 100, 950), rule(450, 100, 950), rule(490, 100, 950)];

    it('takes the row just above the first rule as the header', () => {
      const [grid] = parseHtmlTables(layoutPage(table, { ...page, rulings }).markdown);
      expect([grid.rowCount, grid.headerRowCount, grid.cells[0].text]).toEqual([3, 1, 'Description']);
    });

    // A line cut in two at a wide space: two pieces starting in one column, or a long phrase over several columns.
    const lines = {
      'a seller line': [...line('Sold By :', 100, 374), ...line('WS Retail Services Pvt. Ltd.,', 210, 374)],
      'an address line': [...line('Warehouse Address:', 100, 374), ...line('No. 42/1 & 43, Kacherakanahalli Village, Hoskote, Bangalore', 330, 374)],
    };
    for (const [name, words] of Object.entries(lines)) {
      it(`leaves ${name} set above the header out of the table`, () => {
        const { markdown } = layoutPage([...words, ...table], { ...page, rulings });
        const tables = parseHtmlTables(markdown);
        expect(tables).toHaveLength(1);
        expect([tables[0].rowCount, tables[0].headerRowCount, tables[0].cells[0].text]).toEqual([3, 1, 'Description']);
        expect(markdown.indexOf(words[0].text)).toBeLessThan(markdown.indexOf('<table>'));
      });
    }
  });

  it('takes no evidence from the lines of ruled notepaper', () => {
    const lines = Array.from({ length: 14 }, (_, i) => rule(100 + 50 * i, 50, 950));
    const words = [
      ...row(['Pick', 'arch like OLMo'], [120, 420], 140),
      ...row(['or', 'replicate a model'], [120, 420], 190),
      ...row(['Follow', 'the LR flow'], [120, 420], 240),
    ];
    expect(layoutPage(words, { ...page, rulings: lines }).elements.map((e) => e.kind)).not.toContain('table');
  });
});

describe('column finding', () => {
  it('keeps the gutter of the full rows although section labels run across it', () => {
    const xs = [100, 160, 400, 700, 850];
    const words: LayoutWord[] = [];
    let y = 100;
    for (const [section, task] of [['Proteomics', 'Clustering'], ['Chemistry', 'Combinations'], ['Archaeology', 'Correlations']]) {
      words.push(...row([section, '', task], [100, 160, 400], y));
      y += 30;
      for (const level of ['Easy', 'Normal', 'Challenge']) {
        words.push(...row([String(y % 97), level, `${task} ${level}`, '0.87', '0.20'], xs, y));
        y += 30;
      }
    }
    const { markdown } = layoutPage(words, page);
    const [grid] = parseHtmlTables(markdown);
    expect(grid.colCount).toBe(5);
    expect(grid.cells.find((c) => c.text === 'Challenge')).toMatchObject({ col: 1 });
    expect(grid.cells.find((c) => c.text === 'Chemistry')).toMatchObject({ col: 0, colspan: 2 });
  });

  it('places headings set at 45° by where their text starts', () => {
    const xs = [100, 400, 500, 600];
    const words: LayoutWord[] = [...row(['Topic'], [100], 200)];
    // Rotated headings: upright boxes 60 px tall and wide, starting over their column.
    for (const [i, text] of ['Procedure', 'Completion', 'Knowledge'].entries()) {
      words.push({ text, box: [xs[i + 1], 140, xs[i + 1] + 60, 200], confidence: 1, fontSize: 20 });
    }
    for (let r = 0; r < 4; r++) words.push(...row([`Task ${r}`, '0.87', '0.40', '1.00'], xs, 240 + 30 * r));
    const { markdown } = layoutPage(words, page);
    const [grid] = parseHtmlTables(markdown);
    expect(grid.cells.filter((c) => c.row === 0).map((c) => c.text)).toEqual(['Topic', 'Procedure', 'Completion', 'Knowledge']);
    expect(grid.cells.find((c) => c.text === 'Completion')!.header).toBe(true);
  });
});

describe('two-column tables without rules', () => {
  it('makes a table of a heading over rows of a label and a number, and leaves label/value lines as text', () => {
    const countries = ['Algeria 6.19', 'Egypt 6.60', 'Jordan 4.20', 'Lebanon 2.57', 'Morocco 21.09', 'Total 98.46'];
    const list = [
      ...row(['FEMIP Country', 'Signed TA (EURm)'], [100, 500], 100),
      ...countries.flatMap((pair, i) => row(pair.split(' '), [100, 500], 130 + 30 * i)),
    ];
    const [grid] = parseHtmlTables(layoutPage(list, page).markdown);
    expect([grid.rowCount, grid.colCount, grid.headerRowCount]).toEqual([7, 2, 1]);
    // Totals of an invoice: no heading row over them.
    const totals = ['Subtotal 112.00', 'Discount 0.00', 'Shipping 5.00', 'Tax 16.94', 'Total 133.94'].flatMap((pair, i) => row(pair.split(' '), [600, 900], 100 + 26 * i));
    expect(layoutPage(totals, page).elements.map((e) => e.kind)).not.toContain('table');
  });

  it('counts a number with its share in brackets as a number', () => {
    expect(isNumericText('1269 (19.9%)')).toBe(true);
    expect(isNumericText('101(20.4%)')).toBe(true);
    expect(isNumericText('Table (2)')).toBe(false);
  });
});

describe('unruled tables side by side', () => {
  it('keeps two tables set next to each other apart when each repeats the header row', () => {
    const left = [100, 300, 450];
    const right = [800, 1000, 1150];
    const words = [
      ...row(['Item', 'Qty', 'Price'], left, 200),
      // The right table starts a little higher: still read after the left one.
      ...row(['Item', 'Qty', 'Price'], right, 196),
      ...['Apples 3 1.20', 'Pears 5 0.90', 'Plums 12 2.10', 'Figs 1 3.40'].flatMap((text, i) => row(text.split(' '), left, 240 + 40 * i)),
      ...['Bread 2 2.50', 'Milk 4 1.10', 'Eggs 10 3.20'].flatMap((text, i) => row(text.split(' '), right, 240 + 40 * i)),
    ];
    const { markdown, elements } = layoutPage(words, page);
    expect(elements.map((e) => e.kind)).toEqual(['table', 'table']);
    const [first, second] = parseHtmlTables(markdown);
    expect([first.rowCount, first.colCount, first.headerRowCount]).toEqual([5, 3, 1]);
    expect([second.rowCount, second.colCount, second.headerRowCount]).toEqual([4, 3, 1]);
    expect(first.cells.map((c) => c.text).slice(3, 6)).toEqual(['Apples', '3', '1.20']);
    expect(second.cells.map((c) => c.text).slice(3, 6)).toEqual(['Bread', '2', '2.50']);
  });

  it('keeps apart two blocks of the same columns without headers (a list continued beside itself)', () => {
    const words = Array.from({ length: 6 }, (_, i) => [
      ...row([String(i + 1), String(100 + i), String(200 + i)], [100, 200, 300], 200 + 35 * i),
      ...row([String(i + 7), String(106 + i), String(206 + i)], [600, 700, 800], 200 + 35 * i),
    ]).flat();
    const tables = parseHtmlTables(layoutPage(words, page).markdown);
    expect(tables.map((t) => [t.rowCount, t.colCount])).toEqual([[6, 3], [6, 3]]);
    expect(tables[1].cells[0].text).toBe('7');
  });

  it('keeps one table whose description stands far from its numbers', () => {
    const xs = [100, 300, 800, 1000];
    const words = [
      ...row(['Description', 'Code', 'Price', 'Amount'], xs, 200),
      ...['Cable A12 1.20 3.60', 'Plug B7 0.90 4.50', 'Fuse C3 2.10 2.10', 'Lamp D9 3.40 6.80'].flatMap((text, i) => row(text.split(' '), xs, 240 + 40 * i)),
    ];
    const tables = parseHtmlTables(layoutPage(words, page).markdown);
    expect(tables.map((t) => [t.rowCount, t.colCount])).toEqual([[5, 4]]);
  });
});

import { describe, expect, it } from 'vitest';
import type { Box } from '../../../app/model/extraction.js';
import { parseHtmlTables } from '../../../app/tables/index.js';
import type { LayoutWord } from './layoutTypes.js';
import { layoutPage } from './layoutPage.js';
import { frameGrid, gridCells, mergeRulings, rulingFrames } from './rulingGrid.js';
import { line } from '../../../testing/syntheticWords.js';

const h = (y: number, x1: number, x2: number): Box => [x1, y - 0.5, x2, y + 0.5];
const v = (x: number, y1: number, y2: number): Box => [x - 0.5, y1, x + 0.5, y2];

/** The rules of a full grid: horizontals at `ys`, verticals at `xs`, each drawn across the whole grid. */
function grid(xs: number[], ys: number[]): Box[] {
  return [...ys.map((y) => h(y, xs[0], xs.at(-1)!)), ...xs.map((x) => v(x, ys[0], ys.at(-1)!))];
}

/** Words centred in the slots of a grid, row by row ('' = empty slot). */
function fill(xs: number[], ys: number[], rows: string[][]): LayoutWord[] {
  return rows.flatMap((cells, r) => cells.flatMap((text, c) => (text ? line(text, xs[c] + 10, (ys[r] + ys[r + 1]) / 2 + 8) : [])));
}

const page = { source: 'text-layer' as const, pageHeight: 2000 };

describe('ruling grid geometry', () => {
  it('merges the pieces of a line drawn cell by cell, and a double rule, into one line', () => {
    const { horizontal, vertical } = mergeRulings([h(100, 0, 50), h(100, 50, 120), h(101.5, 0, 120), v(10, 0, 40)], 3);
    expect(horizontal).toHaveLength(1);
    expect(horizontal[0]).toMatchObject({ start: 0, end: 120 });
    expect(vertical).toHaveLength(1);
  });

  it('joins slots that no line separates into one spanning cell', () => {
    // 2 × 3 grid whose first row has no line between columns 1 and 2.
    const rules = [h(0, 0, 300), h(50, 0, 300), h(100, 0, 300), v(0, 0, 100), v(100, 0, 100), v(200, 50, 100), v(300, 0, 100)];
    const { horizontal, vertical } = mergeRulings(rules, 2);
    const [frame] = rulingFrames(horizontal, vertical, 2);
    const cells = gridCells(frameGrid(frame, 2)!);
    expect(cells).toContainEqual({ row: 0, col: 1, rowspan: 1, colspan: 2 });
    expect(cells.filter((c) => c.row === 1)).toHaveLength(3);
  });
});

describe('tables from ruling lines', () => {
  const xs = [100, 400, 600, 800];
  const ys = [100, 150, 200, 250, 300];

  it('reads a ruled grid cell by cell, whatever the gaps between words, with each cell keeping its ruled box', () => {
    const rows = [
      ['', 'Number of companies', 'Share'],
      ['0 reclassifications', '52', '52%'],
      ['1 reclassification', '28', '28%'],
      ['Total', '100', ''],
    ];
    const { markdown, elements } = layoutPage(fill(xs, ys, rows), { ...page, rulings: grid(xs, ys) });
    const [table] = parseHtmlTables(markdown);
    expect([table.rowCount, table.colCount, table.headerRowCount]).toEqual([4, 3, 1]);
    expect(table.cells.map((c) => c.text)).toEqual(['', 'Number of companies', 'Share', '0 reclassifications', '52', '52%', '1 reclassification', '28', '28%', 'Total', '100', '']);
    const cell = elements.find((e) => e.kind === 'table')!.cells!.find((c) => c.row === 1 && c.col === 1)!;
    expect(cell.box).toEqual([400, 150, 600, 200]);
  });

  it('gives a cell with no line under it a rowspan, and one with no line beside it a colspan', () => {
    const rules = [
      h(100, 100, 800), h(150, 400, 800), h(200, 100, 800), h(250, 100, 800), h(300, 100, 800),
      v(100, 100, 300), v(400, 100, 300), v(600, 150, 300), v(800, 100, 300),
    ];
    const rows = [
      ['Country', 'Sales', ''],
      ['', 'North', 'South'],
      ['Austria', '12', '14'],
      ['Belgium', '9', '11'],
    ];
    const { markdown } = layoutPage(fill(xs, ys, rows), { ...page, rulings: rules });
    expect(markdown).toContain('<th rowspan="2">Country</th><th colspan="2">Sales</th>');
    const [table] = parseHtmlTables(markdown);
    expect(table.headerRowCount).toBe(2);
    expect(table.cells.find((c) => c.text === 'Austria')).toMatchObject({ row: 2, col: 0 });
  });

  it('keeps two ruled tables side by side apart', () => {
    const left = [100, 300, 400];
    const right = [500, 700, 800];
    const rows = [['Spain', '268'], ['Germany', '233'], ['France', '136'], ['Italy', '92']];
    const words = [...fill(left, ys, rows), ...fill(right, ys, rows.map(([a, b]) => [a, String(Number(b) + 1)]))];
    const { markdown } = layoutPage(words, { ...page, rulings: [...grid(left, ys), ...grid(right, ys)] });
    const tables = parseHtmlTables(markdown);
    expect(tables.map((t) => [t.rowCount, t.colCount])).toEqual([[4, 2], [4, 2]]);
  });

  it('splits body rows drawn without verticals at the columns the header rules, and stacked numbers into rows', () => {
    // Header ruled fully; the body is one box with no inner lines, one line of text per row.
    const rules = [h(100, 100, 800), h(150, 100, 800), h(330, 100, 800), v(100, 100, 330), v(800, 100, 330), v(400, 100, 150), v(600, 100, 150)];
    const words = [
      ...fill(xs, [100, 150], [['Country', 'Fund', 'Total']]),
      ...[['Bulgaria', '2.3', '5.5'], ['Cyprus', '0.21', '0.21'], ['Estonia', '1.1', '3.0'], ['Latvia', '1.5', '3.9']].flatMap((cells, i) =>
        cells.flatMap((text, c) => line(text, xs[c] + 10, 180 + 40 * i)),
      ),
    ];
    const { markdown } = layoutPage(words, { ...page, rulings: rules });
    const [table] = parseHtmlTables(markdown);
    expect([table.rowCount, table.colCount]).toEqual([5, 3]);
    expect(table.cells.filter((c) => c.row === 2).map((c) => c.text)).toEqual(['Cyprus', '0.21', '0.21']);
  });

  it('splits stacked rows even where OCR gave the first word of a line a box reaching into the next line', () => {
    const rules = [h(100, 100, 800), h(150, 100, 800), h(330, 100, 800), v(100, 100, 330), v(800, 100, 330), v(400, 100, 150), v(600, 100, 150)];
    const rows = [['Bulgaria', '2.3', '5.5'], ['Cyprus', '0.21', '0.21'], ['Estonia', '1.1', '3.0'], ['Latvia', '1.5', '3.9']];
    const body = rows.flatMap((cells, i) =>
      cells.flatMap((text, c) =>
        line(text, xs[c] + 10, 180 + 40 * i, 20).map((w) =>
          // Tesseract's box for the label: as wide as the word, twice as tall as its text, about its centre.
          c === 0 ? { ...w, box: [w.box[0], w.box[1] - 10, w.box[2], w.box[3] + 10] as Box } : w,
        ),
      ),
    );
    const { markdown } = layoutPage([...fill(xs, [100, 150], [['Country', 'Fund', 'Total']]), ...body], { source: 'ocr', pageHeight: 2000, rulings: rules });
    const [table] = parseHtmlTables(markdown);
    expect([table.rowCount, table.colCount]).toEqual([5, 3]);
    expect(table.cells.filter((c) => c.row === 3).map((c) => c.text)).toEqual(['Estonia', '1.1', '3.0']);
  });

  it('leaves a box around prose, and a form of empty boxes, as text', () => {
    const prose = [
      ...line('A framed note that runs on for a while about nothing much', 120, 140),
      ...line('and then some more words in the same frame here', 120, 170),
    ];
    const frame = [h(100, 100, 800), h(200, 100, 800), v(100, 100, 200), v(800, 100, 200), v(450, 100, 200)];
    expect(layoutPage(prose, { ...page, rulings: frame }).elements.map((e) => e.kind)).not.toContain('table');
    // A form: boxes to fill in, most of them blank.
    const formXs = [100, 250, 450, 600, 800];
    const formYs = [100, 150, 200, 250, 300, 350];
    const labels = fill(formXs, formYs, [['Name:', '', 'First name:', ''], ['Street:', '', 'Town:', ''], ['Date:', '', '', ''], ['Place:', '', '', ''], ['Signature:', '', '', '']]);
    expect(layoutPage(labels, { ...page, rulings: grid(formXs, formYs) }).elements.map((e) => e.kind)).not.toContain('table');
  });

  it('takes a page of graph paper for a drawing, not tables', () => {
    const lines = Array.from({ length: 2000 }, (_, i) => i * 5);
    const rules = [...lines.map((y) => h(y, 0, 10_000)), ...lines.map((x) => v(x, 0, 10_000))];
    const words = [...line('Sketch of the floor plan', 120, 140), ...line('Kitchen 12 m2', 120, 400), ...line('Hall 8 m2', 620, 400)];
    expect(layoutPage(words, { ...page, rulings: rules }).elements.map((e) => e.kind)).not.toContain('table');
  });
});

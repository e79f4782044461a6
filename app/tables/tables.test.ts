import { describe, expect, it } from 'vitest';
import { cellAt, gridFromTopLeft, gridToHtml, parseHtmlTables, parseLenientPipeTables, parsePipeTables, parseTables, toTopLeftGrid } from './index.js';

describe('HTML tables', () => {
  it('places rowspan/colspan cells and keeps spanning text in the top-left slot', () => {
    const [grid] = parseHtmlTables(`
      <table><thead><tr><th rowspan="2">Name</th><th colspan="2">Score</th></tr>
      <tr><th>A</th><th>B</th></tr></thead>
      <tbody><tr><td>x</td><td>1</td><td>2</td></tr><tr><td>y &amp; z</td><td colspan="2">n/a</td></tr></tbody></table>`);
    expect(grid).toBeDefined();
    expect(grid!.rowCount).toBe(4);
    expect(grid!.colCount).toBe(3);
    expect(grid!.headerRowCount).toBe(2);
    expect(toTopLeftGrid(grid!)).toEqual([
      ['Name', 'Score', ''],
      ['', 'A', 'B'],
      ['x', '1', '2'],
      ['y & z', 'n/a', ''],
    ]);
    expect(cellAt(grid!, 1, 0)!.text).toBe('Name');
    expect(cellAt(grid!, 0, 2)!.text).toBe('Score');
    expect(cellAt(grid!, 3, 2)!.colspan).toBe(2);
  });

  it('treats <th> in body rows as header cells but not as header rows, and handles implied end tags', () => {
    const [grid] = parseHtmlTables('<table><tr><th>k<td>v<tr><th>k2<td>v2</table>');
    expect(toTopLeftGrid(grid!)).toEqual([
      ['k', 'v'],
      ['k2', 'v2'],
    ]);
    expect(grid!.headerRowCount).toBe(0);
    expect(grid!.cells[0]!.header).toBe(true);
    expect(grid!.cells[1]!.header).toBe(false);
  });

  it('clamps a rowspan that runs past the last row and marks ragged slots as uncovered', () => {
    const [grid] = parseHtmlTables('<table><tr><td rowspan="5">a</td><td>b</td><td>c</td></tr><tr><td>d</td></tr></table>');
    expect(grid!.cells[0]!.rowspan).toBe(2);
    expect(grid!.slots[1]).toEqual([0, 3, -1]);
  });

  it('finds nested tables as separate grids and converts <br> to a space', () => {
    const grids = parseHtmlTables('<table><tr><td>a<br>b</td><td><table><tr><td>in</td></tr></table></td></tr></table>');
    expect(grids).toHaveLength(2);
    expect(grids[0]!.cells[0]!.text).toBe('a b');
    expect(grids[1]!.cells[0]!.text).toBe('in');
  });
});

describe('pipe tables', () => {
  it('parses header, delimiter and body rows, escaped pipes and missing cells', () => {
    const md = 'Intro\n\n| a | b \\| c | d |\n|---|:-:|--:|\n| 1 | 2 |\n| 3 | 4 | 5 |\n\nAfter';
    const [grid] = parsePipeTables(md);
    expect(toTopLeftGrid(grid!)).toEqual([
      ['a', 'b | c', 'd'],
      ['1', '2', ''],
      ['3', '4', '5'],
    ]);
    expect(grid!.headerRowCount).toBe(1);
  });

  it('ignores pipes without a delimiter row and inside code fences', () => {
    expect(parsePipeTables('a | b\nc | d')).toHaveLength(0);
    expect(parsePipeTables('```\n| a |\n|---|\n| b |\n```')).toHaveLength(0);
    expect(parsePipeTables('a | b\n--|--\nc | d')).toHaveLength(1);
  });

  it('parseTables returns HTML and pipe tables together', () => {
    expect(parseTables('<table><tr><td>x</td></tr></table>\n\n|h|\n|-|\n|v|')).toHaveLength(2);
  });
});

describe('lenient pipe tables (olmOCR-Bench reading)', () => {
  it('takes any run of two or more lines with pipes, with or without a delimiter row', () => {
    const [grid] = parseLenientPipeTables('text\n| a | b |\n| 1 | 2 |\nmore text');
    expect(toTopLeftGrid(grid!)).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
    expect(parseLenientPipeTables('| a | b |\n|---|---|\n| 1 | 2 |')[0]!.rowCount).toBe(2);
    expect(parseLenientPipeTables('one | line only')).toHaveLength(0);
  });
});

describe('gridToHtml', () => {
  it('renders spans and header rows and parses back to the same grid', () => {
    const [grid] = parseHtmlTables('<table><thead><tr><th colspan="2">H &amp; I</th></tr></thead><tbody><tr><td rowspan="2">a</td><td>b</td></tr><tr><td>c</td></tr></tbody></table>');
    const html = gridToHtml(grid!);
    expect(html).toBe('<table><thead><tr><th colspan="2">H &amp; I</th></tr></thead><tbody><tr><td rowspan="2">a</td><td>b</td></tr><tr><td>c</td></tr></tbody></table>');
    expect(parseHtmlTables(html)[0]).toEqual(grid);
  });
});

describe('top-left grids', () => {
  it('round-trips a CSV grid with spans', () => {
    const matrix = [
      ['', 'Threshold', ''],
      ['', 'air', 'water'],
      ['CO2', '100', '-'],
    ];
    const grid = gridFromTopLeft(matrix, [{ row: 0, col: 1, rowspan: 1, colspan: 2 }]);
    expect(toTopLeftGrid(grid)).toEqual(matrix);
    expect(cellAt(grid, 0, 2)!.text).toBe('Threshold');
  });
});

import { describe, expect, it } from 'vitest';
import { parseHtmlTable, parsePipeTable } from '../../../app/tables/index.js';
import { cellAtOffset } from './tableCursor.js';

describe('cellAtOffset', () => {
  it('finds the cell whose text holds the cursor, in HTML and pipe tables', () => {
    const html = '<table><tr><td>a</td><td>bb</td></tr><tr><td>c</td><td>dd</td></tr></table>';
    const table = parseHtmlTable(html)!;
    expect(cellAtOffset(table, html.indexOf('dd') + 1)).toEqual({ row: 1, col: 1 });
    expect(cellAtOffset(table, html.indexOf('c'))).toEqual({ row: 1, col: 0 });
    const pipe = '| x | y |\n|---|---|\n| 1 | 22 |\n| 3 | 44 |';
    expect(cellAtOffset(parsePipeTable(pipe)!, pipe.indexOf('44'))).toEqual({ row: 2, col: 1 });
    expect(cellAtOffset(parsePipeTable(pipe)!, pipe.indexOf('3'))).toEqual({ row: 2, col: 0 });
  });
  it('on the markup between cells, the nearest cell', () => {
    const html = '<table><tr><td>a</td><td>bb</td></tr></table>';
    expect(cellAtOffset(parseHtmlTable(html)!, html.indexOf('<td>bb') + 2)).toEqual({ row: 0, col: 1 });
    expect(cellAtOffset(parseHtmlTable(html)!, 0)).toEqual({ row: 0, col: 0 });
  });
});

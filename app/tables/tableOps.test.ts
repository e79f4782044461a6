import { describe, expect, it } from 'vitest';
import {
  insertColumn,
  insertRow,
  mergeCells,
  moveColumn,
  moveRow,
  parseHtmlTable,
  parsePipeTable,
  removeColumn,
  removeRow,
  serializeTable,
  setCellText,
  setHeaderRows,
  splitCell,
  toTopLeftGrid,
  gridFromHtmlTable,
  parseHtml,
  type EditableTable,
  type TableEdit,
} from './index.js';

const ok = (edit: TableEdit): EditableTable => {
  if (edit instanceof Error) throw edit;
  return edit;
};
const table = (html: string): EditableTable => ok(parseHtmlTable(html) ?? new Error('no table'));
const topLeft = (t: EditableTable): string[][] => {
  const element = parseHtml(serializeTable(t)).children.find((n) => typeof n !== 'string' && n.tag === 'table');
  return toTopLeftGrid(gridFromHtmlTable(element as never));
};

const base = '<table>\n<thead>\n<tr><th>Item</th><th>Qty</th><th>Amount</th></tr>\n</thead>\n<tbody>\n<tr><td>Pen</td><td>2</td><td>&#36;4.00</td></tr>\n<tr><td>Ink</td><td>1</td><td>&#36;9.50</td></tr>\n</tbody>\n</table>';

describe('table operations', () => {
  it('edits one cell in place and leaves the rest of the source alone', () => {
    const edited = ok(setCellText(table(base), 2, 2, '$9.90'));
    expect(serializeTable(edited)).toBe(base.replace('&#36;9.50', '&#36;9.90'));
    expect(edited.structureChanged).toBe(false);
  });

  it('inserts, removes and moves rows and columns', () => {
    let t = ok(insertRow(table(base), 2));
    t = ok(setCellText(t, 2, 0, 'Pad'));
    expect(topLeft(t).map((r) => r[0])).toEqual(['Item', 'Pen', 'Pad', 'Ink']);
    t = ok(moveRow(t, 3, -1));
    expect(topLeft(t).map((r) => r[0])).toEqual(['Item', 'Pen', 'Ink', 'Pad']);
    t = ok(removeRow(t, 1));
    expect(topLeft(t).map((r) => r[0])).toEqual(['Item', 'Ink', 'Pad']);
    t = ok(insertColumn(t, 1));
    t = ok(setCellText(t, 0, 1, 'Code'));
    expect(topLeft(t)[0]).toEqual(['Item', 'Code', 'Qty', 'Amount']);
    t = ok(moveColumn(t, 1, 1));
    expect(topLeft(t)[0]).toEqual(['Item', 'Qty', 'Code', 'Amount']);
    t = ok(removeColumn(t, 2));
    expect(topLeft(t)).toEqual([
      ['Item', 'Qty', 'Amount'],
      ['Ink', '1', '$9.50'],
      ['Pad', '', ''],
    ]);
    expect(serializeTable(t)).toContain('<thead>\n<tr><th>Item</th>');
  });

  it('merges a range into its top-left cell with colspan/rowspan and splits it again', () => {
    const merged = ok(mergeCells(table(base), { top: 1, left: 0, bottom: 1, right: 1 }));
    const html = serializeTable(merged);
    expect(html).toContain('<tr><td colspan="2">Pen 2</td><td>&#36;4.00</td></tr>');
    const split = ok(splitCell(merged, 1, 1));
    expect(topLeft(split)[1]).toEqual(['Pen 2', '', '$4.00']);
    const tall = ok(mergeCells(table(base), { top: 1, left: 2, bottom: 2, right: 2 }));
    expect(serializeTable(tall)).toContain('<td rowspan="2">&#36;4.00 &#36;9.50</td>');
  });

  it('refuses a merge that would cut a merged cell and a move across one', () => {
    const merged = ok(mergeCells(table(base), { top: 1, left: 0, bottom: 2, right: 0 }));
    expect(mergeCells(merged, { top: 2, left: 0, bottom: 2, right: 1 })).toBeInstanceOf(Error);
    expect(moveRow(merged, 1, 1)).toBeInstanceOf(Error);
    const grown = ok(insertRow(merged, 2));
    expect(grown.cells.find((c) => c.row === 1 && c.col === 0)!.rowspan).toBe(3);
    const shrunk = ok(removeRow(merged, 1));
    expect(shrunk.cells.find((c) => c.row === 1 && c.col === 0)!.rowspan).toBe(1);
  });

  it('marks header rows: cells become <th> in <thead>, and back', () => {
    const t = ok(setHeaderRows(table(base), 2));
    expect(serializeTable(t)).toContain('<thead>\n<tr><th>Item</th><th>Qty</th><th>Amount</th></tr>\n<tr><th>Pen</th>');
    const none = ok(setHeaderRows(t, 0));
    expect(serializeTable(none)).toBe('<table>\n<tbody>\n<tr><td>Item</td><td>Qty</td><td>Amount</td></tr>\n<tr><td>Pen</td><td>2</td><td>&#36;4.00</td></tr>\n<tr><td>Ink</td><td>1</td><td>&#36;9.50</td></tr>\n</tbody>\n</table>');
  });

  it('keeps a pipe table a pipe table, and writes HTML once it needs a span', () => {
    const pipe = ok(parsePipeTable('| a | b |\n|---|--:|\n| 1 | 2 |\n| 3 | 4 |') ?? new Error('no table'));
    expect(serializeTable(ok(moveRow(pipe, 1, 1)))).toBe('| a | b |\n| --- | --: |\n| 3 | 4 |\n| 1 | 2 |');
    expect(serializeTable(ok(mergeCells(pipe, { top: 1, left: 0, bottom: 1, right: 1 })))).toBe(
      '<table>\n<thead>\n<tr><th>a</th><th>b</th></tr>\n</thead>\n<tbody>\n<tr><td colspan="2">1 2</td></tr>\n<tr><td>3</td><td>4</td></tr>\n</tbody>\n</table>',
    );
  });
});

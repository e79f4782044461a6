/**
 * HTML tables → grids. Handles `<thead>`/`<tbody>`/`<tfoot>`, `<th>`, rowspan/colspan and nested tables (a nested
 * table is its own grid; its text also stays in the outer cell's text).
 */
import { buildGrid, collapseWhitespace, type TableGrid } from './grid.js';
import { findAll, isElement, parseHtml, textContent, type HtmlElement } from './htmlTree.js';

function spanValue(raw: string | undefined): number {
  const value = Number.parseInt(raw ?? '1', 10);
  return Number.isFinite(value) && value >= 1 ? Math.min(value, 1000) : 1;
}

/** The `<tr>`s of a table in order, without descending into nested tables; `inHead` marks rows under `<thead>`. */
function tableRows(table: HtmlElement): { tr: HtmlElement; inHead: boolean }[] {
  const rows: { tr: HtmlElement; inHead: boolean }[] = [];
  const visit = (element: HtmlElement, inHead: boolean): void => {
    for (const child of element.children) {
      if (!isElement(child) || child.tag === 'table') continue;
      if (child.tag === 'tr') rows.push({ tr: child, inHead });
      else visit(child, inHead || child.tag === 'thead');
    }
  };
  visit(table, false);
  return rows;
}

export function gridFromHtmlTable(table: HtmlElement): TableGrid {
  const rows = tableRows(table).map(({ tr, inHead }) =>
    tr.children
      .filter((c): c is HtmlElement => isElement(c) && (c.tag === 'td' || c.tag === 'th'))
      .map((cell) => ({
        text: collapseWhitespace(textContent(cell)),
        rowspan: spanValue(cell.attrs.rowspan),
        colspan: spanValue(cell.attrs.colspan),
        header: inHead || cell.tag === 'th',
      })),
  );
  return buildGrid('html', rows);
}

/** Every `<table>` in the HTML (or Markdown with embedded HTML), outer tables first. */
export function parseHtmlTables(html: string): TableGrid[] {
  if (!/<table[\s>]/i.test(html)) return [];
  return findAll(parseHtml(html), 'table').map(gridFromHtmlTable);
}

/** Tables in an engine's Markdown: HTML `<table>`s and GFM pipe tables, as one grid model. */
export * from './grid.js';
export { parseHtmlTables, gridFromHtmlTable } from './htmlTables.js';
export { parsePipeTables, parsePipeTablesWithLines, parseLenientPipeTables, splitPipeRow, isDelimiterRow } from './pipeTables.js';
export { parseHtml, findAll, textContent, isElement, type HtmlElement, type HtmlNode } from './htmlTree.js';

import { parseHtmlTables } from './htmlTables.js';
import { parsePipeTables } from './pipeTables.js';
import type { TableGrid } from './grid.js';

/** All tables in Markdown that may mix HTML tables and pipe tables: HTML ones first, then pipe ones. */
export function parseTables(markdown: string): TableGrid[] {
  return [...parseHtmlTables(markdown), ...parsePipeTables(markdown)];
}
export * from './editableTable.js';
export * from './tableOps.js';
export * from './tableLocate.js';

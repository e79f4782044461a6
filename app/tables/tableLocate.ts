/**
 * Where the tables are in a page's Markdown: each outermost HTML `<table>…</table>` and each GFM pipe table, with its
 * character range, so one table can be opened in the grid and written back in place without touching the rest.
 */
import { parsePipeTablesWithLines } from './pipeTables.js';

export interface TableLocation {
  format: 'html' | 'pipe';
  /** [start, end) into the Markdown. */
  range: [number, number];
}

const tagPattern = /<(\/?)table\b[^>]*>/gi;

/** Outermost `<table>` elements; an unclosed table runs to the end of the text. */
function htmlTableRanges(markdown: string): [number, number][] {
  const ranges: [number, number][] = [];
  let depth = 0;
  let start = 0;
  for (const match of markdown.matchAll(tagPattern)) {
    if (match[1] === '') {
      if (depth === 0) start = match.index;
      depth++;
    } else if (depth > 0) {
      depth--;
      if (depth === 0) ranges.push([start, match.index + match[0].length]);
    }
  }
  if (depth > 0) ranges.push([start, markdown.length]);
  return ranges;
}

/** Every table in the Markdown, in text order. */
export function locateTables(markdown: string): TableLocation[] {
  const html = htmlTableRanges(markdown).map((range): TableLocation => ({ format: 'html', range }));
  const lineStarts = [0];
  for (let i = 0; i < markdown.length; i++) if (markdown[i] === '\n') lineStarts.push(i + 1);
  const pipe = parsePipeTablesWithLines(markdown)
    .map(({ lines: [first, end] }): TableLocation => {
      const start = lineStarts[first]!;
      const stop = end < lineStarts.length ? lineStarts[end]! - 1 : markdown.length;
      return { format: 'pipe', range: [start, stop] };
    })
    // A pipe-looking line inside an HTML table's cell is part of that table.
    .filter((pipeTable) => !html.some((h) => pipeTable.range[0] < h.range[1] && pipeTable.range[1] > h.range[0]));
  return [...html, ...pipe].sort((a, b) => a.range[0] - b.range[0]);
}

/** The table whose range holds `offset` (its end included, so a cursor just after `</table>` still finds it). */
export function tableAtOffset(markdown: string, offset: number): TableLocation | null {
  return locateTables(markdown).find((table) => offset >= table.range[0] && offset <= table.range[1]) ?? null;
}

/** The Markdown with one table's text replaced. */
export function replaceTable(markdown: string, location: TableLocation, tableText: string): string {
  return markdown.slice(0, location.range[0]) + tableText + markdown.slice(location.range[1]);
}

/**
 * An editable table: one HTML `<table>` or GFM pipe table of a page's Markdown as a grid of cells that keeps enough of
 * its source to write it back exactly.
 *
 * Two ways back to text (`serializeTable`):
 * - text edits only: the source with each edited cell's inner text spliced in place, so a table nobody touched is
 *   byte-identical and an edited one differs only inside the edited cells;
 * - structural edits (rows, columns, spans, header rows): the table written again from the grid (`canonicalTableHtml`),
 *   keeping the `<table>` tag, every cell's tag, attributes and inner HTML, and the source's one-row-per-line layout.
 *
 * Pure: no DOM, no I/O. The operations live in `tableOps.ts`.
 */
import { Parser } from 'htmlparser2';
import { collapseWhitespace } from './grid.js';
import { textContent, parseHtml } from './htmlTree.js';
import { isDelimiterRow } from './pipeTables.js';

export interface CellAttribute {
  name: string;
  /** Raw (undecoded) value; null for a bare attribute (`<td nowrap>`). */
  value: string | null;
}

export interface GridCell {
  row: number;
  col: number;
  rowspan: number;
  colspan: number;
  tag: 'td' | 'th';
  /** Attributes in source order, `rowspan`/`colspan` included (their values are rewritten from the spans). */
  attrs: CellAttribute[];
  /** Inner HTML (HTML tables) or escaped cell text (pipe tables, used when the table has to become HTML). */
  html: string;
  /** The cell's text as shown in the grid: entities decoded, tags dropped, whitespace collapsed. */
  text: string;
  /** Where the cell's inner content sits in `EditableTable.source`; absent for cells the grid created. */
  sourceRange?: [number, number];
  edited: boolean;
}

export interface EditableTable {
  format: 'html' | 'pipe';
  /** The table's text exactly as it was in the Markdown. */
  source: string;
  rowCount: number;
  colCount: number;
  /** Cells anchored at their top-left slot, row-major. */
  cells: GridCell[];
  /** Leading rows that are header rows: `<thead>` rows (HTML), the header line (pipe). */
  headerRowCount: number;
  /** True once rows, columns, spans or header rows changed: the table is then written again from the grid. */
  structureChanged: boolean;
  /** The `<table …>` open tag as written (`<table>` for pipe tables). */
  tableOpenTag: string;
  /** Each row's `<tr …>` open tag as written (new rows get `<tr>`). */
  rowOpenTags: string[];
  /** Whether the source wrapped body rows in `<tbody>`. */
  hasTbody: boolean;
  /** "\n" when the source put one tag per line (the bundled engine's layout), "" when it ran them together. */
  lineBreak: string;
  /** Pipe tables: each column's delimiter cell (`---`, `:-:`), so alignment survives. */
  pipeDelimiters: string[];
}

/** `$` is written `&#36;` as the bundled engine writes it: no `$…$` formula is read across cells. */
export function escapeCellText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\$/g, '&#36;');
}

const commonEntities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** Decodes the entities engines write (`&amp;`, `&#36;`, `&#x24;`, …); null when another named entity needs the full parser. */
function decodeCommonEntities(text: string): string | null {
  let unknown = false;
  const decoded = text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    const known = commonEntities[name.toLowerCase()];
    if (known === undefined) unknown = true;
    return known ?? whole;
  });
  return unknown ? null : decoded;
}

/** A cell's text: plain text and the common entities without a parse (most cells); tags through the HTML parser. */
function htmlText(html: string): string {
  if (!html.includes('<')) {
    const decoded = html.includes('&') ? decodeCommonEntities(html) : html;
    if (decoded !== null) return collapseWhitespace(decoded);
  }
  return collapseWhitespace(textContent(parseHtml(html)));
}

interface OpenElement {
  name: string;
  openEnd: number;
  attrs: CellAttribute[];
  /** Depth in nested tables: 0 for the table being parsed. */
  tableDepth: number;
}

/**
 * Parses one HTML table (the text from `<table` to its `</table>`). Nested tables stay inside their cell's inner HTML.
 * Returns null when the text holds no table.
 */
export function parseHtmlTable(source: string): EditableTable | null {
  const rows: { openTag: string; cells: { tag: 'td' | 'th'; attrs: CellAttribute[]; range: [number, number] }[]; inHead: boolean }[] = [];
  const stack: OpenElement[] = [];
  let pendingAttrs: CellAttribute[] = [];
  let tableOpenTag: string | null = null;
  let tableDepth = -1;
  let inHead = false;
  let hasTbody = false;
  let done = false;
  const parser = new Parser(
    {
      onattribute(name, value, quote) {
        pendingAttrs.push({ name, value: quote === undefined && value === '' ? null : value });
      },
      onopentag(name) {
        const attrs = pendingAttrs;
        pendingAttrs = [];
        if (done) return;
        const openTag = source.slice(parser.startIndex, parser.endIndex + 1);
        if (name === 'table') {
          tableDepth++;
          if (tableDepth === 0) tableOpenTag = openTag;
        }
        stack.push({ name, openEnd: parser.endIndex + 1, attrs, tableDepth });
        if (tableDepth !== 0 || name === 'table') return;
        if (name === 'thead') inHead = true;
        else if (name === 'tbody') hasTbody = true;
        else if (name === 'tr') rows.push({ openTag, cells: [], inHead });
      },
      onclosetag(name, isImplied) {
        if (done) return;
        const element = stack.pop();
        if (!element) return;
        const contentEnd = Math.min(parser.startIndex, source.length);
        if (element.tableDepth === 0 && (name === 'td' || name === 'th') && rows.length > 0) {
          rows[rows.length - 1]!.cells.push({ tag: name, attrs: element.attrs, range: [element.openEnd, isImplied ? contentEnd : parser.startIndex] });
        }
        if (name === 'thead' && element.tableDepth === 0) inHead = false;
        if (name === 'table') {
          tableDepth--;
          if (tableDepth < 0) done = true;
        }
      },
    },
    { decodeEntities: false, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(source);
  parser.end();
  if (tableOpenTag === null) return null;

  const cells: GridCell[] = [];
  const taken: boolean[][] = [];
  let headerRowCount = 0;
  rows.forEach((row, r) => {
    if (row.inHead && headerRowCount === r) headerRowCount = r + 1;
    taken[r] ??= [];
    let c = 0;
    for (const cell of row.cells) {
      while (taken[r]![c]) c++;
      const rowspan = Math.min(spanOf(cell.attrs, 'rowspan'), rows.length - r);
      const colspan = spanOf(cell.attrs, 'colspan');
      for (let rr = r; rr < r + rowspan; rr++) for (let cc = c; cc < c + colspan; cc++) (taken[rr] ??= [])[cc] = true;
      const html = source.slice(cell.range[0], cell.range[1]);
      cells.push({ row: r, col: c, rowspan, colspan, tag: cell.tag, attrs: cell.attrs, html, text: htmlText(html), sourceRange: cell.range, edited: false });
      c += colspan;
    }
  });
  const colCount = taken.reduce((max, row) => Math.max(max, row?.length ?? 0), 0);
  return {
    format: 'html',
    source,
    rowCount: rows.length,
    colCount,
    cells,
    headerRowCount,
    structureChanged: false,
    tableOpenTag,
    rowOpenTags: rows.map((row) => row.openTag),
    hasTbody,
    lineBreak: /^<table[^>]*>\r?\n/i.test(source) ? '\n' : '',
    pipeDelimiters: [],
  };
}

/** Spans above this are read as 1 (a broken attribute, not a table 10,000 rows tall). */
const maxSpan = 1000;

function spanOf(attrs: CellAttribute[], name: 'rowspan' | 'colspan'): number {
  const value = Number.parseInt(attrs.find((a) => a.name === name)?.value ?? '1', 10);
  return Number.isFinite(value) && value >= 1 && value <= maxSpan ? value : 1;
}

/** The trimmed ranges of each cell on one pipe-table line (outer pipes optional, `\|` is text). */
function pipeCellRanges(line: string): [number, number][] {
  const bounds: number[] = [-1];
  for (let i = 0; i < line.length; i++) {
    if (line[i] === '\\' && line[i + 1] === '|') i++;
    else if (line[i] === '|') bounds.push(i);
  }
  bounds.push(line.length);
  const ranges: [number, number][] = [];
  for (let k = 0; k + 1 < bounds.length; k++) {
    let start = bounds[k]! + 1;
    let end = bounds[k + 1]!;
    while (start < end && /\s/.test(line[start]!)) start++;
    while (end > start && /\s/.test(line[end - 1]!)) end--;
    ranges.push([start, end]);
  }
  const trimmed = line.trim();
  if (trimmed.startsWith('|')) ranges.shift();
  if (trimmed.endsWith('|') && !trimmed.endsWith('\\|')) ranges.pop();
  return ranges;
}

/** Parses one GFM pipe table (header line, delimiter line, body lines). Returns null when it is not one. */
export function parsePipeTable(source: string): EditableTable | null {
  const lines: { text: string; offset: number }[] = [];
  let offset = 0;
  for (const text of source.split('\n')) {
    lines.push({ text, offset });
    offset += text.length + 1;
  }
  while (lines.length > 0 && lines[lines.length - 1]!.text.trim() === '') lines.pop();
  if (lines.length < 2 || !isDelimiterRow(lines[1]!.text)) return null;
  const delimiterRanges = pipeCellRanges(lines[1]!.text);
  const pipeDelimiters = delimiterRanges.map(([s, e]) => lines[1]!.text.slice(s, e));
  const rowLines = [lines[0]!, ...lines.slice(2)];
  const width = Math.max(pipeDelimiters.length, ...rowLines.map((l) => pipeCellRanges(l.text.replace(/\r$/, '')).length));
  const cells: GridCell[] = [];
  rowLines.forEach((line, r) => {
    const ranges = pipeCellRanges(line.text.replace(/\r$/, ''));
    for (let c = 0; c < width; c++) {
      const range = ranges[c];
      const raw = range ? line.text.slice(range[0], range[1]) : '';
      // Entities decoded as in HTML cells (engines write `&#36;` for a dollar that must not open a formula).
      const unescaped = raw.replace(/\\\|/g, '|');
      const text = collapseWhitespace(unescaped.includes('&') ? (decodeCommonEntities(unescaped) ?? unescaped) : unescaped);
      cells.push({
        row: r,
        col: c,
        rowspan: 1,
        colspan: 1,
        tag: r === 0 ? 'th' : 'td',
        attrs: [],
        html: escapeCellText(text),
        text,
        sourceRange: range ? [line.offset + range[0], line.offset + range[1]] : undefined,
        edited: false,
      });
    }
  });
  return {
    format: 'pipe',
    source,
    rowCount: rowLines.length,
    colCount: width,
    cells,
    headerRowCount: 1,
    structureChanged: false,
    tableOpenTag: '<table>',
    rowOpenTags: rowLines.map(() => '<tr>'),
    hasTbody: true,
    lineBreak: '\n',
    pipeDelimiters: Array.from({ length: width }, (_, c) => pipeDelimiters[c] ?? '---'),
  };
}

function attributeText(cell: GridCell): string {
  const attrs = cell.attrs.flatMap((attr): CellAttribute[] => {
    if (attr.name !== 'rowspan' && attr.name !== 'colspan') return [attr];
    const span = attr.name === 'rowspan' ? cell.rowspan : cell.colspan;
    if (span === 1 && spanOf([attr], attr.name) !== 1) return [];
    return [{ name: attr.name, value: String(span) }];
  });
  for (const name of ['rowspan', 'colspan'] as const) {
    const span = name === 'rowspan' ? cell.rowspan : cell.colspan;
    if (span > 1 && !attrs.some((a) => a.name === name)) attrs.push({ name, value: String(span) });
  }
  return attrs.map((a) => (a.value === null ? ` ${a.name}` : ` ${a.name}="${a.value.replace(/"/g, '&quot;')}"`)).join('');
}

/** The table written from its grid: `<thead>` for the header rows, then the body rows; cells keep tags and attributes. */
export function canonicalTableHtml(table: EditableTable): string {
  const br = table.lineBreak;
  const byRow: GridCell[][] = Array.from({ length: table.rowCount }, () => []);
  for (const cell of table.cells) byRow[cell.row]?.push(cell);
  const rowHtml = (r: number): string => {
    const cells = byRow[r]!.sort((a, b) => a.col - b.col).map((cell) => `<${cell.tag}${attributeText(cell)}>${cell.html}</${cell.tag}>`);
    return `${table.rowOpenTags[r] ?? '<tr>'}${cells.join('')}</tr>`;
  };
  const parts = [table.tableOpenTag];
  if (table.headerRowCount > 0) {
    parts.push('<thead>');
    for (let r = 0; r < table.headerRowCount; r++) parts.push(rowHtml(r));
    parts.push('</thead>');
  }
  const wrapBody = table.hasTbody || table.headerRowCount > 0;
  if (wrapBody) parts.push('<tbody>');
  for (let r = table.headerRowCount; r < table.rowCount; r++) parts.push(rowHtml(r));
  if (wrapBody) parts.push('</tbody>');
  parts.push('</table>');
  return parts.join(br);
}

/** A cell's text as pipe-table source: `|` escaped, `$` as the entity the engines write (never a formula delimiter). */
function pipeCellSource(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\$/g, '&#36;');
}

/** A pipe table can stay a pipe table while it has exactly one header row and no spans. */
function fitsPipeTable(table: EditableTable): boolean {
  return table.headerRowCount === 1 && table.cells.every((cell) => cell.rowspan === 1 && cell.colspan === 1);
}

function canonicalPipeTable(table: EditableTable): string {
  const text = (r: number, c: number): string => {
    const cell = table.cells.find((candidate) => candidate.row === r && candidate.col === c);
    return pipeCellSource(cell?.text ?? '');
  };
  const line = (values: string[]): string => `| ${values.join(' | ')} |`;
  const cols = Array.from({ length: table.colCount }, (_, c) => c);
  const lines = [line(cols.map((c) => text(0, c))), line(cols.map((c) => table.pipeDelimiters[c] ?? '---'))];
  for (let r = 1; r < table.rowCount; r++) lines.push(line(cols.map((c) => text(r, c))));
  const trailing = table.source.match(/\n*$/)?.[0] ?? '';
  return lines.join('\n') + trailing;
}

/**
 * The table as text again. Unedited: its source, byte for byte. Text edits only: the source with the edited cells'
 * contents replaced. Structural edits: written from the grid (a pipe table that gained spans or header rows becomes
 * HTML, since pipe tables cannot express them).
 */
export function serializeTable(table: EditableTable): string {
  if (table.structureChanged) {
    if (table.format === 'pipe' && fitsPipeTable(table)) return canonicalPipeTable(table);
    return canonicalTableHtml(table);
  }
  const edits = table.cells
    .filter((cell) => cell.edited && cell.sourceRange)
    .sort((a, b) => b.sourceRange![0] - a.sourceRange![0]);
  let text = table.source;
  for (const cell of edits) {
    const replacement = table.format === 'pipe' ? pipeCellSource(cell.text) : cell.html;
    text = text.slice(0, cell.sourceRange![0]) + replacement + text.slice(cell.sourceRange![1]);
  }
  return text;
}

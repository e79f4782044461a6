/**
 * Blocks → Markdown and one Element per block, with the exact character span of each block in the Markdown.
 *
 * A block's span covers its whole Markdown source (heading marks included), so `markdown.slice(...span)` is the
 * block as written and highlighting a span highlights the whole block. Blocks are separated by one blank line;
 * rows of a block by a newline; segments of a row (label and value, table cells) by a space.
 */
import type { Element } from '../../../app/model/extraction.js';
import type { TableLayout } from './detectTables.js';
import { rowWithFormulas } from './formulas.js';
import type { LayoutBlock } from './layoutTypes.js';

export interface RenderedPage {
  markdown: string;
  elements: Element[];
  /** Text of the running headers, footers and page numbers, by element id: kept out of the Markdown. */
  furniture: { id: string; kind: Element['kind']; text: string }[];
}

/** Kinds that are page furniture, not content: their elements have an empty span where they would have been. */
export const FURNITURE_KINDS: ReadonlySet<Element['kind']> = new Set(['header', 'footer', 'page-number']);

export function renderMarkdown(blocks: readonly LayoutBlock[]): RenderedPage {
  let markdown = '';
  const elements: Element[] = [];
  const furniture: RenderedPage['furniture'] = [];
  blocks.forEach((block, index) => {
    const text = blockMarkdown(block);
    if (!text) return;
    if (FURNITURE_KINDS.has(block.kind)) {
      const id = `b${index + 1}`;
      const plain = block.rows.map((row) => row.segments.map((s) => s.words.map((w) => w.text).join(' ')).join(' ')).join('\n');
      furniture.push({ id, kind: block.kind, text: plain });
      elements.push({ id, kind: block.kind, box: block.box, span: [markdown.length, markdown.length], confidence: meanConfidence(block) });
      return;
    }
    if (markdown) markdown += '\n\n';
    const start = markdown.length;
    markdown += text;
    const element: Element = {
      id: `b${index + 1}`,
      kind: block.kind,
      box: block.box,
      span: [start, markdown.length],
      confidence: meanConfidence(block),
    };
    if (block.level !== undefined) element.level = block.level;
    if (block.table) {
      element.cells = block.table.cells.map(({ row, col, rowspan, colspan, header, box }) => ({ row, col, rowspan, colspan, header, box }));
    }
    elements.push(element);
  });
  return { markdown, elements, furniture };
}

function meanConfidence(block: LayoutBlock): number | null {
  const confidences = block.rows.flatMap((row) => row.segments.flatMap((s) => s.words.map((w) => w.confidence)));
  return confidences.length ? round(confidences.reduce((a, b) => a + b, 0) / confidences.length) : null;
}

function blockMarkdown(block: LayoutBlock): string {
  if (block.table) return tableHtml(block.table);
  const rows = block.rows
    .map((row) => {
      const words = row.segments.flatMap((segment) => segment.words);
      return rowWithFormulas(words, escapeInline) ?? words.map((word) => escapeInline(word.text)).join(' ');
    })
    .filter((row) => row.length > 0);
  if (rows.length === 0) return '';
  if (block.kind === 'title' || block.kind === 'heading') {
    return `${'#'.repeat(block.level ?? 2)} ${rows.join(' ')}`;
  }
  return rows.map(listItemOrEscaped).join('\n');
}

/** Bullet glyphs that start a list item in print. */
export const BULLET = /^[•●▪■◦○·‣⁃]$/u;

/**
 * A line that starts with a bullet glyph becomes a `- ` item; one that starts with a number and `.`/`)` stays a
 * Markdown ordered item (exercises, numbered clauses: they are lists); other line-start marks are escaped.
 */
function listItemOrEscaped(line: string): string {
  const bullet = /^(\S)\s+(.*)$/u.exec(line);
  if (bullet && BULLET.test(bullet[1])) return `- ${escapeLineStart(bullet[2])}`;
  if (/^\d{1,9}[.)]\s/u.test(line)) return line;
  return escapeLineStart(line);
}

/**
 * A table as HTML, whatever its shape (one convention for every table: spans need HTML, and the olmOCR and TEDS
 * scorers read header cells from `<th>`): header rows in `<thead>` with `<th>`, body rows in `<tbody>`, spans as
 * rowspan/colspan, empty slots as empty `<td>`s so every row has the table's width. Cell text is HTML-escaped only
 * (`&`, `<`, `>`, and `$` as `&#36;`): inside an HTML block Markdown escapes would show as backslashes.
 */
export function tableHtml(table: TableLayout): string {
  const covered = new Set<string>();
  const byAnchor = new Map<string, TableLayout['cells'][number]>();
  for (const cell of table.cells) {
    byAnchor.set(`${cell.row},${cell.col}`, cell);
    for (let r = cell.row; r < cell.row + cell.rowspan; r++)
      for (let c = cell.col; c < cell.col + cell.colspan; c++) if (r !== cell.row || c !== cell.col) covered.add(`${r},${c}`);
  }
  const rowHtml = (r: number): string => {
    const tag = r < table.headerRowCount ? 'th' : 'td';
    let html = '<tr>';
    for (let c = 0; c < table.colCount; c++) {
      if (covered.has(`${r},${c}`)) continue;
      const cell = byAnchor.get(`${r},${c}`);
      const spans = cell ? `${cell.rowspan > 1 ? ` rowspan="${cell.rowspan}"` : ''}${cell.colspan > 1 ? ` colspan="${cell.colspan}"` : ''}` : '';
      const text = cell ? escapeHtml(cell.segments.map((s) => s.words.map((w) => w.text).join(' ')).join(' ')) : '';
      html += `<${tag}${spans}>${text}</${tag}>`;
    }
    return `${html}</tr>`;
  };
  const lines = ['<table>'];
  if (table.headerRowCount > 0) {
    lines.push('<thead>');
    for (let r = 0; r < table.headerRowCount; r++) lines.push(rowHtml(r));
    lines.push('</thead>');
  }
  lines.push('<tbody>');
  for (let r = table.headerRowCount; r < table.rowCount; r++) lines.push(rowHtml(r));
  lines.push('</tbody>', '</table>');
  return lines.join('\n');
}

/** `$` as `&#36;`: the cell shows a dollar sign, and no `$…$` math is read across cells ("$6.45</td><td>$"). */
function escapeHtml(text: string): string {
  return text.replace(/&/gu, '&amp;').replace(/</gu, '&lt;').replace(/>/gu, '&gt;').replace(/\$/gu, '&#36;');
}

/**
 * Characters that would change meaning inside a line: emphasis, code, math (`$` opens a formula in Recto's
 * Markdown), HTML tags and backslashes.
 */
export function escapeInline(text: string): string {
  return text.replace(/[\\`*_$]/gu, (c) => `\\${c}`).replace(/<(?=[A-Za-z/!?])/gu, '\\<');
}

/** Marks that only mean something at the start of a line: headings, quotes, list items, thematic breaks. */
function escapeLineStart(line: string): string {
  if (/^(#{1,6}(\s|$)|>|[-+](\s|$)|={3,}|-{3,})/u.test(line)) return `\\${line}`;
  const ordered = /^(\d{1,9})([.)])(\s|$)/u.exec(line);
  if (ordered) return `${ordered[1]}\\${line.slice(ordered[1].length)}`;
  return line;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

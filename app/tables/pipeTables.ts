/**
 * GitHub-flavoured Markdown pipe tables → grids. A pipe table is a header line, a delimiter line
 * (`| --- | :-: |`) and body lines; every row is 1×1 cells (pipe tables cannot span). Escaped pipes (`\|`) stay text.
 */
import { buildGrid, collapseWhitespace, type TableGrid } from './grid.js';

const delimiterCell = /^\s*:?-{1,}:?\s*$/;

/** Splits one pipe-table line into cell texts, honouring `\|` and dropping the optional outer pipes. */
export function splitPipeRow(line: string): string[] {
  const cells: string[] = [];
  let current = '';
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (ch === '\\' && line[i + 1] === '|') {
      current += '|';
      i++;
    } else if (ch === '|') {
      cells.push(current);
      current = '';
    } else current += ch;
  }
  cells.push(current);
  const trimmed = line.trim();
  if (trimmed.startsWith('|')) cells.shift();
  if (trimmed.endsWith('|') && !trimmed.endsWith('\\|')) cells.pop();
  return cells.map((c) => collapseWhitespace(c));
}

export function isDelimiterRow(line: string): boolean {
  if (!line.includes('-')) return false;
  const cells = splitPipeRow(line);
  return cells.length > 0 && cells.every((c) => delimiterCell.test(c));
}

function looksLikeRow(line: string): boolean {
  return line.includes('|') && line.trim().length > 0;
}

export interface PipeTableSpan {
  grid: TableGrid;
  /** Line range [startLine, endLine) in the source. */
  lines: [number, number];
}

/** Every pipe table in the Markdown, with its line range. Lines inside fenced code blocks are skipped. */
export function parsePipeTablesWithLines(markdown: string): PipeTableSpan[] {
  const lines = markdown.split(/\r?\n/);
  const tables: PipeTableSpan[] = [];
  let inFence = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    if (inFence) continue;
    if (!looksLikeRow(line) || i + 1 >= lines.length || !isDelimiterRow(lines[i + 1]!)) continue;
    const header = splitPipeRow(line);
    const width = Math.max(header.length, splitPipeRow(lines[i + 1]!).length);
    const rows: string[][] = [header];
    let j = i + 2;
    while (j < lines.length && looksLikeRow(lines[j]!) && !isDelimiterRow(lines[j]!)) rows.push(splitPipeRow(lines[j++]!));
    const grid = buildGrid(
      'pipe',
      rows.map((cells, r) =>
        Array.from({ length: Math.max(width, cells.length) }, (_, c) => ({
          text: cells[c] ?? '',
          rowspan: 1,
          colspan: 1,
          header: r === 0,
        })),
      ),
    );
    tables.push({ grid, lines: [i, j] });
    i = j - 1;
  }
  return tables;
}

export function parsePipeTables(markdown: string): TableGrid[] {
  return parsePipeTablesWithLines(markdown).map((t) => t.grid);
}

/**
 * Lenient pipe tables, as olmOCR-Bench reads Markdown: any run of two or more consecutive lines containing `|` is a
 * table; a delimiter row is optional (dropped when present); the first row is the header row. Used by the olmOCR
 * table tests so that engines are scored as upstream scores them; `parsePipeTables` stays strict (GFM).
 */
export function parseLenientPipeTables(markdown: string): TableGrid[] {
  const tables: TableGrid[] = [];
  let block: string[] = [];
  const flush = (): void => {
    if (block.length >= 2) {
      const rows = block
        .filter((line) => !(line.trim() && /^[-:|\s]+$/.test(line)))
        .map((line) => {
          const cells = line.split('|').map((c) => c.trim());
          if (cells[0] === '') cells.shift();
          if (cells.length > 0 && cells[cells.length - 1] === '') cells.pop();
          return cells.map(collapseWhitespace);
        })
        .filter((cells) => cells.length > 0);
      if (rows.length > 0)
        tables.push(buildGrid('pipe', rows.map((cells, r) => cells.map((text) => ({ text, rowspan: 1, colspan: 1, header: r === 0 })))));
    }
    block = [];
  };
  for (const line of markdown.trim().split('\n')) {
    if (line.includes('|')) block.push(line);
    else flush();
  }
  flush();
  return tables;
}

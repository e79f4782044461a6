/**
 * Structural validity of an engine's Markdown: are its HTML tables balanced and rectangular, its pipe tables
 * consistent, its code fences and math delimiters closed? Each problem is reported; `score` is the share of checked
 * units (tables, fences, math blocks) that are valid, 1 when there is nothing to check.
 */
import { Parser } from 'htmlparser2';
import { parsePipeTablesWithLines, splitPipeRow } from '../tables/pipeTables.js';
import { sharedHtmlTables } from './sharedTables.js';

export interface StructureReport {
  problems: string[];
  checked: number;
  valid: number;
  score: number;
}

const voidTags = new Set(['br', 'hr', 'img', 'input', 'meta', 'link', 'col', 'wbr', 'area', 'base', 'source']);
const tableTags = new Set(['table', 'thead', 'tbody', 'tfoot', 'tr', 'td', 'th', 'caption', 'colgroup']);

/** Table-related tags that are opened but never explicitly closed, or closed without being open. */
export function unbalancedTableTags(html: string): string[] {
  const problems: string[] = [];
  const stack: string[] = [];
  const parser = new Parser(
    {
      onopentag(name) {
        if (!voidTags.has(name)) stack.push(name);
      },
      onclosetag(name, isImplied) {
        if (voidTags.has(name)) return;
        const at = stack.lastIndexOf(name);
        if (at < 0) {
          if (tableTags.has(name)) problems.push(`</${name}> without an open <${name}>`);
          return;
        }
        // Elements closed implicitly by this close tag were never closed explicitly.
        for (const open of stack.splice(at)) {
          if (open === name && !isImplied) continue;
          if (tableTags.has(open)) problems.push(`<${open}> not closed`);
        }
      },
    },
    { lowerCaseTags: true, recognizeSelfClosing: true },
  );
  parser.write(html);
  parser.end();
  return problems;
}

export function checkStructure(markdown: string): StructureReport {
  const problems: string[] = [];
  let checked = 0;
  let valid = 0;
  const unit = (unitProblems: string[]): void => {
    checked++;
    if (unitProblems.length === 0) valid++;
    problems.push(...unitProblems);
  };

  // HTML tables: balanced tags and every row covering the same number of columns once spans are placed.
  const htmlTableCount = (markdown.match(/<table[\s>]/gi) ?? []).length;
  if (htmlTableCount > 0) {
    const tagProblems = unbalancedTableTags(markdown);
    sharedHtmlTables(markdown).forEach((grid, t) => {
      const own: string[] = t === 0 ? tagProblems : [];
      grid.slots.forEach((row, r) => {
        const holes = row.filter((i) => i < 0).length;
        if (holes > 0) own.push(`table ${t + 1} row ${r + 1}: ${holes} of ${grid.colCount} columns not covered`);
      });
      if (grid.rowCount === 0) own.push(`table ${t + 1}: no rows`);
      unit(own);
    });
  }

  // Pipe tables: every row has the header's number of cells.
  const lines = markdown.split(/\r?\n/);
  for (const { grid, lines: [start, end] } of parsePipeTablesWithLines(markdown)) {
    const width = splitPipeRow(lines[start]!).length;
    const own: string[] = [];
    for (let l = start + 2; l < end; l++) {
      const cells = splitPipeRow(lines[l]!).length;
      if (cells !== width) own.push(`pipe table at line ${start + 1}: line ${l + 1} has ${cells} cells, header ${width}`);
    }
    if (grid.colCount === 0) own.push(`pipe table at line ${start + 1}: no columns`);
    unit(own);
  }

  // Code fences closed.
  const fences = lines.filter((l) => /^\s*(```|~~~)/.test(l)).length;
  if (fences > 0) unit(fences % 2 === 0 ? [] : ['unclosed code fence']);

  // Display math delimiters paired.
  const displayDollars = (markdown.match(/(?<!\\)\$\$/g) ?? []).length;
  if (displayDollars > 0) unit(displayDollars % 2 === 0 ? [] : ['unpaired $$']);
  const opens = (markdown.match(/\\\[/g) ?? []).length;
  const closes = (markdown.match(/\\\]/g) ?? []).length;
  if (opens + closes > 0) unit(opens === closes ? [] : [`\\[ ×${opens} but \\] ×${closes}`]);

  return { problems, checked, valid, score: checked === 0 ? 1 : valid / checked };
}

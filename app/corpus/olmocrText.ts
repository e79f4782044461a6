/**
 * A page's corrected Markdown as olmOCR's training data writes it (allenai/olmocr: the prompts ask for LaTeX as
 * `\( … \)` and `\[ … \]`, and the trainer's `DatasetTextRuleFilter`, olmocr/train/dataloader.py, drops a page with a
 * Markdown pipe table, or with a LaTeX command outside `\( … \)`, `\[ … \]` or `$$ … $$` — so a `$\frac{a}{b}$` page is
 * dropped). Recto's own text keeps `$…$` / `$$…$$` with `\$` for a literal dollar; here:
 * - display math `$$…$$` becomes `\[…\]`, inline math `$…$` (the rule of ../checks/formula.ts: a price is not math)
 *   becomes `\(…\)`; `\(…\)` and `\[…\]` already written stay as they are, their insides untouched;
 * - every other dollar is a literal one and is written `\$` (one already escaped stays `\$`);
 * - a pipe table becomes the HTML table olmOCR writes (header row as `<th>`).
 */
import { inlineDollarMathAt } from '../checks/formula.js';
import { gridToHtml } from '../tables/grid.js';
import { parsePipeTablesWithLines } from '../tables/index.js';

/** Pipe tables as HTML tables, line ranges replaced from the last so earlier ranges stay valid. */
function pipeTablesAsHtml(markdown: string): string {
  const tables = parsePipeTablesWithLines(markdown);
  if (tables.length === 0) return markdown;
  const lines = markdown.split(/\r?\n/);
  for (const table of [...tables].reverse()) lines.splice(table.lines[0], table.lines[1] - table.lines[0], gridToHtml(table.grid));
  return lines.join('\n');
}

/** The closing delimiter's index at or after `from`, skipping escapes (`\\`, `\$`), or -1. */
function closingOf(text: string, close: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    if (text.startsWith(close, i)) return i;
    if (text[i] === '\\') i++;
  }
  return -1;
}

/** Math delimiters as olmOCR writes them, every literal dollar escaped (above). */
export function olmocrMath(markdown: string): string {
  let out = '';
  let i = 0;
  while (i < markdown.length) {
    const char = markdown[i]!;
    if (char === '\\') {
      const next = markdown[i + 1];
      if (next === '(' || next === '[') {
        // Math already in olmOCR's delimiters: copied whole, a `$` inside it is LaTeX's.
        const end = closingOf(markdown, next === '(' ? '\\)' : '\\]', i + 2);
        if (end >= 0) {
          out += markdown.slice(i, end + 2);
          i = end + 2;
          continue;
        }
      }
      // An escape (`\$`, `\\`, `\*`) is kept as written.
      out += markdown.slice(i, i + 2);
      i += 2;
      continue;
    }
    if (char !== '$') {
      out += char;
      i++;
      continue;
    }
    if (markdown[i + 1] === '$') {
      const end = closingOf(markdown, '$$', i + 2);
      if (end >= 0 && markdown.slice(i + 2, end).trim() !== '') {
        out += `\\[${markdown.slice(i + 2, end)}\\]`;
        i = end + 2;
      } else {
        out += '\\$\\$';
        i += 2;
      }
      continue;
    }
    const inline = inlineDollarMathAt(markdown, i);
    if (inline) {
      out += `\\(${inline.latex}\\)`;
      i = inline.end;
    } else {
      out += '\\$';
      i++;
    }
  }
  return out;
}

/** The text of an olmOCR training page (above). */
export function olmocrNaturalText(markdown: string): string {
  return olmocrMath(pipeTablesAsHtml(markdown));
}

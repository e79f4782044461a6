/**
 * Where the formulas are in a page's Markdown, with the same delimiter rules as the preview (`markdownMath.ts`):
 * `$$…$$` (display, may span lines) and `$…$` (inline: no space after the opening `$` or before the closing one, and
 * a closing `$` right before a digit is a price). `\$` is a dollar sign, never a delimiter.
 */
export interface FormulaLocation {
  /** [start, end) of the whole formula, delimiters included. */
  range: [number, number];
  /** [start, end) of the TeX between the delimiters. */
  inner: [number, number];
  display: boolean;
}

export function locateFormulas(text: string): FormulaLocation[] {
  const found: FormulaLocation[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '\\') {
      i += 2;
      continue;
    }
    if (ch !== '$') {
      i++;
      continue;
    }
    const display = text[i + 1] === '$';
    const open = display ? 2 : 1;
    const start = i + open;
    let end = start;
    let closed = false;
    while (end < text.length) {
      const c = text[end];
      if (c === '\\') {
        end += 2;
        continue;
      }
      if (!display && c === '\n') break;
      if (c === '$' && (!display || text[end + 1] === '$')) {
        closed = true;
        break;
      }
      end++;
    }
    const valid =
      closed &&
      end > start &&
      (display || (!/\s/.test(text[start]!) && !/\s/.test(text[end - 1]!) && !/\d/.test(text[end + 1] ?? '')));
    if (valid) {
      found.push({ range: [i, end + open], inner: [start, end], display });
      i = end + open;
    } else i += open;
  }
  return found;
}

/** The formula whose delimiters enclose `offset` (a cursor on either delimiter counts). */
export function formulaAtOffset(text: string, offset: number): FormulaLocation | null {
  return locateFormulas(text).find((formula) => offset >= formula.range[0] && offset <= formula.range[1]) ?? null;
}

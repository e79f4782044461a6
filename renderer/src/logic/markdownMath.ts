/**
 * A markdown-it plugin that keeps `$…$` and `$$…$$` formulas away from Markdown's emphasis rules (`$a_1 * b_2$`
 * must not become italics) and emits them as placeholders: `<span class="recto-math" data-display="inline">TeX</span>`
 * (or `<div … data-display="block">`), with the TeX HTML-escaped as text. The preview sanitises the HTML first and only
 * then hands each placeholder's text to KaTeX, so no HTML produced by the document ever bypasses the sanitiser.
 */
import type MarkdownIt from 'markdown-it';

// Rule state types, derived from the parser instance (the typings' named type exports do not resolve here).
type Md = InstanceType<typeof MarkdownIt>;
type StateInline = Parameters<Parameters<Md['inline']['ruler']['before']>[2]>[0];
type StateBlock = Parameters<Parameters<Md['block']['ruler']['before']>[2]>[0];

const dollar = 0x24;
const backslash = 0x5c;

/** Inline `$…$` (and `$$…$$` written inside a paragraph, shown as display math). */
function mathInline(state: StateInline, silent: boolean): boolean {
  const { src, pos, posMax } = state;
  if (src.charCodeAt(pos) !== dollar) return false;
  const display = src.charCodeAt(pos + 1) === dollar;
  const open = display ? 2 : 1;
  const start = pos + open;
  // "$ 5" is money, not math: an inline opener must be followed by a non-space.
  if (!display && (start >= posMax || /\s/.test(src[start]!))) return false;
  let end = start;
  while (end < posMax) {
    const code = src.charCodeAt(end);
    if (code === backslash) {
      end += 2;
      continue;
    }
    if (code === dollar && (!display || src.charCodeAt(end + 1) === dollar)) break;
    end++;
  }
  if (end >= posMax || end === start) return false;
  // "$5 and $6": a closing "$" right before a digit is a price, not the end of a formula.
  if (!display && (/\s/.test(src[end - 1]!) || /\d/.test(src[end + 1] ?? ''))) return false;
  if (!silent) {
    const token = state.push('math_inline', 'math', 0);
    token.content = src.slice(start, end);
    token.markup = display ? '$$' : '$';
    token.meta = { display };
  }
  state.pos = end + open;
  return true;
}

/** A block that starts with `$$` on its own line(s) and ends with `$$`. */
function mathBlock(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  let pos = state.bMarks[startLine]! + state.tShift[startLine]!;
  let max = state.eMarks[startLine]!;
  if (state.sCount[startLine]! - state.blkIndent >= 4) return false;
  if (pos + 2 > max || state.src.slice(pos, pos + 2) !== '$$') return false;
  pos += 2;
  let firstLine = state.src.slice(pos, max);
  let lastLine = '';
  let line = startLine;
  let found = false;
  if (firstLine.trim().endsWith('$$')) {
    firstLine = firstLine.trim().slice(0, -2);
    found = true;
  }
  if (silent) return true;
  while (!found) {
    line++;
    if (line >= endLine) break;
    pos = state.bMarks[line]! + state.tShift[line]!;
    max = state.eMarks[line]!;
    if (pos < max && state.sCount[line]! < state.blkIndent) break;
    const text = state.src.slice(pos, max);
    if (text.trim().endsWith('$$')) {
      lastLine = text.trim().slice(0, -2);
      found = true;
    }
  }
  if (!found) return false;
  state.line = line + 1;
  const token = state.push('math_block', 'math', 0);
  token.block = true;
  const middle = line > startLine + 1 ? state.getLines(startLine + 1, line, state.tShift[startLine]!, false) : '';
  token.content = [firstLine, middle, lastLine].filter((part) => part.trim() !== '').join('\n');
  token.map = [startLine, state.line];
  token.markup = '$$';
  return true;
}

export const markdownMath = (md: Md): void => {
  const escape = md.utils.escapeHtml;
  md.inline.ruler.before('escape', 'math_inline', mathInline);
  md.block.ruler.before('fence', 'math_block', mathBlock, { alt: ['paragraph', 'reference', 'blockquote', 'list'] });
  md.renderer.rules['math_inline'] = (tokens, index) => {
    const token = tokens[index]!;
    const display = (token.meta as { display?: boolean } | null)?.display === true;
    return `<span class="recto-math" data-display="${display ? 'block' : 'inline'}">${escape(token.content)}</span>`;
  };
  md.renderer.rules['math_block'] = (tokens, index) =>
    `<div class="recto-math" data-display="block">${escape(tokens[index]!.content)}</div>\n`;
};

/**
 * Formula checks: LaTeX normalisation, formula match and "renders with KaTeX".
 *
 * Upstream olmOCR-Bench decides math tests by rendering both formulas with KaTeX in a headless browser and comparing
 * the rendered symbols and their relative positions, so any two spellings that render the same pass. We have no
 * browser in `app/`; instead both formulas are normalised textually (below) and the test passes when the normalised
 * formula equals, or is contained in, a normalised formula of the output. This accepts the common spelling variants
 * (spacing, `\left`/`\right`, braces around single tokens, `\dfrac`/`\frac`, `\operatorname{X}`/`\mathrm{X}`,
 * `\le`/`\leq`, `^{\prime}`/`'`, `\mathrm{d}x`/`dx`, delimiters) and rejects what a rendering comparison would
 * accept only through layout coincidences (e.g. `\over` vs `\frac`). It is stricter than upstream, never looser.
 */
import katex from 'katex';

const aliases: [RegExp, string][] = [
  [/\\[dt]frac(?![a-zA-Z])/g, '\\frac'],
  [/\\le(?![a-zA-Z])/g, '\\leq'],
  [/\\ge(?![a-zA-Z])/g, '\\geq'],
  [/\\ne(?![a-zA-Z])/g, '\\neq'],
  [/\\to(?![a-zA-Z])/g, '\\rightarrow'],
  [/\\gets(?![a-zA-Z])/g, '\\leftarrow'],
  [/\\lbrace(?![a-zA-Z])/g, '\\{'],
  [/\\rbrace(?![a-zA-Z])/g, '\\}'],
  [/\\vert(?![a-zA-Z])/g, '|'],
  [/\\lvert(?![a-zA-Z])|\\rvert(?![a-zA-Z])/g, '|'],
  [/\\ast(?![a-zA-Z])/g, '*'],
  [/\\bm(?![a-zA-Z])|\\boldsymbol(?![a-zA-Z])|\\mathbold(?![a-zA-Z])/g, '\\mathbf'],
  [/\\textbf(?![a-zA-Z])/g, '\\mathbf'],
  [/\\dots[bcmio]?(?![a-zA-Z])|\\ldots(?![a-zA-Z])/g, '\\dots'],
];

/** Commands whose only effect is upright/text font: `\mathrm{Ann}` ≡ `\operatorname{Ann}` ≡ `\text{Ann}` → `Ann`. */
const fontCommands = /\\(?:mathrm|operatorname\*?|text|textrm|textit|mathit|mathnormal|rm|mbox|hbox)\s*\{([^{}]*)\}/g;
/** Spacing and sizing commands that change nothing a reader would call a different formula. */
const spacing =
  /\\[,;:! ]|\\(?:quad|qquad|thinspace|medspace|thickspace|enspace|displaystyle|textstyle|scriptstyle|nonumber|notag|limits|nolimits)(?![a-zA-Z])/g;
const sizing = /\\(?:left|right|middle|[bB]igg?[lrm]?)(?![a-zA-Z])/g;

/** Strips surrounding math delimiters: `$…$`, `$$…$$`, `\(…\)`, `\[…\]`, and equation environments. */
export function stripMathDelimiters(latex: string): string {
  let s = latex.trim();
  const pairs: [string, string][] = [
    ['$$', '$$'],
    ['\\[', '\\]'],
    ['\\(', '\\)'],
    ['$', '$'],
  ];
  for (const [open, close] of pairs)
    if (s.startsWith(open) && s.endsWith(close) && s.length >= open.length + close.length) {
      s = s.slice(open.length, s.length - close.length).trim();
      break;
    }
  return s.replace(/\\(?:begin|end)\{(?:equation|align|gather|multline|displaymath)\*?\}/g, '').trim();
}

/** Removes braces around a single token after `^`/`_` (`x^{2}` → `x^2`), empty groups and doubled braces. */
function simplifyBraces(s: string): string {
  let previous = '';
  let out = s;
  while (out !== previous) {
    previous = out;
    out = out
      .replace(/([\^_])\{(\\[a-zA-Z]+|[^{}\\])\}/g, '$1$2')
      .replace(/\{\}/g, '')
      .replace(/\{\{([^{}]*)\}\}/g, '{$1}');
  }
  return out;
}

/** Canonical text of a LaTeX formula for comparison (see the module comment for what is equated). */
export function normalizeLatex(latex: string): string {
  let s = stripMathDelimiters(latex);
  s = s.replace(/\\(?:tag|label)\{[^{}]*\}/g, '');
  for (const [pattern, replacement] of aliases) s = s.replace(pattern, replacement);
  s = s.replace(spacing, ' ').replace(sizing, '').replace(/~/g, ' ');
  let previous = '';
  while (previous !== s) {
    previous = s;
    s = s.replace(fontCommands, '$1');
  }
  s = s.replace(/\^\{?\\prime\}?/g, "'").replace(/\\prime/g, "'");
  // Remove spaces except where they end a command before a letter (`\in x` must not become `\inx`).
  s = s.replace(/(\\[a-zA-Z]+)\s+(?=[a-zA-Z])/g, '$1\u0000').replace(/\s+/g, '').replace(/\u0000/g, ' ');
  s = simplifyBraces(s);
  return s;
}

/**
 * `$…$` as Pandoc's tex_math_dollars reads it: the opening `$` has a non-space character right after it, the closing
 * one a non-space character right before it and no digit right after it. Without these conditions a line of prices
 * ("12 $10.00 $120.00") is one "formula" — invoices would get a format check score for their currency signs.
 */
// Inside, an escape (`\` and the character after it) or any other character but `$`, a newline or `\`: the two
// alternatives never start alike, so a long run cannot be split two ways (testing/regexBacktracking.test.ts).
const inlineDollarMath = /(?<![\\$])\$(?![$\s])((?:\\[^\n]|[^$\n\\])*?(?:\\\$|[^$\s\\]))\$(?![$\d])/g;
const inlineDollarMathSticky = new RegExp(inlineDollarMath.source, 'y');

/** The `$…$` formula (by the rule above) whose opening `$` is at `index`: its LaTeX and where it ends, or null. */
export function inlineDollarMathAt(text: string, index: number): { latex: string; end: number } | null {
  inlineDollarMathSticky.lastIndex = index;
  const match = inlineDollarMathSticky.exec(text);
  return match ? { latex: match[1]!, end: index + match[0].length } : null;
}

/** Math segments in Markdown: `$$…$$`, `\[…\]`, `\(…\)`, `$…$`, and `<math>`-less LaTeX environments. */
export function extractMath(markdown: string): string[] {
  const found: string[] = [];
  const patterns = [
    /\$\$([\s\S]+?)\$\$/g,
    /\\\[([\s\S]+?)\\\]/g,
    /\\\(([\s\S]+?)\\\)/g,
    inlineDollarMath,
    /\\begin\{(equation|align|gather|multline)\*?\}([\s\S]+?)\\end\{\1\*?\}/g,
  ];
  let rest = markdown;
  for (const pattern of patterns) {
    rest = rest.replace(pattern, (...match: string[]) => {
      found.push(match.length > 4 && pattern.source.startsWith('\\\\begin') ? match[2]! : match[1]!);
      return ' ';
    });
  }
  return found.map((m) => m.trim()).filter(Boolean);
}

/** Recent verdicts: a page's formulas are checked again on every saved revision, mostly unchanged. */
const renderVerdicts = new Map<string, boolean>();
const maxRenderVerdicts = 2000;

/**
 * True when KaTeX can render the formula (LaTeX with or without delimiters) without an error. Renders MathML only:
 * the same parser and the same errors as full HTML output, at a fraction of the cost.
 */
export function rendersWithKatex(latex: string, displayMode = true): boolean {
  const key = `${displayMode ? 'D' : 'I'}${latex}`;
  const known = renderVerdicts.get(key);
  if (known !== undefined) return known;
  let ok: boolean;
  try {
    katex.renderToString(stripMathDelimiters(latex), { throwOnError: true, displayMode, strict: 'ignore', output: 'mathml' });
    ok = true;
  } catch {
    ok = false;
  }
  if (renderVerdicts.size >= maxRenderVerdicts) renderVerdicts.delete(renderVerdicts.keys().next().value!);
  renderVerdicts.set(key, ok);
  return ok;
}

/** Does the formula occur in some math segment of the Markdown (after normalisation)? */
export function markdownContainsFormula(markdown: string, formula: string): boolean {
  const target = normalizeLatex(formula);
  if (!target) return false;
  return extractMath(markdown).some((segment) => normalizeLatex(segment).includes(target));
}

export interface FormulaMatch {
  /** Normalised forms are equal. */
  exact: boolean;
  /** 1 − normalised edit distance of the normalised forms. */
  similarity: number;
  /** The predicted formula renders with KaTeX. */
  renders: boolean;
}

export function matchFormula(predicted: string, reference: string, similarity: (a: string, b: string) => number): FormulaMatch {
  const p = normalizeLatex(predicted);
  const r = normalizeLatex(reference);
  return { exact: p === r, similarity: similarity(p, r), renders: rendersWithKatex(predicted) };
}

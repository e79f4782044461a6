/**
 * Inline formulas from a text layer's own structure: within a row, words set smaller and raised (superscripts) or
 * lowered (subscripts) relative to the row's baseline, math operators, Greek letters and math fonts (CMMI, CMSY, …)
 * mark a run of math tokens; such a run is written `$…$` in LaTeX with the scripts as `^{…}` / `_{…}`. Only what
 * the page shows is written: a run needs a script, or a math font, or a math operator beside single-letter
 * variables; prose words end it. Stacked structure (fractions, limits above ∫) is not rebuilt.
 */
import type { LayoutWord } from './layoutTypes.js';
import { median } from './layoutTypes.js';

const SYMBOLS: Record<string, string> = {
  α: '\\alpha', β: '\\beta', γ: '\\gamma', δ: '\\delta', ε: '\\varepsilon', ϵ: '\\epsilon', ζ: '\\zeta', η: '\\eta',
  θ: '\\theta', ϑ: '\\vartheta', ι: '\\iota', κ: '\\kappa', λ: '\\lambda', μ: '\\mu', ν: '\\nu', ξ: '\\xi', π: '\\pi',
  ρ: '\\rho', σ: '\\sigma', τ: '\\tau', υ: '\\upsilon', φ: '\\phi', ϕ: '\\phi', χ: '\\chi', ψ: '\\psi', ω: '\\omega',
  Γ: '\\Gamma', Δ: '\\Delta', Θ: '\\Theta', Λ: '\\Lambda', Ξ: '\\Xi', Π: '\\Pi', Σ: '\\Sigma', Φ: '\\Phi', Ψ: '\\Psi',
  Ω: '\\Omega', '−': '-', '×': '\\times', '÷': '\\div', '±': '\\pm', '∓': '\\mp', '⋅': '\\cdot', '·': '\\cdot',
  '∫': '\\int', '∑': '\\sum', '∏': '\\prod', '∇': '\\nabla', '∂': '\\partial', '≤': '\\le', '≥': '\\ge', '≠': '\\neq',
  '≈': '\\approx', '≡': '\\equiv', '∈': '\\in', '∉': '\\notin', '⊂': '\\subset', '⊆': '\\subseteq', '∪': '\\cup',
  '∩': '\\cap', '∞': '\\infty', '→': '\\to', '←': '\\leftarrow', '⇒': '\\Rightarrow', '√': '\\sqrt', '∀': '\\forall',
  '∃': '\\exists', '′': "'", '∗': '*', '∘': '\\circ', '⟨': '\\langle', '⟩': '\\rangle',
};
const OPERATOR = /^[=+\-−×÷±∓⋅·∫∑∏∇∂≤≥≠≈≡∈∉⊂⊆∪∩→⇒<>/∘]$/u;
/** Binary operators: a formula does not start with one (unary − and + may). */
const BINARY = /^[=×÷±∓⋅·≤≥≠≈≡∈∉⊂⊆∪∩→⇒<>/∘]$/u;
const STRONG_OPERATOR = /[=∫∑∏∇∂≤≥≠≈≡∈∉⊂⊆→⇒±]/u;
const GREEK = /^[\u0391-\u03A9\u03B1-\u03C9\u03D1\u03D5\u03F5]+$/u;
const MATH_FONT = /(CMMI|CMSY|CMEX|MSBM|MSAM|Math|Symbol|STIX.*Math|Cambria.?Math)/iu;
/** Tokens a formula is made of: single letters, numbers, operators, brackets, Greek, known functions. */
const MATH_TOKEN = /^([A-Za-z]|[A-Za-z]?[\u0391-\u03C9\u03D1\u03D5\u03F5]+|\d+([.,]\d+)?|[()[\]{}|,]|[=+\-−×÷±∓⋅·∫∑∏∇∂≤≥≠≈≡∈∉⊂⊆∪∩∞→⇒√<>/∘′∗]|sin|cos|tan|log|ln|exp|lim|max|min|det|dx|dy|dt)$/u;
const FUNCTIONS = new Set(['sin', 'cos', 'tan', 'log', 'ln', 'exp', 'lim', 'max', 'min', 'det']);

type Script = 'sup' | 'sub' | null;

/** Superscript / subscript / on the baseline, for each word of a row (words left to right). */
export function scriptsOf(words: readonly LayoutWord[]): Script[] {
  const base = median(words.flatMap((w) => Array.from(w.text, () => w.fontSize)));
  const full = words.filter((w) => w.fontSize >= 0.9 * base);
  if (base <= 0 || full.length === 0) return words.map(() => null);
  const baseline = median(full.map((w) => w.box[3]));
  const top = median(full.map((w) => w.box[1]));
  return words.map((w) => {
    if (w.fontSize > 0.85 * base) return null;
    if (w.box[3] < baseline - 0.2 * base) return 'sup';
    if (w.box[3] > baseline + 0.1 * base && w.box[1] > top + 0.2 * base) return 'sub';
    return null;
  });
}

const latexToken = (text: string): string => {
  if (FUNCTIONS.has(text)) return `\\${text}`;
  return Array.from(text, (c) => SYMBOLS[c] ?? c)
    .map((t, i, all) => (t.startsWith('\\') && i < all.length - 1 && /^[A-Za-z]/u.test(all[i + 1]) ? `${t} ` : t))
    .join('');
};

/**
 * A row's text with its formulas: `escape` is applied to the words outside formulas, and `join` joins pieces.
 * Returns null when the row has no formula (the caller writes it as before).
 */
export function rowWithFormulas(words: readonly LayoutWord[], escape: (text: string) => string): string | null {
  if (words.length < 2) return null;
  const scripts = scriptsOf(words);
  const base = median(words.map((w) => w.fontSize));
  const isToken = (w: LayoutWord, i: number): boolean => scripts[i] !== null || MATH_TOKEN.test(w.text) || (w.fontName !== undefined && MATH_FONT.test(w.fontName) && w.text.length <= 3);
  const pieces: string[] = [];
  let i = 0;
  let found = false;
  while (i < words.length) {
    if (!isToken(words[i], i)) {
      pieces.push(escape(words[i].text));
      i++;
      continue;
    }
    let j = i;
    // A run also ends at a wide gap: two formulas side by side are two formulas.
    while (j < words.length && isToken(words[j], j) && !(j > i && words[j].box[0] - words[j - 1].box[2] > 1.5 * base)) j++;
    // Trim leading/trailing punctuation-only tokens that belong to the sentence.
    let [start, end] = [i, j];
    while (start < end && /^[,()]$/u.test(words[start].text) && scripts[start] === null) start++;
    while (end > start && /^[,.;:]$/u.test(words[end - 1].text) && scripts[end - 1] === null) end--;
    // A formula neither starts nor ends with an operator or bracket left open: those stay text.
    while (start < end && scripts[start] === null && (BINARY.test(words[start].text) || /^[)\]}]$/u.test(words[start].text))) start++;
    while (end > start && scripts[end - 1] === null && (BINARY.test(words[end - 1].text) || /^[-+−([{]$/u.test(words[end - 1].text))) end--;
    const run = words.slice(start, end);
    const runScripts = scripts.slice(start, end);
    const hasScript = runScripts.some((s) => s !== null) && runScripts[0] === null;
    const hasMathFont = run.some((w) => w.fontName !== undefined && MATH_FONT.test(w.fontName));
    const hasOperator = run.some((w) => STRONG_OPERATOR.test(w.text) || OPERATOR.test(w.text));
    const variables = run.filter((w) => /^[A-Za-z]$|^[\u0391-\u03C9]+$/u.test(w.text)).length;
    const isMath = run.length >= 3 && ((hasScript && (hasOperator || variables > 0)) || (hasMathFont && hasOperator) || (run.some((w) => GREEK.test(w.text) || /[∫∑∏∇∂]/u.test(w.text)) && hasOperator && variables >= 1));
    for (let k = i; k < start; k++) pieces.push(escape(words[k].text));
    if (isMath) {
      found = true;
      let latex = '';
      run.forEach((w, k) => {
        const token = latexToken(w.text);
        const script = runScripts[k];
        if (script) {
          const mark = script === 'sup' ? '^' : '_';
          // Consecutive tokens of one script share a group: `^{i\pi}`.
          if (k > 0 && runScripts[k - 1] === script) latex = `${latex.slice(0, -1)} ${token}}`;
          else latex += `${mark}{${token}}`;
        } else latex += `${latex ? ' ' : ''}${token}`;
      });
      pieces.push(`$${latex}$`);
    } else for (const w of run) pieces.push(escape(w.text));
    for (let k = end; k < j; k++) pieces.push(escape(words[k].text));
    i = j;
  }
  return found ? pieces.join(' ') : null;
}

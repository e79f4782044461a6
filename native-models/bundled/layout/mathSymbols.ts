/**
 * What a text-layer word says as mathematics: its characters as LaTeX, what its font tells (math italic, TeX's
 * calligraphic / blackboard / fraktur / extension fonts, bold), and how strongly it marks a formula. Pure tables and
 * small functions; the geometry lives in mathLayout.ts.
 */
import type { LayoutWord } from './layoutTypes.js';

export const GREEK_LATEX: Readonly<Record<string, string>> = {
  α: '\\alpha', β: '\\beta', γ: '\\gamma', δ: '\\delta', ε: '\\varepsilon', ϵ: '\\epsilon', ζ: '\\zeta', η: '\\eta',
  θ: '\\theta', ϑ: '\\vartheta', ι: '\\iota', κ: '\\kappa', ϰ: '\\varkappa', λ: '\\lambda', μ: '\\mu', ν: '\\nu',
  ξ: '\\xi', π: '\\pi', ϖ: '\\varpi', ρ: '\\rho', ϱ: '\\varrho', σ: '\\sigma', ς: '\\varsigma', τ: '\\tau',
  υ: '\\upsilon', φ: '\\phi', ϕ: '\\phi', χ: '\\chi', ψ: '\\psi', ω: '\\omega', Γ: '\\Gamma', Δ: '\\Delta',
  Θ: '\\Theta', Λ: '\\Lambda', Ξ: '\\Xi', Π: '\\Pi', Σ: '\\Sigma', Υ: '\\Upsilon', Φ: '\\Phi', Ψ: '\\Psi',
  Ω: '\\Omega', µ: '\\mu',
};

/** Unicode math symbols → LaTeX. ASCII operators and brackets are written as themselves. */
export const SYMBOL_LATEX: Readonly<Record<string, string>> = {
  '−': '-', '×': '\\times', '÷': '\\div', '±': '\\pm', '∓': '\\mp', '⋅': '\\cdot', '·': '\\cdot', '∘': '\\circ',
  '∗': '*', '∙': '\\bullet', '⊕': '\\oplus', '⊗': '\\otimes', '⊙': '\\odot', '∑': '\\sum', '∏': '\\prod',
  '∐': '\\coprod', '∫': '\\int', '∬': '\\iint', '∭': '\\iiint', '∮': '\\oint', '⋃': '\\bigcup', '⋂': '\\bigcap',
  '⨁': '\\bigoplus', '⨂': '\\bigotimes', '⋁': '\\bigvee', '⋀': '\\bigwedge', '∇': '\\nabla', '∂': '\\partial',
  '≤': '\\leq', '≥': '\\geq', '≦': '\\leqq', '≧': '\\geqq', '≠': '\\neq', '≈': '\\approx', '≡': '\\equiv',
  '≅': '\\cong', '∼': '\\sim', '≃': '\\simeq', '∝': '\\propto', '≪': '\\ll', '≫': '\\gg', '≺': '\\prec',
  '≻': '\\succ', '⪯': '\\preceq', '⪰': '\\succeq', '∈': '\\in', '∉': '\\notin', '∋': '\\ni', '⊂': '\\subset',
  '⊃': '\\supset', '⊆': '\\subseteq', '⊇': '\\supseteq', '⊊': '\\subsetneq', '∪': '\\cup', '∩': '\\cap',
  '∧': '\\wedge', '∨': '\\vee', '¬': '\\neg', '∀': '\\forall', '∃': '\\exists', '∄': '\\nexists', '∅': '\\emptyset',
  '∞': '\\infty', '→': '\\rightarrow', '←': '\\leftarrow', '↔': '\\leftrightarrow', '⇒': '\\Rightarrow',
  '⇐': '\\Leftarrow', '⇔': '\\Leftrightarrow', '↦': '\\mapsto', '↑': '\\uparrow', '↓': '\\downarrow',
  '⟶': '\\longrightarrow', '√': '\\sqrt', '′': "'", '″': "''", '‖': '\\|', '⊥': '\\perp', '∥': '\\parallel',
  '⟨': '\\langle', '⟩': '\\rangle', '⌊': '\\lfloor', '⌋': '\\rfloor', '⌈': '\\lceil', '⌉': '\\rceil',
  'ℓ': '\\ell', 'ℏ': '\\hbar', 'ℜ': '\\Re', 'ℑ': '\\Im', '℘': '\\wp', 'ℵ': '\\aleph', '†': '\\dagger',
  '‡': '\\ddagger', '⋯': '\\cdots', '…': '\\dots', '⋮': '\\vdots', '⋱': '\\ddots', '□': '\\square', '∖': '\\setminus',
  '⊢': '\\vdash', '⊨': '\\models', '∠': '\\angle', '△': '\\triangle', '⋆': '\\star', '∣': '\\mid', '≔': ':=',
  'ℕ': '\\mathbb{N}', 'ℤ': '\\mathbb{Z}', 'ℚ': '\\mathbb{Q}', 'ℝ': '\\mathbb{R}', 'ℂ': '\\mathbb{C}',
  '{': '\\{', '}': '\\}', '%': '\\%', '#': '\\#', '&': '\\&', $: '\\$', _: '\\_', '^': '\\text{\\textasciicircum}', '~': '\\sim',
  '\\': '\\backslash',
};

/** Operators that take limits above and below in display style (∫ takes them at its side: they are scripts). */
export const LIMIT_OPERATORS = new Set(['∑', '∏', '∐', '⋃', '⋂', '⨁', '⨂', '⋁', '⋀']);
export const BIG_OPERATORS = new Set([...LIMIT_OPERATORS, '∫', '∬', '∭', '∮']);

/** Combining marks → accent commands (a word "û" is "u" + U+0302 after NFD). */
const ACCENT_LATEX: Readonly<Record<string, string>> = {
  '\u0300': '\\grave', '\u0301': '\\acute', '\u0302': '\\hat', '\u0303': '\\tilde', '\u0304': '\\bar',
  '\u0306': '\\breve', '\u0307': '\\dot', '\u0308': '\\ddot', '\u030c': '\\check', '\u20d7': '\\vec',
};

/** Function names LaTeX sets upright with their own commands. */
export const FUNCTION_NAMES = new Set([
  'sin', 'cos', 'tan', 'sinh', 'cosh', 'tanh', 'arcsin', 'arccos', 'arctan', 'log', 'ln', 'exp', 'lim', 'liminf',
  'limsup', 'max', 'min', 'det', 'dim', 'ker', 'gcd',
]);

/**
 * TeX's math extension font (cmex) has no Unicode map in most PDFs: pdf.js then hands out its character codes as
 * ASCII. The codes of the big delimiters and operators, where the ASCII character is not itself a plausible reading
 * (a "(" may be a mapped parenthesis: it is kept as it is).
 */
const CMEX_CODES: Readonly<Record<string, string>> = {
  '"': '[', '#': ']', $: '⌊', '%': '⌋', '&': '⌈', "'": '⌉', '*': '⟨', '+': '⟩', ',': '/', '-': '\\',
  '.': '/', '0': '(', '1': ')', '2': '[', '3': ']', '4': '[', '5': ']', '6': '[', '7': ']', '8': '{', '9': '}',
  ':': '{', ';': '}', '<': '{', '=': '}', '>': '{', '@': '(', A: ')', B: '(', C: ')', D: '⟨', E: '⟩', F: '⊔', G: '⊔',
  H: '∮', I: '∮', J: '⊙', K: '⊙', L: '⊕', M: '⊕', N: '⊗', O: '⊗', P: '∑', Q: '∏', R: '∫', S: '⋃', T: '⋂',
  U: '⊎', V: '⋀', W: '⋁', X: '∑', Y: '∏', Z: '∫', '`': '∐', a: '∐', h: '[', i: ']', j: '⌊', k: '⌋', l: '⌈',
  m: '⌉', n: '{', o: '}', p: '√', q: '√', r: '√', s: '√',
};

export interface FontTraits {
  /** A font made for mathematics (TeX's cm/ams math fonts, *Math*, Symbol…). */
  math: boolean;
  /** TeX's extension font: big delimiters and operators, drawn hanging below their baseline. */
  extension: boolean;
  /** Uppercase letters are calligraphic (cmsy), blackboard (msbm), fraktur (eufm), script (rsfs). */
  alphabet: 'mathcal' | 'mathbb' | 'mathfrak' | 'mathscr' | null;
  bold: boolean;
  italic: boolean;
}

const MATH_FONT = /(CMMI|CMSY|CMEX|CMBSY|MSAM|MSBM|EUFM|EUFB|EUSM|EURM|RSFS|WASY|STMARY|TXSY|TXMI|TXEX|PXSY|PXMI|PXEX|ESINT|Math|Symbol|STIX|MnSymbol|XITS)/iu;
const traitCache = new Map<string, FontTraits>();

/** The font's family, without subset prefix and style ("OMNAXK+URWPalladioL-Ital" → "URWPalladioL"). */
export function fontFamily(fontName: string | undefined): string {
  return (fontName ?? '').replace(/^[A-Z]{6}\+/u, '').replace(/[-,].*$/u, '').replace(/(PSMT|MT|PS)$/u, '');
}

export function fontTraits(fontName: string | undefined): FontTraits {
  const name = fontName ?? '';
  const cached = traitCache.get(name);
  if (cached) return cached;
  // Subset prefixes ("OMNAXK+") say nothing about the font.
  const bare = name.replace(/^[A-Z]{6}\+/u, '');
  const traits: FontTraits = {
    math: MATH_FONT.test(bare),
    extension: /CMEX|TXEX|PXEX|ESINT/iu.test(bare),
    alphabet: /CMSY|CMBSY|EUSM/iu.test(bare)
      ? 'mathcal'
      : /MSBM|BBOLD|DSROM/iu.test(bare)
        ? 'mathbb'
        : /EUF[MB]/iu.test(bare)
          ? 'mathfrak'
          : /RSFS/iu.test(bare)
            ? 'mathscr'
            : null,
    bold: /(Bold|Black|Heavy|Semibold|Demi|CMBX|CMMIB|CMBSY|-Bd\b|\bBd\b)/iu.test(bare),
    italic: /(Ital|Oblique|Slanted|-It\b|CMMI|CMTI|CMSL)/iu.test(bare),
  };
  traitCache.set(name, traits);
  return traits;
}

/** The word's text as the page shows it: extension-font codes read as the glyphs they draw. */
export function mathText(word: LayoutWord): string {
  if (!fontTraits(word.fontName).extension) return word.text;
  return Array.from(word.text, (c) => CMEX_CODES[c] ?? c).join('');
}

/** Characters that only mathematics uses (ASCII `=+-<>/` are excluded: prose uses them too). */
const MATH_SYMBOL = /[−×÷±∓⋅∘∗∙⊕⊗⊙∑∏∐∫∬∭∮⋃⋂⨁⨂⋁⋀∇∂≤≥≦≧≠≈≡≅∼≃∝≪≫≺≻⪯⪰∈∉∋⊂⊃⊆⊇⊊∪∩∧∨∀∃∄∅∞→←↔⇒⇐⇔↦√′″‖⊥∥⟨⟩⌊⌋⌈⌉ℓℏ℘ℵ∖⊢⊨]/u;
const GREEK_CHAR = /[\u0391-\u03a9\u03b1-\u03c9\u03d1\u03d5\u03d6\u03f0\u03f1\u03f5]/u;
export const OPERATOR_TEXT = /^[=+\-−×÷±∓⋅·∘∗<>≤≥≦≧≠≈≡≅∼≃∝≪≫≺≻∈∉∋⊂⊃⊆⊇∪∩∧∨→←↔⇒⇐⇔↦|/:]+$/u;
/** Relations and binary operators: a formula neither starts (bar unary − +) nor ends with one. */
export const BINARY_TEXT = /^[=×÷⋅·∘<>≤≥≦≧≠≈≡≅∼≃∝≪≫≺≻∈∉∋⊂⊃⊆⊇∪∩∧∨→←↔⇒⇐⇔↦/:]+$/u;
/** Short words of prose that would otherwise pass for a product of variables ("is", "of", "in"…). */
const STOP_WORDS = new Set(
  ('a an as at be by do go he if in is it me my no of on or so to up us we am are and any but can for had has her him ' +
    'his how its let not now one our out see set she the two was way who why yet you all new off per via ' +
    'de la le et en du un une des les au aux il ce ou où par sur est der die das und ist im zu von den dem ein mit auf')
    .split(' '),
);

export type MathStrength = 'strong' | 'weak' | 'prose';

/**
 * How a word marks a formula. strong: a math symbol, a Greek letter, a big delimiter or a glyph of a math font;
 * weak: what a formula is made of but prose uses too (a single letter, a number, brackets, ASCII operators, a short
 * italic product of variables "gs", a function name, a glued "/Ann"); prose: anything else.
 */
export function mathStrength(word: LayoutWord): MathStrength {
  const text = mathText(word);
  const traits = fontTraits(word.fontName);
  if (text.length === 0) return 'prose';
  const letters = text.match(/\p{L}+/gu) ?? [];
  const longest = Math.max(0, ...letters.map((run) => [...run].length));
  if (MATH_SYMBOL.test(text) || GREEK_CHAR.test(text) || traits.extension) return longest <= 4 || isFunctionRun(letters) ? 'strong' : 'prose';
  if (traits.math && longest <= 3) return 'strong';
  if (!/^[\p{L}\p{N}\p{M}()[\]{}.,;:!?'+\-=<>|/*^]+$/u.test(text)) return 'prose';
  // Abbreviations: "e.g.", "i.e.", "U.S.".
  if (/\p{L}\.\p{L}/u.test(text)) return 'prose';
  if (letters.length === 0) return 'weak';
  // A function name, not an abbreviation ending a sentence ("5 min.").
  if (letters.every((run) => FUNCTION_NAMES.has(run))) return /[.,;:]$/u.test(text) ? 'prose' : 'weak';
  // The article "a" is a variable where the type says so (italic, as TeX sets variables).
  if (longest === 1) return STOP_WORDS.has(text.toLowerCase()) && /^\p{L}+$/u.test(text) && text !== text.toUpperCase() && !traits.italic ? 'prose' : 'weak';
  // "gs", "ux": products of variables in an italic font; "/Ann", "Ann_R(": upright names glued to math characters.
  if (longest <= 3 && traits.italic && !letters.some((run) => STOP_WORDS.has(run.toLowerCase()))) return 'weak';
  if (/[()[\]{}/=+<>|^]/u.test(text) && longest <= 4 && !/^\p{L}+[.,;:!?]?$/u.test(text) && !/^\(?\p{L}+[.,;:)]*$/u.test(text)) return 'weak';
  return 'prose';
}

function isFunctionRun(runs: string[]): boolean {
  return runs.length > 0 && runs.every((run) => FUNCTION_NAMES.has(run));
}

/** A word that is a (big) operator taking limits or scripts: ∑ ∫ … */
export function bigOperatorOf(word: LayoutWord): string | undefined {
  const text = mathText(word);
  return BIG_OPERATORS.has(text) ? text : undefined;
}

export function isGreekOrSymbol(text: string): boolean {
  return MATH_SYMBOL.test(text) || GREEK_CHAR.test(text);
}

/** Letters (variables) in a text: a formula needs one beside its operators. */
export function hasVariable(text: string): boolean {
  return /[\p{L}]/u.test(text);
}

export interface LatexStyle {
  /** Write bold letters as \mathbf (only where the formula mixes bold and regular type). */
  boldLetters: boolean;
}

/** One word's text in LaTeX: symbols as commands, font alphabets, upright names, accents. */
export function wordLatex(word: LayoutWord, style: LatexStyle): string {
  const traits = fontTraits(word.fontName);
  const text = mathText(word).normalize('NFD');
  const parts: string[] = [];
  const runs = text.match(/\p{L}[\p{L}\p{M}]*|[\s\S]/gu) ?? [];
  for (const run of runs) {
    if (/^\p{L}/u.test(run)) parts.push(letterRunLatex(run, traits, style));
    else parts.push(SYMBOL_LATEX[run] ?? GREEK_LATEX[run] ?? run);
  }
  return joinLatex(parts);
}

function letterRunLatex(run: string, traits: FontTraits, style: LatexStyle): string {
  const letters = run.match(/\p{L}\p{M}*/gu) ?? [];
  const plain = letters.map((l) => l[0]).join('');
  if (letters.length > 1 && FUNCTION_NAMES.has(plain) && letters.every((l) => l.length === 1)) return `\\${plain}`;
  const pieces = letters.map((letter) => {
    const base = letter[0];
    let latex = GREEK_LATEX[base] ?? base;
    if (traits.alphabet && /[A-Z]/u.test(base)) latex = `\\${traits.alphabet}{${base}}`;
    for (const mark of letter.slice(1)) {
      const accent = ACCENT_LATEX[mark];
      if (accent) latex = `${accent}{${latex}}`;
    }
    return latex;
  });
  // A name of several letters in an upright text font ("Ann", "mod") is upright in the formula too.
  const upright = !traits.italic && !traits.math && letters.length > 1 && letters.every((l) => /^[A-Za-z]$/u.test(l));
  let latex = upright ? `\\operatorname{${plain}}` : joinLatex(pieces);
  if (style.boldLetters && traits.bold && !upright) latex = `\\mathbf{${latex}}`;
  return latex;
}

/** Joins LaTeX pieces, with a space only where a command name would otherwise run into a letter (`\in S`). */
export function joinLatex(parts: readonly string[]): string {
  let out = '';
  for (const part of parts) {
    if (!part) continue;
    if (/\\[A-Za-z]+$/u.test(out) && /^[A-Za-z0-9]/u.test(part)) out += ' ';
    out += part;
  }
  return out;
}

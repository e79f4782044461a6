import { describe, expect, it } from 'vitest';
import type { Box } from '../../../app/model/extraction.js';
import { normalizeLatex, rendersWithKatex } from '../../../app/checks/formula.js';
import { foldFormulas, rowWithFormulas } from './formulas.js';
import { layoutPage } from './layoutPage.js';
import type { LayoutWord } from './layoutTypes.js';

/**
 * A word as a text layer gives it: `x` its left edge, `baseline` its baseline, box from 0.75 size above to 0.25 below,
 * 0.5 size per character wide (or `width`).
 */
function w(text: string, x: number, baseline: number, size = 24, fontName = 'Times-Roman', width?: number): LayoutWord {
  const right = x + (width ?? 0.5 * size * [...text].length);
  return { text, box: [x, baseline - 0.75 * size, right, baseline + 0.25 * size], confidence: 1, fontSize: size, fontName };
}
/** Lays words out left to right from `x` with a small gap; each item is [text, font?, size?, raise?]. */
function run(x: number, baseline: number, items: Array<[string, string?, number?, number?]>, gap = 3): LayoutWord[] {
  const words: LayoutWord[] = [];
  let at = x;
  for (const [text, font = 'CMMI10', size = 24, raise = 0] of items) {
    const word = w(text, at, baseline - raise, size, font);
    words.push(word);
    at = word.box[2] + (size < 24 ? 0 : gap);
  }
  return words;
}
const plain = (t: string): string => t;
const formulasOf = (words: LayoutWord[], rulings: Box[] = []): string[] =>
  foldFormulas(words, rulings)
    .words.filter((word) => word.formula)
    .map((word) => word.formula!.latex);
const markdownOf = (words: LayoutWord[], rulings: Box[] = []): string => layoutPage(words, { source: 'text-layer', pageHeight: 1400, rulings }).markdown;

describe('foldFormulas: scripts', () => {
  it('writes superscripts and Greek letters as LaTeX and keeps two formulas side by side apart', () => {
    const left = run(100, 400, [['e', 'Times-Italic'], ['iπ', 'Times-Italic', 17, 10], ['+', 'Times-Roman'], ['1', 'Times-Roman'], ['=', 'Times-Roman'], ['0', 'Times-Roman']]);
    const right = run(700, 400, [['a', 'Times-Italic'], ['2', 'Times-Roman', 17, 10], ['+', 'Times-Roman'], ['b', 'Times-Italic'], ['2', 'Times-Roman', 17, 10], ['=', 'Times-Roman'], ['c', 'Times-Italic'], ['2', 'Times-Roman', 17, 10]]);
    expect(formulasOf([...left, ...right]).map(normalizeLatex)).toEqual(['e^{i\\pi}+1=0', 'a^2+b^2=c^2']);
  });

  it('writes subscripts and leaves the surrounding prose as text, inline', () => {
    const words = [w('where', 100, 400), ...run(170, 400, [['x'], ['i', 'CMMI7', 17, -5], ['≤', 'CMSY10'], ['n']]), w('holds.', 260, 400)];
    const folded = foldFormulas(words).words;
    expect(rowWithFormulas(folded, plain)).toBe('where $x_{i} \\leq n$ holds.');
    expect(folded.find((word) => word.formula)!.formula!.display).toBe(false);
  });

  it('keeps second-order scripts and primes: λ_{g′} = λ_g', () => {
    const words = run(100, 400, [['λ', 'CMMI10'], ['g', 'CMMI7', 17, -5], ['′', 'CMSY7', 13, 2], ['=', 'CMR10'], ['λ', 'CMMI10'], ['g', 'CMMI7', 17, -5]]);
    // The prime is set on the subscript's level, raised from it: a script of the script.
    words[2].box = [words[1].box[2], 395 - 0.75 * 13, words[1].box[2] + 5, 395 + 0.25 * 13];
    expect(formulasOf(words).map(normalizeLatex)).toEqual(["\\lambda_{g'}=\\lambda_g"]);
  });

  it('reads what TeX fonts say: calligraphic cmsy capitals, big brackets of cmex, upright names', () => {
    const words = run(100, 400, [['u'], ['∈', 'CMSY10'], ['"', 'CMEX10'], ['R'], ['/Ann', 'CMR10'], ['R', 'CMMI7', 17, -5], ['(', 'CMR10'], ['I', 'CMSY10'], ['i', 'CMMI7', 17, -5], [')', 'CMR10'], ['#', 'CMEX10']]);
    expect(formulasOf(words).map(normalizeLatex)).toEqual(['u\\in[R/Ann_R(\\mathcal{I}_i)]']);
  });
});

describe('foldFormulas: stacked structure', () => {
  it('builds a fraction from a ruling with math above and below it, and gives the bar back as used', () => {
    // ∇ × E = − ∂B/∂t: the bar on the axis of "−", ∂B above, ∂t below; E and B bold beside regular type.
    const line = run(100, 400, [['∇', 'CMSY10'], ['×', 'CMSY10'], ['E', 'Times-Bold'], ['=', 'CMR10'], ['−', 'CMSY10']]);
    const bar: Box = [line[4].box[2] + 4, 392, line[4].box[2] + 34, 393.5];
    const numerator = run(bar[0] + 2, 384, [['∂', 'CMMI10'], ['B', 'Times-Bold']], 0);
    const denominator = run(bar[0] + 4, 418, [['∂', 'CMMI10'], ['t', 'CMMI10']], 0);
    const ruling: Box = [50, 600, 900, 601];
    const folded = foldFormulas([...line, ...numerator, ...denominator], [ruling, bar]);
    const formulas = folded.words.filter((word) => word.formula);
    expect(formulas.map((word) => normalizeLatex(word.formula!.latex))).toEqual(['\\nabla\\times\\mathbf{E}=-\\frac{\\partial\\mathbf{B}}{\\partial t}']);
    expect(formulas[0].formula!.display).toBe(true);
    expect(folded.rulings).toEqual([ruling]);
  });

  it('writes limits above and below a summation, and an integral with its limits at its side', () => {
    const left = run(100, 400, [['S'], ['=', 'CMR10']]);
    const sum = w('X', 133, 410, 36, 'CMEX10'); // cmex's display summation, as pdf.js reads it without a Unicode map
    const lower = run(129, 448, [['i', 'CMMI7', 17], ['=', 'CMR7', 17], ['1', 'CMR7', 17]], 0);
    const upper = run(138, 380, [['n', 'CMMI7', 17]], 0);
    const rest = run(156, 400, [['x'], ['i', 'CMMI7', 17, -5]]);
    expect(formulasOf([...left, sum, ...lower, ...upper, ...rest]).map(normalizeLatex)).toEqual(['S=\\sum_{i=1}^nx_i']);

    const integral = run(100, 800, [['∫', 'CMEX10'], ['a', 'CMMI7', 17, -8], ['b', 'CMMI7', 17, 14], ['f'], ['(', 'CMR10'], ['x'], [')', 'CMR10'], ['dx']]);
    integral[0].text = 'R'; // cmex's text-style integral
    integral[2].box = [integral[0].box[2] + 6, integral[2].box[1], integral[0].box[2] + 14, integral[2].box[3]];
    expect(formulasOf(integral).map(normalizeLatex)).toEqual(['\\int_a^bf(x)dx']);
  });

  it('displays a formula alone on its line as $$…$$ between paragraphs of prose', () => {
    const prose = (y: number, text: string): LayoutWord[] => {
      let x = 100;
      return text.split(' ').map((t) => {
        const word = w(t, x, y);
        x = word.box[2] + 8;
        return word;
      });
    };
    const formula = run(300, 480, [['a', 'Times-Italic'], ['2', 'Times-Roman', 17, 10], ['+', 'Times-Roman'], ['b', 'Times-Italic'], ['2', 'Times-Roman', 17, 10]]);
    const words = [...prose(400, 'The sides of a right triangle and its'), ...prose(430, 'hypotenuse c are such that the sum'), ...formula, ...prose(530, 'equals the square of the hypotenuse.')];
    const markdown = markdownOf(words);
    expect(markdown).toContain('$$a^{2} + b^{2}$$');
    expect(markdown.split('\n').filter((line) => line.includes('$$'))).toEqual(['$$a^{2} + b^{2}$$']);
  });
});

describe('foldFormulas: never invents', () => {
  it('leaves prose, footnote marks, small capitals, plain numbers and dashes as text', () => {
    const cases: LayoutWord[][] = [
      [w('The', 100, 400), w('results', 160, 400), w('are', 280, 400), w('good', 340, 400)],
      [w('Shaffer', 100, 400), w('1', 190, 390, 17), w('and', 220, 400), w('Grant', 280, 400)],
      [w('Total', 100, 400), w('=', 180, 400), w('12', 200, 400)],
      // "A CKNOWLEDGEMENTS": smaller capitals of the same face on the same baseline.
      [w('A', 100, 400, 24, 'Palatino-Roman'), w('CKNOWLEDGEMENTS', 112, 400, 19, 'Palatino-Roman')],
      // "B X": a smaller letter on the baseline in a text face.
      [w('Pack:', 100, 400, 19, 'Helvetica'), w('B', 160, 400, 19, 'Helvetica-Bold'), w('X', 172, 400, 15, 'Helvetica-Bold'), w('S:', 190, 400, 19, 'Helvetica')],
      // A dash between a number and a registration: "− B 421 938 861 RCS Paris".
      [w('Euros', 100, 400, 14), w('−', 150, 400, 14), w('B', 162, 400, 14), w('421', 172, 400, 14), w('938', 200, 400, 14), w('RCS', 230, 400, 14)],
      // Prose in the same words as a formula: "(e, i, π, 1, 0), revealing".
      [w('(e,', 100, 400), w('i,', 140, 400), w('π,', 165, 400), w('1,', 195, 400), w('0),', 225, 400), w('revealing', 265, 400)],
    ];
    for (const words of cases) expect(formulasOf(words)).toEqual([]);
  });

  it('does not read a table cell border, or an underline, as a fraction bar', () => {
    // Two header cells over two value cells, each cell drawn as its own box.
    const cells: LayoutWord[] = [w('1990', 120, 400), w('1992', 220, 400), w('0.323', 115, 430), w('0.272', 215, 430)];
    const borders: Box[] = [[100, 408, 199, 409], [201, 408, 300, 409], [99, 380, 100, 440], [199, 380, 201, 440], [300, 380, 301, 440]];
    expect(formulasOf(cells, borders)).toEqual([]);
    // An underlined "x" in a sentence, with the next line's "y" below it.
    const underlined = [w('the', 100, 400), w('x', 150, 400, 24, 'Times-Italic'), w('axis', 170, 400), w('y', 150, 428, 24, 'Times-Italic'), w('is', 170, 428)];
    expect(formulasOf(underlined, [[150, 403, 162, 404]])).toEqual([]);
  });

  it('keeps a list number and closing punctuation out of the formula', () => {
    const words = [w('150.', 60, 400, 20, 'Times-Roman'), ...run(110, 400, [['s', 'Times-Italic'], ['(', 'Times-Roman'], ['t', 'Times-Italic'], [')', 'Times-Roman'], ['=', 'Times-Roman'], ['t', 'Times-Italic'], ['2', 'Times-Roman', 17, 10], ['.', 'Times-Roman']])];
    const folded = foldFormulas(words).words;
    expect(rowWithFormulas(folded, plain)).toBe('150. $s ( t ) = t^{2}$ .');
  });
});

describe('formula LaTeX', () => {
  it('renders with KaTeX', () => {
    const line = run(100, 400, [['ζ', 'CMMI10'], ['ψ', 'CMMI7', 17, 10], ['(', 'CMR7', 17, 10], ['gs', 'CMMI7', 17, 10], [')', 'CMR7', 17, 10], ['=', 'CMR10'], ['"', 'CMEX10'], ['x'], ['#', 'CMEX10'], ['{', 'CMSY10'], ['%', 'CMR10']]);
    line[1].box = [line[0].box[2] + 1, line[1].box[1], line[0].box[2] + 10, line[1].box[3]];
    const [latex] = formulasOf(line);
    expect(latex).toBeDefined();
    expect(rendersWithKatex(latex)).toBe(true);
  });
});

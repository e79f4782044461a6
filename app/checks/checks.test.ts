import { describe, expect, it } from 'vitest';
import { parseHtmlTables } from '../tables/index.js';
import { extractMath, markdownContainsFormula, matchFormula, normalizeLatex, rendersWithKatex } from './formula.js';
import { reward } from './reward.js';
import { bestSubstringDistance, fuzzyContains, fuzzyMatchStarts } from './fuzzySearch.js';
import { combinedPageScore } from './pageScore.js';
import { longestWordLoop, repetitionReport, tailRepeats } from './repetition.js';
import { checkStructure, unbalancedTableTags } from './structure.js';
import { adjacencyRelations, tableNeighbourScore } from './tableNeighbours.js';
import { characterErrorRate, normalizedEditDistance, readingOrderDistance, sequenceEditDistance } from './textDistance.js';

describe('fuzzy substring search', () => {
  it('finds the best substring distance', () => {
    expect(bestSubstringDistance('kitten', 'the sitting cat')).toBe(2); // "sittin"
    expect(bestSubstringDistance('abc', 'xxabcxx')).toBe(0);
    expect(bestSubstringDistance('abc', '')).toBe(3);
    expect(fuzzyContains('Guest Bath', 'guest bath', 0)).toBe(false);
    expect(fuzzyContains('Guest Bath', 'Guest Bth', 1)).toBe(true);
  });
  it('lists every start offset of a match within the distance', () => {
    expect(fuzzyMatchStarts('ab', 'ab_ab', 0)).toEqual([0, 3]);
    expect(fuzzyMatchStarts('abc', 'xabd', 1)).toContain(1);
    expect(fuzzyMatchStarts('zz', 'abc', 0)).toEqual([]);
  });
});

describe('text distances', () => {
  it('normalised edit distance and CER', () => {
    expect(normalizedEditDistance('', '')).toBe(0);
    expect(normalizedEditDistance('abcd', 'abce')).toBe(0.25);
    expect(characterErrorRate('helo  world', 'hello world')).toBeCloseTo(1 / 11, 10);
    expect(characterErrorRate('', '')).toBe(0);
    expect(sequenceEditDistance([1, 2, 3], [1, 3])).toBe(1);
  });
  it('separates content errors from order errors', () => {
    const reference = 'First paragraph here.\n\nSecond paragraph there.\n\nThird one.';
    const swapped = 'Second paragraph there.\n\nFirst paragraph here.\n\nThird one.';
    const d = readingOrderDistance(swapped, reference);
    expect(d.contentNed).toBe(0);
    expect(d.orderNed).toBeGreaterThan(0);
    expect(d.ned).toBeGreaterThan(0);
    const typo = readingOrderDistance('First paragraf here.\n\nSecond paragraph there.\n\nThird one.', reference);
    expect(typo.orderNed).toBe(0);
    expect(typo.contentNed).toBeGreaterThan(0);
  });
});

describe('formulas', () => {
  it('normalises spelling variants to one form', () => {
    expect(normalizeLatex('$x^{2} + y_{i}$')).toBe(normalizeLatex('x^2+y_i'));
    expect(normalizeLatex('\\left( \\dfrac{a}{b} \\right)')).toBe(normalizeLatex('(\\frac{a}{b})'));
    expect(normalizeLatex('\\operatorname{Ann}_R')).toBe(normalizeLatex('\\mathrm{Ann}_{R}'));
    expect(normalizeLatex('a \\le b')).toBe(normalizeLatex('a\\leq b'));
    expect(normalizeLatex('f^{\\prime}(x)')).toBe(normalizeLatex("f'(x)"));
    expect(normalizeLatex('\\in x')).not.toBe(normalizeLatex('\\inx'));
    expect(normalizeLatex('a+b')).not.toBe(normalizeLatex('a-b'));
  });
  it('extracts math segments and finds formulas in Markdown', () => {
    expect(extractMath('a $x$ b $$y$$ c \\(z\\) d \\[w\\] costs \\$5')).toEqual(['y', 'w', 'z', 'x']);
    expect(markdownContainsFormula('The identity $$e^{i\\pi} + 1 = 0$$ holds', 'e^{i \\pi}+1=0')).toBe(true);
    expect(extractMath('$a^2 + b^2$, $\\alpha$ and $c\\$$')).toEqual(['a^2 + b^2', '\\alpha', 'c\\$']);
    expect(markdownContainsFormula('The identity e^{i\\pi} + 1 = 0 holds', 'e^{i \\pi}+1=0')).toBe(false);
  });
  it('does not read prices as formulas (dollar signs as Pandoc reads them)', () => {
    expect(extractMath('Service A 12 $10.00 $120.00\nTax (0%): $0.00 & Co $ 5 $')).toEqual([]);
    expect(extractMath('Fee $5 and $x$')).toEqual(['x']);
    const invoice = 'Service A | 12 | $10.00 | $120.00\nService B | 5 | $1.50 | $7.50\nTotal: $127.50';
    expect(reward(invoice, invoice.replaceAll('$', '\\$')).terms.format).toBeUndefined();
  });
  it('knows what KaTeX renders', () => {
    expect(rendersWithKatex('\\frac{a}{b}')).toBe(true);
    expect(rendersWithKatex('\\frac{a}{b')).toBe(false);
    expect(rendersWithKatex('\\notacommand{x}')).toBe(false);
    const m = matchFormula('$x^{2}$', 'x^2', (a, b) => 1 - normalizedEditDistance(a, b));
    expect(m).toEqual({ exact: true, similarity: 1, renders: true });
  });
});

describe('structural validity', () => {
  it('accepts well-formed Markdown with tables, fences and math', () => {
    const md = '# T\n\n<table><tr><td colspan="2">a</td></tr><tr><td>b</td><td>c</td></tr></table>\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```\ncode\n```\n\n$$x$$';
    const report = checkStructure(md);
    expect(report.problems).toEqual([]);
    expect(report.checked).toBe(4);
    expect(report.score).toBe(1);
  });
  it('reports unclosed tags, ragged rows, bad pipe rows, open fences and unpaired $$', () => {
    expect(unbalancedTableTags('<table><tr><td>a</tr></table>')).toEqual(['<td> not closed']);
    const report = checkStructure('<table><tr><td>a</td><td>b</td></tr><tr><td>c</td></tr></table>\n\n| a | b |\n|---|---|\n| 1 |\n\n```\nx\n\n$$y');
    expect(report.problems.join('\n')).toMatch(/row 2: 1 of 2 columns not covered/);
    expect(report.problems.join('\n')).toMatch(/has 1 cells, header 2/);
    expect(report.problems).toContain('unclosed code fence');
    expect(report.problems).toContain('unpaired $$');
    expect(report.score).toBe(0);
  });
  it('scores 1 when there is nothing to check', () => {
    expect(checkStructure('just text').score).toBe(1);
  });
});

describe('repetition', () => {
  it('counts tail repeats like olmOCR and finds word loops', () => {
    expect(tailRepeats('xx abababab', 2)).toEqual([1, 4]);
    expect(longestWordLoop('a b c a b c a b c d')).toMatchObject({ n: 3, repeats: 3, start: 0 });
    expect(longestWordLoop('all different words here')).toBeNull();
  });
  it('scores loops and runaway length without a floor', () => {
    expect(repetitionReport('a normal sentence with the the typo').score).toBe(1);
    const loop = 'Intro text. ' + 'row 1 | 2 | 3 '.repeat(50);
    expect(repetitionReport(loop).score).toBeLessThan(0.1);
    expect(repetitionReport('abcd', { maxLength: 2 }).score).toBe(0.5);
  });
});

describe('combined page score', () => {
  it('multiplies terms with floors, repetition unfloored', () => {
    expect(combinedPageScore({ text: 0.9, structure: 1 }).score).toBeCloseTo(0.9, 10);
    expect(combinedPageScore({ structure: 0, unitTests: 0.5 }).score).toBeCloseTo(0.2 * 0.5, 10);
    expect(combinedPageScore({ tables: 0 }).score).toBeCloseTo(0.1, 10);
    expect(combinedPageScore({ text: 1, repetition: 0 }).score).toBe(0);
    expect(combinedPageScore({}).score).toBe(1);
  });
});

describe('table neighbour F1', () => {
  it('is 1 for the same table and drops when a column is lost', () => {
    const [truth] = parseHtmlTables('<table><tr><td>a</td><td>b</td><td>c</td></tr><tr><td>1</td><td>2</td><td>3</td></tr></table>');
    const [lost] = parseHtmlTables('<table><tr><td>a</td><td>c</td></tr><tr><td>1</td><td>3</td></tr></table>');
    expect(adjacencyRelations(truth!)).toHaveLength(7);
    expect(tableNeighbourScore(truth!, truth!).f1).toBe(1);
    const s = tableNeighbourScore(lost!, truth!);
    expect(s.truePositives).toBe(2); // a↓1, c↓3 survive
    expect(s.f1).toBeCloseTo((2 * (2 / 4) * (2 / 7)) / (2 / 4 + 2 / 7), 10);
  });
  it('skips empty cells and scans past spans', () => {
    const [grid] = parseHtmlTables('<table><tr><td colspan="2">h</td><td>x</td></tr><tr><td>1</td><td></td><td>3</td></tr></table>');
    expect(adjacencyRelations(grid!).sort()).toEqual(['1\u00003\u0000right', 'h\u00001\u0000down', 'h\u0000x\u0000right', 'x\u00003\u0000down'].sort());
  });
});

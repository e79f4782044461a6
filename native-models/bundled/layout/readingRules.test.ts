/**
 * The reading rules of docs/reading.md on synthetic pages: hyphenated line ends, notes at the foot of a column,
 * running heads and feet on a single page, tight columns, columns per region, overprinted text, figure text.
 */
import { describe, expect, it } from 'vitest';
import { joinAcrossLine, pageVocabulary, type HyphenationLanguage } from './hyphenation.js';
import type { LayoutWord } from './layoutTypes.js';
import { layoutBlocks, layoutPage } from './layoutPage.js';
import { line } from '../../../testing/syntheticWords.js';

const page = { source: 'text-layer' as const, pageHeight: 2000 };
const vocabulary = (text: string) => pageVocabulary(layoutBlocks(line(text, 100, 100), page));

describe('hyphenated line ends', () => {
  it('joins a break, keeps a compound, decided by the page’s own words', () => {
    const v = vocabulary('TraceMonkey traces a trace by compilation of non-English text');
    expect(joinAcrossLine('com-', 'pile.', v)).toBe('compile.');
    expect(joinAcrossLine('Trace-', 'Monkey', v)).toBe('TraceMonkey');
    expect(joinAcrossLine('trace-', 'compilation', v)).toBe('trace-compilation');
    expect(joinAcrossLine('interpreter-', 'to-trace', v)).toBe('interpreter-to-trace');
    expect(joinAcrossLine('non-English-', 'language', v)).toBe('non-English-language');
    expect(joinAcrossLine('Franco-', 'German', v)).toBe('Franco-German');
    expect(joinAcrossLine('pages', 'more', v)).toBeNull();
    expect(joinAcrossLine('2-', '3', v)).toBeNull();
    expect(joinAcrossLine('IEEE-', '754', v)).toBe('IEEE-754');
  });

  // A small stand-in lexicon (the real ones: lexicons.test.ts): the table of docs/reading.md, rule by rule.
  const english: HyphenationLanguage = {
    code: 'eng',
    isWord: (word) => ['responsibility', 'mixed', 'mode', 'age', 'eligible', 'compile', 'language', 'independent', 'online', 'on', 'line'].includes(word.toLowerCase()),
  };
  const french: HyphenationLanguage = { code: 'fra', isWord: (word) => ['peut-être', 'peut', 'être', 'facture'].includes(word.toLowerCase()) };
  const german: HyphenationLanguage = { code: 'deu', closedCompounds: true };

  it('with a lexicon: joins where the joined form is a word, keeps two words whose joined form is not', () => {
    const none = vocabulary('nothing here helps');
    expect(joinAcrossLine('responsi-', 'bility', none, english)).toBe('responsibility');
    expect(joinAcrossLine('Responsi-', 'bility.', none, english)).toBe('Responsibility.');
    expect(joinAcrossLine('mixed-', 'mode', none, english)).toBe('mixed-mode');
    expect(joinAcrossLine('age-', 'eligible', none, english)).toBe('age-eligible');
    expect(joinAcrossLine('language-', 'independent', none, english)).toBe('language-independent');
    expect(joinAcrossLine('on-', 'line', none, english)).toBe('online');
    // Neither part a word: a break of a word the lexicon lacks.
    expect(joinAcrossLine('Brolli-', 'gant', none, english)).toBe('Brolligant');
    // Without a lexicon the page's words alone decide: "mixed" and "mode" unseen → joined (the old mistake).
    expect(joinAcrossLine('mixed-', 'mode', none)).toBe('mixedmode');
  });

  it('the page’s own words come before the lexicon; a soft hyphen is always a break', () => {
    expect(joinAcrossLine('mixed-', 'mode', vocabulary('the mixedmode flag'), english)).toBe('mixedmode');
    expect(joinAcrossLine('respon-', 'sibility', vocabulary('a respon-sibility here'), english)).toBe('respon-sibility');
    expect(joinAcrossLine('mixed\u00ad', 'mode', vocabulary('nothing'), english)).toBe('mixedmode');
  });

  it('French: a hyphenated compound of the lexicon keeps its hyphen', () => {
    const none = vocabulary('rien');
    expect(joinAcrossLine('peut-', 'être', none, french)).toBe('peut-être');
    expect(joinAcrossLine('fac-', 'ture', none, french)).toBe('facture');
  });

  it('German writes compounds closed: a lower-case part is joined, a capital part is a hyphenated compound noun', () => {
    const v = vocabulary('das Haus und die Tür der Rechnung');
    expect(joinAcrossLine('Haus-', 'tür', v, german)).toBe('Haustür');
    expect(joinAcrossLine('Rech-', 'nung', v, german)).toBe('Rechnung');
    expect(joinAcrossLine('Umsatzsteuer-', 'Identifikationsnummer', v, german)).toBe('Umsatzsteuer-Identifikationsnummer');
    // A conjunction after the hyphen: a suspended compound, in any language; the two words stay as printed.
    expect(joinAcrossLine('Sturm-', 'und', v, german)).toBeNull();
    expect(joinAcrossLine('pre-', 'and', v, english)).toBeNull();
    expect(joinAcrossLine('Liefer-', 'bzw.', v, german)).toBeNull();
    const suspended = [...line('Die Sturm-', 100, 100), ...line('und Hagelversicherung', 100, 126)];
    expect(layoutPage(suspended, { ...page, language: german }).markdown).toBe('Die Sturm-\nund Hagelversicherung');
    // The page's own hyphenated compound still wins.
    expect(joinAcrossLine('Haus-', 'tür', vocabulary('die Haus-tür'), german)).toBe('Haus-tür');
  });

  it('passes the language to every block through layoutPage', () => {
    const words = [...line('Our system uses a mixed-', 100, 100), ...line('mode execution approach', 100, 126)];
    expect(layoutPage(words, { ...page, language: english }).markdown).toBe('Our system uses a mixed-mode\nexecution approach');
    expect(layoutPage(words, page).markdown).toBe('Our system uses a mixedmode\nexecution approach');
  });

  it('writes the joined word at the end of the first line and drops its tail from the next', () => {
    const words = [...line('Dynamic languages are difficult to com-', 100, 100), ...line('pile than statically typed ones.', 100, 126)];
    expect(layoutPage(words, page).markdown).toBe('Dynamic languages are difficult to compile\nthan statically typed ones.');
  });
});

describe('paragraphs and columns', () => {
  const prose = (prefix: string, n: number, x: number, y: number, size = 20): LayoutWord[] =>
    Array.from({ length: n }, (_, i) => line(`${prefix} line ${i + 1} of a column of prose text`, x, y + i * 26, size)).flat();

  it('reads a page that goes from one column to two and back as top band, left, right, bottom band', () => {
    const words = [...line('A full width title line that runs across the page top', 100, 100, 30), ...prose('left', 6, 100, 200), ...prose('right', 6, 600, 200), ...line('A full width closing line that runs across the page foot', 100, 420)];
    const blocks = layoutBlocks(words, page).map((b) => b.rows[0]!.segments[0]!.words.slice(0, 2).map((w) => w.text).join(' '));
    expect(blocks).toEqual(['A full', 'left line', 'right line', 'A full']);
  });

  it('finds a tight gutter among the words when the lines beside it were joined into one segment', () => {
    // Gutter of 14 px at 20 px type: less than the 0.8-height cut between segments, so each line spans both columns.
    const left = prose('left', 9, 100, 200);
    const words = [...left, ...prose('right', 9, Math.max(...left.map((w) => w.box[2])) + 14, 200)];
    const markdown = layoutPage(words, page).markdown;
    expect(markdown.indexOf('left line 9')).toBeLessThan(markdown.indexOf('right line 1'));
  });

  it('keeps a few label/value rows as rows (a tight gutter needs many lines)', () => {
    const words = [...line('Invoice number 12345', 100, 100), ...line('Due 2024-01-01', 362, 100), ...line('Invoice date 2023-12-01', 100, 126), ...line('Total 100.00', 362, 126)];
    expect(layoutPage(words, page).markdown).toBe('Invoice number 12345 Due 2024-01-01\nInvoice date 2023-12-01 Total 100.00');
  });

  it('reads the small print at the foot of a column after the body, so the sentence going on in the next column stays whole', () => {
    const words = [...prose('left', 6, 100, 200), ...line('Permission to copy is granted for personal use', 100, 420, 15), ...line('without fee.', 100, 440, 15), ...prose('right', 9, 600, 200)];
    const blocks = layoutBlocks(words, page);
    expect(blocks.at(-1)!.kind).toBe('footnote');
    const markdown = layoutPage(words, page).markdown;
    expect(markdown.indexOf('left line 6')).toBeLessThan(markdown.indexOf('right line 1'));
    expect(markdown.indexOf('right line 9')).toBeLessThan(markdown.indexOf('Permission'));
  });

  it('reads text painted twice on the same spot once', () => {
    const words = line('Thank you for using the service', 100, 100);
    const shifted = words.map((w) => ({ ...w, box: [w.box[0] + 0.5, w.box[1], w.box[2] + 0.5, w.box[3]] as LayoutWord['box'] }));
    expect(layoutPage([...words, ...shifted], page).markdown).toBe('Thank you for using the service');
  });

  it('places the text read inside an image as its own figure element, in reading order', () => {
    const words = [...line('Text above the figure', 100, 300), ...line('Text below the figure', 100, 600)];
    const figure = { words: line('BuyWithMe', 120, 450, 30, { confidence: 0.9, lineKey: 'figure.0' }) };
    const { markdown, elements } = layoutPage(words, { ...page, figures: [figure] });
    expect(markdown).toBe('Text above the figure\n\nBuyWithMe\n\nText below the figure');
    expect(elements.map((e) => e.kind)).toEqual(['text', 'figure', 'text']);
  });
});

describe('running heads and feet on a single page', () => {
  const body = (x = 120): LayoutWord[] => Array.from({ length: 20 }, (_, i) => line(`Body text line ${i + 1} of the report set in body type`, x, 200 + i * 30 + (i >= 10 ? 20 : 0))).flat();
  const pageHeight = 1240;

  it('a head over a typed rule further in than the narrow band is the header; so is the rule', () => {
    const words = [...line('Healthy Students Healthy Lives', 120, 100), ...line('_______________________________', 120, 124), ...body()];
    const { markdown, furniture } = layoutPage(words, { source: 'text-layer', pageHeight });
    expect(markdown).not.toContain('Healthy Students');
    expect(markdown).not.toContain('\\_');
    expect(furniture.map((f) => f.kind)).toEqual(['header', 'header']);
  });

  it('the same line with nothing parting it from the body stays in the body', () => {
    const words = [...line('Healthy Students Healthy Lives', 120, 160), ...body()];
    expect(layoutPage(words, { source: 'text-layer', pageHeight }).markdown).toContain('Healthy Students');
  });

  /** A page of tables: 8 rows of 3 aligned cells in small type (the cells must not set the body size). */
  const table = (y: number): LayoutWord[] =>
    Array.from({ length: 8 }, (_, i) => [...line(`Region ${i + 1}`, 130, y + i * 24, 16), ...line(`${10 + i}.5%`, 520, y + i * 24, 16), ...line(`${200 + i}`, 860, y + i * 24, 16)].flat()).flat();
  const prose = (y: number, n = 3): LayoutWord[] => Array.from({ length: n }, (_, i) => line(`Body text line ${i + 1} of the report set in body type`, 120, y + i * 30, 22)).flat();

  it('a running head in type a little larger than the body, over a typed rule, above a table, is the header', () => {
    const words = [...line('Methodology', 700, 100, 24), ...line('_______________________________', 120, 124, 24), ...line('Table 2.4: Students by faculty', 200, 170, 20), ...table(200), ...prose(500), ...line('11', 1000, 1150, 24)];
    const { markdown, elements, furniture } = layoutPage(words, { source: 'text-layer', pageHeight });
    expect(elements.map((e) => e.kind)).toContain('table');
    expect(markdown).not.toContain('Methodology');
    expect(markdown).toContain('Table 2.4');
    expect(furniture.map((f) => f.text)).toContain('11');
  });

  it('the page title over a rule (the largest type on the page) stays in the body; so does a heading under a running head', () => {
    const title = [...line('A Study of Students', 120, 100, 40), ...line('_______________________________', 120, 124, 24), ...prose(200, 8)];
    expect(layoutPage(title, { source: 'text-layer', pageHeight }).markdown).toContain('A Study of Students');
    const heading = [...line('Examples for invoices 2022', 120, 30, 14), ...line('Positionsdaten', 120, 100, 30), ...line('_______________________________', 120, 124, 24), ...prose(200, 8), ...line('Large closing words', 120, 600, 30)];
    expect(layoutPage(heading, { source: 'text-layer', pageHeight }).markdown).toContain('Positionsdaten');
  });

  it('a caption or a sentence carried over from the previous page stays in the body, even past a rule near the edge', () => {
    const caption = [...line('Figure 7.1 Cumulative Concentration Curves', 300, 100, 22), ...line('_______________________________', 120, 124, 24), ...prose(200, 8)];
    expect(layoutPage(caption, { source: 'text-layer', pageHeight }).markdown).toContain('Figure 7.1');
    const carried = [...prose(200, 8), ...line('_______________', 120, 1100, 20), ...line('appear to use the term consistently.', 120, 1125, 20), ...line('48', 600, 1190, 24)];
    expect(layoutPage(carried, { source: 'text-layer', pageHeight }).markdown).toContain('appear to use the term consistently.');
  });

  it('a foot line led by a number is a footnote when the page has its page number elsewhere', () => {
    const words = [...prose(200, 8), ...prose(600, 4), ...line('16 Annual Report 2009, section 2.1', 120, 1160, 16), ...line('61', 600, 1200, 24)];
    const { markdown, furniture } = layoutPage(words, { source: 'text-layer', pageHeight });
    expect(markdown).toContain('Annual Report 2009, section 2.1');
    expect(furniture.map((f) => f.kind)).toEqual(['page-number']);
  });

  it('a line set apart at the edge that reads as furniture (a journal, a date) is furniture; a labelled date is not', () => {
    const journal = [...line('Journal of Reading Studies, Vol. 12, No. 3', 120, 110), ...prose(200, 8)];
    expect(layoutPage(journal, { source: 'text-layer', pageHeight }).markdown).not.toContain('Journal of Reading');
    const field = [...line('Invoice date: 12/03/2020', 120, 110), ...prose(200, 8)];
    expect(layoutPage(field, { source: 'text-layer', pageHeight }).markdown).toContain('Invoice date');
  });

  it('a banner set left and right on one line in the top band is judged by its smaller part', () => {
    const words = [...line('APPENDIX A', 80, 90, 40), ...line('HIGHLIGHTS FROM THE SURVEY 2011', 800, 80, 20), ...line('Table A-1. Coverage of target populations', 80, 160, 20), ...table(200)];
    const { markdown } = layoutPage(words, { source: 'text-layer', pageHeight: 1650 });
    expect(markdown).not.toMatch(/APPENDIX A|HIGHLIGHTS/u);
    expect(markdown).toContain('Table A-1.');
  });

  it('an appendix page number at the foot, and a large word level with the running head, are furniture', () => {
    const words = [...line('HIGHLIGHTS FROM THE SURVEY', 120, 60, 16), ...line('APPENDIX A', 800, 66, 36), ...body(120), ...body(700), ...line('A-5', 1100, 1180)];
    const { markdown, furniture } = layoutPage(words, { source: 'text-layer', pageHeight });
    expect(markdown).not.toMatch(/HIGHLIGHTS|APPENDIX|A-5/u);
    expect(furniture.map((f) => f.kind).sort()).toEqual(['header', 'header', 'page-number']);
  });
});

import { describe, expect, it } from 'vitest';
import { CAPTION, FOOTNOTE_MARK, readsAsBody, readsAsFurniture } from './furnitureContent.js';

describe('furniture by content', () => {
  it('publication details, addresses and dates read as furniture; labelled fields do not', () => {
    for (const text of ['The EFSA Journal 2009 – 223', 'Proceedings of the 30th Conference', 'Vol. 12, No. 3', 'https://doi.org/10.1145/1542476', 'www.example.org', 'August 2, 2007 A-42', '12 March 2021', '© 2020 The Authors', 'arXiv:2503.04086v1']) {
      expect(readsAsFurniture(text), text).toBe(true);
    }
    for (const text of ['Invoice date: 12/03/2020', 'Methodology', 'Healthy Students Healthy Lives', 'Total 100.00']) expect(readsAsFurniture(text), text).toBe(false);
  });

  it('captions and sentences going on read as body; an abbreviation or an address does not', () => {
    for (const text of ['Figure 7.1 Cumulative Aggregate Concentration Curves', 'Table CA7. Campylobacter in fresh pig meat', 'Abb. 3 Umsatz', 'appear to use the term consistently.']) expect(readsAsBody(text), text).toBe(true);
    for (const text of ['n° d\'identification national', 'www.example.org', 'Table of contents', 'Methodology']) expect(readsAsBody(text), text).toBe(false);
    expect(CAPTION.test('Figure 2-1 extends the analysis')).toBe(true);
  });

  it('footnote marks: a number with or without a period, symbols, superscripts', () => {
    for (const text of ['51. Decision N. 94-D-60', '16 FEMIP Support Fund', '* Estimated', '² Source']) expect(FOOTNOTE_MARK.test(text), text).toBe(true);
    expect(FOOTNOTE_MARK.test('2024 Annual report')).toBe(false);
  });
});

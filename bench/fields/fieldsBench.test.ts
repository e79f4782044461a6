import { describe, expect, it } from 'vitest';
import type { Word } from '../../app/model/extraction.js';
import { line } from '../../testing/syntheticWords.js';
import { valueRight, type CorpusDocument } from './corpusTruth.js';
import { bands, runFieldsBench, type ScoredValue } from './fieldsBench.js';

const page = (number: string, date: string, gross: string): Word[] => [
  ...line('Kettler Feinmechanik GmbH', 40, 40),
  ...line('Beleg', 700, 160),
  ...line(number, 700, 190),
  ...line('Datum', 40, 220),
  ...line(date, 300, 220),
  ...line('Summe', 500, 460),
  ...line(gross, 800, 460),
  ...line('USt-IdNr.: DE123456789', 40, 700),
];

const doc = (name: string, number: string, iso: string, total: number): CorpusDocument => ({
  name,
  family: 'Kettler Feinmechanik GmbH',
  printed: { invoice_number: number, issue_date: iso, seller: 'Kettler Feinmechanik GmbH', total },
  confirmed: { invoice_number: number, issue_date: iso, due_date: null, seller: 'Kettler Feinmechanik GmbH', buyer: null, currency: null, subtotal: null, tax: null, total },
});

describe('field benchmark', () => {
  it('judges names loosely, numbers to the cent, identifiers without spaces', () => {
    expect(valueRight('seller', 'Kettler Feinmechanik GmbH', 'KETTLER FEINMECHANIK')).toBe(true);
    expect(valueRight('total', 10, 10.004)).toBe(true);
    expect(valueRight('total', 10, 10.01)).toBe(false);
    expect(valueRight('invoice_number', 'RE 17', 're17')).toBe(true);
    expect(valueRight('issue_date', '2024-01-02', null)).toBe(false);
  });

  it('bands count precision among high values and the share of right values shown high', () => {
    const v = (right: boolean, confidence: number): ScoredValue => ({ document: 'd', family: 'f', field: 'total', right, confidence, fromMemory: false });
    const b = bands([v(true, 0.9), v(false, 0.9), v(true, 0.6), v(true, 0.1)]);
    expect(b.highPrecision).toBe(0.5);
    expect(b.rightShownHigh).toBeCloseTo(1 / 3);
    expect([b.high.total, b.mid.total, b.low.total]).toEqual([2, 1, 1]);
  });

  it('reads the second invoice of a family through what the first taught', () => {
    const words: Record<string, Word[]> = { a: page('KF-0007', '03.04.2024', '119,00'), b: page('KF-0019', '05.06.2024', '297,50') };
    const result = runFieldsBench([doc('a', 'KF-0007', '2024-04-03', 119), doc('b', 'KF-0019', '2024-06-05', 297.5)], (name) => words[name]!, () => 'development');
    const family = result.secondInvoice.byFamily['Kettler Feinmechanik GmbH']!;
    expect(family.recognised).toBe(1);
    expect(family.right).toBe(family.total);
    expect(result.memoryCost.suppliers).toBe(1000);
  });
});

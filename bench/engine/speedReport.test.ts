import { describe, expect, it } from 'vitest';
import { formatSpeedTable, microCer, setFigures, speedReport, type EngineRun } from './speedReport.js';
import { planProcesses } from './tesseractCli.js';

const run = (seconds: number, texts: [string, string | null][], cpuSeconds: number | null = null): EngineRun => ({
  seconds,
  cpuSeconds,
  texts: texts.map(([text, reference]) => ({ text, reference })),
});

describe('microCer', () => {
  it('weights pages by reference length and skips pages without a reference', () => {
    // 1 edit in 10 chars, 0 edits in 30 chars → 1/40; the unreferenced page does not count.
    const r = microCer([
      { text: 'abcdefghiX', reference: 'abcdefghij' },
      { text: 'a'.repeat(30), reference: 'a'.repeat(30) },
      { text: 'anything', reference: null },
    ]);
    expect(r.cer).toBeCloseTo(1 / 40, 10);
    expect(r.pages).toBe(2);
    expect(r.referenceChars).toBe(40);
  });

  it('collapses whitespace on both sides', () => {
    expect(microCer([{ text: 'a  b\n\nc', reference: 'a b c' }]).cer).toBe(0);
  });

  it('order-free CER forgives blocks read in another order, not misread words', () => {
    const moved = microCer([{ text: 'second block here first block there', reference: 'first block there second block here' }]);
    expect(moved.cer).toBeGreaterThan(0.3);
    expect(moved.orderFreeCer).toBe(0);
    expect(microCer([{ text: 'flrst block', reference: 'first block' }]).orderFreeCer).toBeCloseTo(1 / 11, 10);
  });
});

describe('setFigures / speedReport', () => {
  it('computes pages/s, the ratio and both CERs', () => {
    const recto = run(2, [
      ['hello world', 'hello world'],
      ['foo', null],
    ]);
    const tesseract = run(8, [
      ['hallo world', 'hello world'],
      ['foo', null],
    ]);
    const f = setFigures(2, recto, tesseract);
    expect(f).toEqual({ recto_pages_per_s: 1, tesseract_pages_per_s: 0.25, ratio: 4, recto_cer: 0, tesseract_cer: Number((1 / 11).toFixed(4)) });
  });

  it('refuses runs over different pages', () => {
    expect(() => setFigures(2, run(1, [['a', null]]), run(1, [['a', null], ['b', null]]))).toThrow(/same 2 pages/);
  });

  it('writes exactly the keys of issue 4', () => {
    const f = setFigures(1, run(1, [['a', 'a']]), run(2, [['a', 'a']]));
    const report = JSON.parse(JSON.stringify(speedReport({ mixed: { pages: 3, figures: f }, scans: { pages: 1, figures: f } })));
    expect(Object.keys(report)).toEqual(['pages', 'mixed', 'scans']);
    expect(report.pages).toEqual({ mixed: 3, scans: 1 });
    for (const set of [report.mixed, report.scans]) {
      expect(Object.keys(set).sort()).toEqual(['ratio', 'recto_cer', 'recto_pages_per_s', 'tesseract_cer', 'tesseract_pages_per_s']);
      expect(set.ratio).toBe(2);
    }
  });

  it('prints one row per set with the ratio', () => {
    const recto = run(1, [['a', 'a']], 0.5);
    const tesseract = run(3, [['a', 'a']], 2.9);
    const figures = setFigures(1, recto, tesseract);
    const table = formatSpeedTable([{ name: 'scans', pages: 1, ocrPages: 1, cerPages: 1, recto, tesseract, figures }], 2);
    expect(table).toMatch(/scans\s+1 \(\s*1\)\s+1\.000\s+0\.333\s+3\.00×/);
    expect(table).toContain('0.50');
    expect(table).toContain('2.90');
  });
});

describe('planProcesses', () => {
  it('splits pages into short per-resolution lists covering every page once', () => {
    const pages = [150, 150, 150, 150, 144, 150, 150, 150, 150, 150].map((dpi, i) => ({ imagePath: `p${i}.png`, dpi }));
    const plans = planProcesses(pages, 2); // lists of at most ⌈10 / 8⌉ = 2 pages
    expect(plans.flatMap((p) => p.pageIndices).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    for (const plan of plans) {
      expect(new Set(plan.pageIndices.map((i) => pages[i]!.dpi))).toEqual(new Set([plan.dpi]));
      expect(plan.pageIndices.length).toBeLessThanOrEqual(2);
    }
    expect(plans.filter((p) => p.dpi === 144)).toEqual([{ dpi: 144, pageIndices: [4] }]);
  });

  it('never makes more lists than pages', () => {
    expect(planProcesses([{ imagePath: 'a.png', dpi: 300 }], 16)).toEqual([{ dpi: 300, pageIndices: [0] }]);
  });
});

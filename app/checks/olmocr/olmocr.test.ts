import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { benchTestSchema, normalizeBenchText, parseBenchTests, runBenchTest, scoreBenchTests, type BenchTest } from './index.js';

const t = (raw: Record<string, unknown>): BenchTest => benchTestSchema.parse({ pdf: 'a.pdf', page: 1, id: 'x', ...raw });

describe('normalizeBenchText', () => {
  it('collapses whitespace, strips emphasis and maps typographic characters like upstream', () => {
    expect(normalizeBenchText('**Bold**  and *it*\n<br/>“q” – x’s  µ')).toBe('Bold and it "q" - x\'s μ');
  });
});

describe('present / absent', () => {
  it('matches exact and fuzzy substrings within max_diffs', () => {
    expect(runBenchTest(t({ type: 'present', text: 'Master Bath' }), 'the **Master** Bath room').passed).toBe(true);
    expect(runBenchTest(t({ type: 'present', text: 'Master Bath' }), 'the Mastr Bath').passed).toBe(false);
    expect(runBenchTest(t({ type: 'present', text: 'Master Bath', max_diffs: 1 }), 'the Mastr Bath').passed).toBe(true);
    expect(runBenchTest(t({ type: 'present', text: 'Master Bath', max_diffs: 1 }), 'the Mstr Bth').passed).toBe(false);
  });
  it("uses rapidfuzz's partial_ratio, as upstream: a page that is part of the text contains it", () => {
    // partial_ratio swaps its strings when the first is the longer: the page "Total" scores 100 for this text.
    expect(runBenchTest(t({ type: 'present', text: 'Total amount due' }), 'Total').passed).toBe(true);
    expect(runBenchTest(t({ type: 'absent', text: 'Total amount due' }), 'Total').passed).toBe(false);
    expect(runBenchTest(t({ type: 'present', text: 'Total amount due' }), 'Totals').passed).toBe(false);
    // max_diffs > 0: threshold 1 − 2/16; "Total amont due" scores 2·15/31 = 96.8 ≥ 87.5.
    expect(runBenchTest(t({ type: 'present', text: 'Total amount due', max_diffs: 2 }), 'the Total amont due').passed).toBe(true);
    expect(runBenchTest(t({ type: 'present', text: 'Total amount due', max_diffs: 2 }), 'the Tot amnt du').passed).toBe(false);
  });
  it('is case sensitive unless told otherwise', () => {
    expect(runBenchTest(t({ type: 'present', text: 'LAUNDRY' }), 'Laundry').passed).toBe(false);
    expect(runBenchTest(t({ type: 'present', text: 'LAUNDRY', case_sensitive: false }), 'Laundry').passed).toBe(true);
  });
  it('absent looks only at first_n / last_n when given', () => {
    const page = 'Header 1\n' + 'body text '.repeat(10) + '\nfooter 7';
    expect(runBenchTest(t({ type: 'absent', text: '1', last_n: 20 }), page).passed).toBe(true);
    expect(runBenchTest(t({ type: 'absent', text: '7', last_n: 20 }), page).passed).toBe(false);
    expect(runBenchTest(t({ type: 'absent', text: '1', first_n: 20 }), page).passed).toBe(false);
    expect(runBenchTest(t({ type: 'absent', text: 'Header' }), page).passed).toBe(false);
  });
});

describe('order', () => {
  it('passes when some match of before starts before some match of after', () => {
    const test = t({ type: 'order', before: '150.', after: '157.' });
    expect(runBenchTest(test, '150. a\n157. b').passed).toBe(true);
    expect(runBenchTest(test, '157. b\n150. a').passed).toBe(false);
    expect(runBenchTest(test, '157. b\n150. a\n157. again').passed).toBe(true);
    expect(runBenchTest(test, '150. only').reason).toMatch(/not found/);
  });
});

describe('table', () => {
  const html = `<table><thead><tr><th>Topic</th><th colspan="2">Procedure</th></tr>
    <tr><th></th><th>ReACT</th><th>Plan</th></tr></thead>
    <tbody><tr><td>27</td><td>0.66</td><td>0.44</td></tr><tr><td>28</td><td>0.87</td><td>0.10</td></tr></tbody></table>`;
  it('checks neighbours and headings, with spans', () => {
    expect(runBenchTest(t({ type: 'table', cell: '0.66', right: '0.44' }), html).passed).toBe(true);
    expect(runBenchTest(t({ type: 'table', cell: '0.66', left: '0.44' }), html).passed).toBe(false);
    expect(runBenchTest(t({ type: 'table', cell: '0.87', up: '0.66', left: '28' }), html).passed).toBe(true);
    expect(runBenchTest(t({ type: 'table', cell: '0.87', top_heading: 'ReACT' }), html).passed).toBe(true);
    expect(runBenchTest(t({ type: 'table', cell: '0.87', top_heading: 'Procedure' }), html).passed).toBe(true);
    expect(runBenchTest(t({ type: 'table', cell: '0.10', top_heading: 'ReACT' }), html).passed).toBe(false);
    expect(runBenchTest(t({ type: 'table', cell: '0.10', left_heading: '28' }), html).passed).toBe(true);
    expect(runBenchTest(t({ type: 'table', cell: 'ReACT', up: 'Procedure' }), html).passed).toBe(true);
  });
  it('reads pipe tables like upstream: no delimiter row needed, first row and first column are headings', () => {
    const pipe = '| Task | ReACT | Plan |\n| Sorting | 0.5 | 0.7 |\n| Search | 0.9 | 0.1 |';
    expect(runBenchTest(t({ type: 'table', cell: '0.1', top_heading: 'Plan', left_heading: 'Search' }), pipe).passed).toBe(true);
    expect(runBenchTest(t({ type: 'table', cell: '0.1', left_heading: 'Sorting' }), pipe).passed).toBe(false);
  });
  it('works on pipe tables and fails without tables', () => {
    const pipe = '| a | b |\n|---|---|\n| 1 | 2 |';
    expect(runBenchTest(t({ type: 'table', cell: '2', left: '1', top_heading: 'b' }), pipe).passed).toBe(true);
    expect(runBenchTest(t({ type: 'table', cell: '2', left: '1' }), '1 2').reason).toMatch(/no table/);
  });
});

describe('math', () => {
  it('accepts spelling variants and rejects different formulas', () => {
    const test = t({ type: 'math', math: '\\int_{a}^{b} f(x) d x=F(b)-F(a)' });
    expect(runBenchTest(test, 'Text $$\\int_a^b f(x)\\,dx = F(b) - F(a)$$').passed).toBe(true);
    expect(runBenchTest(test, 'Text \\[\\int_a^b f(x)\\,dx = F(b) + F(a)\\]').passed).toBe(false);
    expect(runBenchTest(test, 'int_a^b f(x) dx = F(b) - F(a) with no math delimiters').passed).toBe(false);
  });
});

describe('baseline', () => {
  it('enforces blank pages and tail repetition', () => {
    expect(runBenchTest(t({ type: 'baseline', max_length: 10 }), '  \n').passed).toBe(true);
    expect(runBenchTest(t({ type: 'baseline', max_length: 10 }), 'Chapter One begins').passed).toBe(false);
    expect(runBenchTest(t({ type: 'baseline' }), 'fine text.').passed).toBe(true);
    expect(runBenchTest(t({ type: 'baseline' }), 'loop ' + 'ab'.repeat(40)).passed).toBe(false);
    expect(runBenchTest(t({ type: 'baseline' }), '').passed).toBe(false);
  });
});

describe('parseBenchTests', () => {
  it('reports bad lines with the file name and keeps good ones', () => {
    const { tests, errors } = parseBenchTests('{"pdf":"a.pdf","page":1,"id":"1","type":"present","text":"x"}\nnot json\n{"type":"table"}', 'd.jsonl');
    expect(tests).toHaveLength(1);
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatch(/^d\.jsonl:2: not JSON/);
  });
});

// ---- real olmOCR-Bench sample data ----
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const sampleDir = path.resolve(repoRoot, '..', 'shared', 'testdata', 'olmocr', 'olmocr', 'bench', 'sample_data');
const haveSample = existsSync(path.join(sampleDir, 'dataset.jsonl'));
if (!haveSample) console.warn(`olmOCR sample data absent at ${sampleDir}: real-data scorer tests skipped`);

function loadSample(): BenchTest[] {
  const all: BenchTest[] = [];
  for (const file of ['dataset.jsonl', 'blanks.jsonl']) {
    const { tests, errors } = parseBenchTests(readFileSync(path.join(sampleDir, file), 'utf8'), file);
    expect(errors).toEqual([]);
    all.push(...tests);
  }
  return all;
}

/** Markdown built from a test's own ground truth: what a perfect engine would write for it. */
function perfectOutput(test: BenchTest): string {
  switch (test.type) {
    case 'present':
      return `Some prose.\n\n${test.text}\n\nMore prose.`;
    case 'absent':
      return 'Body text of the page without running headers.';
    case 'order':
      return `${test.before}\n\nmiddle\n\n${test.after}`;
    case 'math':
      return `Before $$${test.math}$$ after.`;
    case 'baseline':
      return test.max_length != null ? '' : 'Plain text.';
    case 'table': {
      // 3×3 grid, cell in the middle, neighbours around it, headings in row 0 / column 0.
      const g = [
        ['', test.top_heading ?? test.up ?? 'h', ''],
        [test.left_heading ?? test.left ?? 'l', test.cell, test.right ?? 'r'],
        ['', test.down ?? 'd', ''],
      ];
      if (test.top_heading && test.up) g[0]![1] = test.up; // up is the nearer relation; heading then goes above it
      const rows = test.top_heading && test.up ? [['', test.top_heading, ''], ...g] : g;
      return `<table>${rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('')}</table>`;
    }
  }
}

/** A corrupted output that the test must reject. */
function mutatedOutput(test: BenchTest): string {
  const corrupt = (s: string): string => s.split('').reverse().join('') + '#'.repeat(test.max_diffs + 1);
  switch (test.type) {
    case 'present':
      return `Some prose.\n\n${corrupt(test.text)}\n\nMore prose.`;
    case 'absent':
      return `${test.text}\n\nBody text.`;
    case 'order':
      return `${test.after}\n\nmiddle\n\n${test.before}`;
    case 'math':
      return `Before $$${test.math.slice(0, Math.floor(test.math.length / 2))}$$ after.`;
    case 'baseline':
      return test.max_length != null ? 'x'.repeat(test.max_length + 5) : '';
    case 'table':
      return `<table><tr><td>${test.cell}</td></tr><tr><td>${corrupt(test.cell)}</td></tr></table>`;
  }
}

describe.skipIf(!haveSample)('olmOCR-Bench sample data', () => {
  it('every ground-truth-derived output passes and every mutated output fails', () => {
    for (const test of loadSample()) {
      expect(runBenchTest(test, perfectOutput(test)), `${test.id} perfect`).toMatchObject({ passed: true });
      expect(runBenchTest(test, mutatedOutput(test)).passed, `${test.id} mutated`).toBe(false);
    }
  });

  it('scores the olmocr_pipeline outputs above a floor', () => {
    const tests = loadSample();
    const score = scoreBenchTests(tests, (pdf, page) => {
      const file = path.join(sampleDir, 'olmocr_pipeline', `${pdf.replace(/\.pdf$/, '')}_pg${page}_repeat1.md`);
      return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
    });
    const byType = Object.fromEntries(Object.entries(score.byType).map(([k, v]) => [k, `${v.passed}/${v.total}`]));
    console.log('olmocr_pipeline outputs:', { overall: score.overall.toFixed(3), tests: score.testPassRate.toFixed(3), byType });
    for (const r of score.results.filter((r) => !r.passed)) console.log(`  FAIL ${r.test.id}: ${r.reason}`);
    expect(score.results.every((r) => r.reason !== 'no output for this page')).toBe(true);
    expect(score.overall).toBeGreaterThanOrEqual(0.7);
    expect(score.overall).toBeLessThan(1);
  });
});

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { teds, tedsStructure } from './teds.js';
import { treeEditDistance, type OrderedTree } from './treeEditDistance.js';

interface Labelled extends OrderedTree {
  label: string;
  children: Labelled[];
}
const node = (label: string, ...children: Labelled[]): Labelled => ({ label, children });
const unitRename = (a: Labelled, b: Labelled): number => (a.label === b.label ? 0 : 1);

describe('treeEditDistance (Zhang–Shasha)', () => {
  it('reproduces the textbook example distance of 2', () => {
    // Zhang & Shasha's example: f(d(a, c(b)), e) vs f(c(d(a, b)), e) → 2
    const t1 = node('f', node('d', node('a'), node('c', node('b'))), node('e'));
    const t2 = node('f', node('c', node('d', node('a'), node('b'))), node('e'));
    expect(treeEditDistance(t1, t2, unitRename)).toBe(2);
  });
  it('counts inserts, deletes and renames', () => {
    expect(treeEditDistance(node('a'), node('a'), unitRename)).toBe(0);
    expect(treeEditDistance(node('a'), node('b'), unitRename)).toBe(1);
    expect(treeEditDistance(node('a', node('b'), node('c')), node('a', node('c')), unitRename)).toBe(1);
    expect(treeEditDistance(node('a'), node('a', node('b', node('c'))), unitRename)).toBe(2);
  });
});

const table = (rows: string[][], attrs: (r: number, c: number) => string = () => ''): string =>
  `<table>${rows.map((r, i) => `<tr>${r.map((c, j) => `<td${attrs(i, j)}>${c}</td>`).join('')}</tr>`).join('')}</table>`;

describe('TEDS', () => {
  it('is 1 for identical tables and ignores non-span attributes and surrounding markup', () => {
    const a = table([['a', 'b'], ['c', 'd']]);
    expect(teds(a, a)).toBe(1);
    expect(teds(`<html><body>${a.replace('<table>', '<table border="1" width="100%">')}</body></html>`, a)).toBe(1);
  });
  it('charges normalised Levenshtein for cell content (content TEDS) but not for structure TEDS', () => {
    const truth = table([['ab', 'cd']]); // elements: tr, td, td = 3
    const pred = table([['ab', 'ce']]);
    expect(teds(pred, truth)).toBeCloseTo(1 - 0.5 / 3, 10);
    expect(tedsStructure(pred, truth)).toBe(1);
  });
  it('charges 1 per missing cell and 1 for a span mismatch', () => {
    const truth = table([['a', 'b']]);
    expect(tedsStructure(table([['a']]), truth)).toBeCloseTo(1 - 1 / 3, 10);
    const spanned = table([['a', 'b']], (_, c) => (c === 0 ? ' colspan="2"' : ''));
    expect(tedsStructure(spanned, truth)).toBeCloseTo(1 - 1 / 3, 10);
  });
  it('counts inline tags as content tokens and as nodes', () => {
    const truth = '<table><tr><td><b>x</b></td></tr></table>'; // tr, td, b = 3 elements
    expect(teds('<table><tr><td>x</td></tr></table>', truth)).toBeCloseTo(1 - (2 / 3) / 3, 10);
  });
  it('scores 0 without a table', () => {
    expect(teds('no table', table([['a']]))).toBe(0);
    expect(teds('', table([['a']]))).toBe(0);
  });
});

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const pubtabnet = path.resolve(repoRoot, '..', 'shared', 'testdata', 'pubtabnet', 'src');
const havePubtabnet = existsSync(path.join(pubtabnet, 'sample_gt.json'));
if (!havePubtabnet) console.warn(`PubTabNet samples absent at ${pubtabnet}: TEDS real-data test skipped`);

describe.skipIf(!havePubtabnet)('TEDS on the PubTabNet sample pairs', () => {
  it('gives 1.0 for each table against itself and reproducible scores for the predictions', () => {
    const gt = JSON.parse(readFileSync(path.join(pubtabnet, 'sample_gt.json'), 'utf8')) as Record<string, { html: string; type: string }>;
    const pred = JSON.parse(readFileSync(path.join(pubtabnet, 'sample_pred.json'), 'utf8')) as Record<string, string>;
    const rows: string[] = [];
    const scores: number[] = [];
    for (const [name, truth] of Object.entries(gt)) {
      expect(teds(truth.html, truth.html), name).toBe(1);
      expect(tedsStructure(truth.html, truth.html), name).toBe(1);
      const s = teds(pred[name] ?? '', truth.html);
      const st = tedsStructure(pred[name] ?? '', truth.html);
      expect(s).toBeGreaterThanOrEqual(0);
      expect(st).toBeGreaterThanOrEqual(s - 1e-12);
      scores.push(s);
      rows.push(`${name}\t${truth.type}\tTEDS ${s.toFixed(4)}\tTEDS-S ${st.toFixed(4)}`);
    }
    const mean = scores.reduce((a, b) => a + b, 0) / scores.length;
    console.log(rows.join('\n') + `\nmean TEDS ${mean.toFixed(4)} over ${scores.length} pairs`);
    expect(scores).toHaveLength(20);
    expect(mean).toBeGreaterThan(0.5);
    expect(mean).toBeLessThan(1);
  });
});

/** Textbook forest recursion (exponential without memo; memoised on forest serialisations): the oracle for small trees. */
function naiveDistance(a: Labelled, b: Labelled, rename: (x: Labelled, y: Labelled) => number): number {
  const key = (f: Labelled[]): string => f.map((t) => `${t.label}(${key(t.children)})`).join(',');
  const size = (f: Labelled[]): number => f.reduce((s, t) => s + 1 + size(t.children), 0);
  const memo = new Map<string, number>();
  const dist = (f1: Labelled[], f2: Labelled[]): number => {
    if (f1.length === 0) return size(f2);
    if (f2.length === 0) return size(f1);
    const k = `${key(f1)}|${key(f2)}`;
    const known = memo.get(k);
    if (known !== undefined) return known;
    const v = f1[f1.length - 1]!;
    const w = f2[f2.length - 1]!;
    const result = Math.min(
      dist([...f1.slice(0, -1), ...v.children], f2) + 1,
      dist(f1, [...f2.slice(0, -1), ...w.children]) + 1,
      dist(f1.slice(0, -1), f2.slice(0, -1)) + dist(v.children, w.children) + rename(v, w),
    );
    memo.set(k, result);
    return result;
  };
  return dist([a], [b]);
}

describe('treeEditDistance against the textbook recursion', () => {
  it('agrees on 300 random small trees, with unit and fractional rename costs', () => {
    let seed = 12345;
    const random = (): number => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const randomTree = (budget: number, depth: number): Labelled => {
      const children: Labelled[] = [];
      let left = budget - 1;
      while (left > 0 && depth < 4 && random() < 0.7) {
        const take = 1 + Math.floor(random() * left);
        children.push(randomTree(take, depth + 1));
        left -= take;
      }
      return node('abc'[Math.floor(random() * 3)]!, ...children);
    };
    const fractional = (x: Labelled, y: Labelled): number => (x.label === y.label ? 0 : x.label === 'a' || y.label === 'a' ? 0.4 : 1);
    for (let trial = 0; trial < 300; trial++) {
      const t1 = randomTree(1 + Math.floor(random() * 8), 0);
      const t2 = randomTree(1 + Math.floor(random() * 8), 0);
      expect(treeEditDistance(t1, t2, unitRename)).toBeCloseTo(naiveDistance(t1, t2, unitRename), 10);
      expect(treeEditDistance(t1, t2, fractional)).toBeCloseTo(naiveDistance(t1, t2, fractional), 10);
    }
  });
});

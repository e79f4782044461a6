/**
 * The shortcuts that made deriving olmOCR tests fast must not change a single result: a BenchPage shared by many
 * tests answers as a fresh page per test, normalizeBenchText's fast path equals the full normalisation, exact
 * fuzzyMatchStarts equals a plain search, the trimmed Levenshtein equals the untrimmed one, and TEDS with its
 * structure from one parse (or none, for the same table twice) equals the two computed apart.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { distance } from 'fastest-levenshtein';
import { describe, expect, it } from 'vitest';
import { fuzzyMatchStarts } from '../fuzzySearch.js';
import { teds, tedsAndStructure, tedsStructure } from '../teds.js';
import { levenshtein } from '../textDistance.js';
import { BenchPage } from './benchPage.js';
import { normalizeBenchText, normalizeBenchTextFully } from './normalize.js';
import { runBenchTest } from './runTest.js';
import { parseBenchTests, type BenchTest } from './schema.js';

/** A deterministic pseudo-random generator (tests must not depend on Math.random). */
function generator(seed: number) {
  let state = seed;
  return (n: number) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % n;
  };
}

describe('fast paths', () => {
  const random = generator(7);
  const alphabet = ['a', 'b', 'c', ' ', '  ', '\n', '\t', '*', '_', '<br>', '<b>', 'é', 'é', '“', '—', 'µ', '1', '.', '|'];
  const randomText = (length: number) => Array.from({ length }, () => alphabet[random(alphabet.length)]).join('');

  it('normalizeBenchText equals the full normalisation on any text', () => {
    for (let i = 0; i < 2000; i++) {
      const text = randomText(random(30));
      expect(normalizeBenchText(text), JSON.stringify(text)).toBe(normalizeBenchTextFully(text));
    }
    for (const text of ['Plain ASCII, one space each.', 'Total 12.50', 'two  spaces', 'tab\there', 'a_b', 'x*y*z', 'café']) {
      expect(normalizeBenchText(text)).toBe(normalizeBenchTextFully(text));
    }
  });

  it('exact fuzzyMatchStarts finds every occurrence, overlapping ones too', () => {
    const plain = (pattern: string, text: string) =>
      Array.from({ length: text.length }, (_, i) => i).filter((i) => text.startsWith(pattern, i));
    for (let i = 0; i < 500; i++) {
      const text = Array.from({ length: random(40) }, () => 'ab'[random(2)]).join('');
      const pattern = Array.from({ length: 1 + random(3) }, () => 'ab'[random(2)]).join('');
      expect(fuzzyMatchStarts(pattern, text, 0), `${pattern} in ${text}`).toEqual(plain(pattern, text));
    }
  });

  it('levenshtein with the common head and tail cut equals the plain distance', () => {
    for (let i = 0; i < 1000; i++) {
      const a = randomText(random(60));
      const edits = random(4);
      let b = a;
      for (let e = 0; e < edits; e++) {
        const at = random(b.length + 1);
        b = b.slice(0, at) + randomText(random(3)) + b.slice(at + random(3));
      }
      expect(levenshtein(a, b), `${JSON.stringify(a)} / ${JSON.stringify(b)}`).toBe(distance(a, b));
    }
  });
});

// ---- a BenchPage shared by every test of the olmOCR-Bench sample ----
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const sampleDir = path.resolve(repoRoot, '..', 'shared', 'testdata', 'olmocr', 'olmocr', 'bench', 'sample_data');
const haveSample = existsSync(path.join(sampleDir, 'dataset.jsonl'));
if (!haveSample) console.log(`SKIPPED: shared BenchPage against the olmOCR sample: ${sampleDir} is absent`);

describe.skipIf(!haveSample)('BenchPage on the olmOCR-Bench sample', () => {
  it('answers every sample test on every sample output as a fresh page does', () => {
    const tests: BenchTest[] = [];
    for (const file of ['dataset.jsonl', 'blanks.jsonl']) tests.push(...parseBenchTests(readFileSync(path.join(sampleDir, file), 'utf8'), file).tests);
    const outputs: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const full = path.join(dir, name);
        if (statSync(full).isDirectory()) walk(full);
        else if (name.endsWith('.md')) outputs.push(readFileSync(full, 'utf8'));
      }
    };
    walk(path.join(sampleDir, 'olmocr_pipeline'));
    expect(outputs.length).toBeGreaterThan(5);
    let passed = 0;
    for (const markdown of outputs) {
      const shared = new BenchPage(markdown);
      // Case-insensitive and case-sensitive tests mixed on one page: the cached folded text must not leak.
      for (const test of [...tests, ...tests.map((t) => (t.type === 'present' || t.type === 'absent' ? { ...t, case_sensitive: !t.case_sensitive } : t))]) {
        const outcome = runBenchTest(test, shared);
        expect(outcome, test.id).toEqual(runBenchTest(test, new BenchPage(markdown)));
        if (outcome.passed) passed += 1;
      }
    }
    expect(passed).toBeGreaterThan(0);
  });
});

// ---- TEDS and TEDS-structure from one parse, on the PubTabNet sample pairs ----
const pubtabnet = path.resolve(repoRoot, '..', 'shared', 'testdata', 'pubtabnet', 'src');
const havePubtabnet = existsSync(path.join(pubtabnet, 'sample_gt.json'));
if (!havePubtabnet) console.log(`SKIPPED: tedsAndStructure on the PubTabNet sample: ${pubtabnet} is absent`);

describe.skipIf(!havePubtabnet)('tedsAndStructure on the PubTabNet sample', () => {
  it('equals teds and tedsStructure computed apart, for every pair and every table against itself', () => {
    const gt = JSON.parse(readFileSync(path.join(pubtabnet, 'sample_gt.json'), 'utf8')) as Record<string, { html: string }>;
    const pred = JSON.parse(readFileSync(path.join(pubtabnet, 'sample_pred.json'), 'utf8')) as Record<string, string>;
    const pairs = Object.entries(gt).flatMap(([name, truth]): [string, string][] => [
      [pred[name] ?? '', truth.html],
      [truth.html, truth.html],
    ]);
    expect(pairs.length).toBeGreaterThan(4);
    for (const [predicted, truth] of [...pairs, ['<p>no table</p>', '<p>no table</p>'], ['', '']] as [string, string][]) {
      expect(tedsAndStructure(predicted, truth)).toEqual({ teds: teds(predicted, truth), tedsStructure: tedsStructure(predicted, truth) });
    }
    expect(tedsAndStructure('<p>no table</p>', '<p>no table</p>')).toEqual({ teds: 0, tedsStructure: 0 });
  });
});

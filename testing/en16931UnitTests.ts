/**
 * The CEN's EN 16931 unit tests (../shared/testdata/en16931/unit-tests): each file a vefa `testSet` of `test`s, each
 * test one partial invoice and the verdicts it expects — `<success>RULE</success>` (the rule holds),
 * `<error>RULE</error>` / `<warning>RULE</warning>` (the rule fires; `number="N"`: it fires N times).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { defaultTestdataRoot } from './testdataPaths.js';

export const unitTestFamilies = ['ubl-invoice', 'ubl-creditnote', 'cii'] as const;
export type UnitTestFamily = (typeof unitTestFamilies)[number];

export interface ExpectedVerdict {
  rule: string;
  /** `success`: the rule must not fire; `error`/`warning`: it must fire. */
  kind: 'success' | 'error' | 'warning';
  /** How many times it must fire, where the test says (`number="N"`). */
  count?: number;
}

export interface UnitTest {
  family: UnitTestFamily;
  /** The testSet's file name, e.g. `BR-CO-13.xml`. */
  file: string;
  /** 1-based position of the test in its file. */
  index: number;
  description: string;
  expected: ExpectedVerdict[];
  /** The test's invoice as a standalone document. */
  xml: string;
}

export function unitTestDir(family: UnitTestFamily, testdataRoot = defaultTestdataRoot): string {
  return path.join(testdataRoot, 'en16931', 'unit-tests', family);
}

export function unitTestsAvailable(testdataRoot = defaultTestdataRoot): boolean {
  return unitTestFamilies.every((family) => existsSync(unitTestDir(family, testdataRoot)));
}

/** Every test of one family, files in name order. */
export function readUnitTests(family: UnitTestFamily, testdataRoot = defaultTestdataRoot): UnitTest[] {
  const dir = unitTestDir(family, testdataRoot);
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.xml'))
    .sort();
  return files.flatMap((file) => parseTestSet(readFileSync(path.join(dir, file), 'utf8'), family, file));
}

const COMMENT = /<!--[\s\S]*?-->/g;
const TEST = /<test\b[^>]*>([\s\S]*?)<\/test>/g;
const ASSERT = /^\s*<assert>([\s\S]*?)<\/assert>/;
const VERDICT = /<(success|error|warning)\b([^>]*)>([^<]*)<\/\1>/g;
const DESCRIPTION = /<description>([\s\S]*?)<\/description>/;
const NUMBER = /\bnumber\s*=\s*"(\d+)"/;

/**
 * Splits a testSet into its tests. Comments are dropped first (several tests comment out the element whose absence
 * they test, and a commented `<test>` would otherwise be read); the invoices declare their own namespaces, so the text
 * after the test's `<assert>` is a standalone document as it stands.
 */
export function parseTestSet(text: string, family: UnitTestFamily, file: string): UnitTest[] {
  const tests: UnitTest[] = [];
  const body = text.replace(COMMENT, '');
  let index = 0;
  for (const match of body.matchAll(TEST)) {
    index++;
    const content = match[1]!;
    const assert = ASSERT.exec(content);
    if (!assert) throw new Error(`${family}/${file} test ${index}: no <assert> before the invoice`);
    const expected = [...assert[1]!.matchAll(VERDICT)].map((v): ExpectedVerdict => {
      const count = NUMBER.exec(v[2]!)?.[1];
      return { kind: v[1] as ExpectedVerdict['kind'], rule: v[3]!.trim(), ...(count ? { count: Number(count) } : {}) };
    });
    const description = (DESCRIPTION.exec(assert[1]!)?.[1] ?? '').replace(/\s+/g, ' ').trim();
    const xml = `<?xml version="1.0" encoding="UTF-8"?>\n${content.slice(assert[0].length).trim()}\n`;
    tests.push({ family, file, index, description, expected, xml });
  }
  return tests;
}

/** What a validator reported, reduced to what a verdict needs: the rule ids fired, with their multiplicity. */
export function verdictHolds(expected: ExpectedVerdict, fired: readonly { id: string }[]): boolean {
  const times = fired.filter((f) => f.id === expected.rule).length;
  if (expected.kind === 'success') return times === 0;
  return expected.count === undefined ? times > 0 : times === expected.count;
}

/**
 * Conformance against the CEN unit tests (../shared/testdata/en16931/unit-tests): every `test` of every file gives
 * the expected verdict for its rule — `success`: the rule does not fire; `error`: it fires.
 * Per family figures are printed; the full runner with the oracle lives elsewhere (the engine's own check).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { unitTestCases } from './conformance.js';
import { validateEInvoiceXml } from './index.js';

const ROOT = join(__dirname, '../../../shared/testdata/en16931/unit-tests');
const SETS = ['ubl-invoice', 'ubl-creditnote', 'cii'];

interface Outcome {
  file: string;
  index: number;
  rule: string;
  expect: string;
  fired: boolean | 'unreadable';
}

function run(set: string): Outcome[] {
  const dir = join(ROOT, set);
  const out: Outcome[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.xml')).sort()) {
    for (const c of unitTestCases(readFileSync(join(dir, file), 'utf8'))) {
      let fired: boolean | 'unreadable';
      try {
        const report = validateEInvoiceXml(c.xml);
        fired = report.failed.some((f) => f.id === c.rule);
      } catch {
        fired = 'unreadable';
      }
      out.push({ file, index: c.index, rule: c.rule, expect: c.expect, fired });
    }
  }
  return out;
}

const passed = (o: Outcome): boolean => o.fired !== 'unreadable' && o.fired === (o.expect === 'error');
/** Business rules (BR-*) apart from the syntax binding rules (UBL-CR/SR/DT, CII-SR/DT), for the figures. */
const isBusinessRule = (o: Outcome): boolean => o.rule.startsWith('BR-');

describe('CEN EN 16931 unit tests', () => {
  for (const set of SETS) {
    it(set, () => {
      if (!existsSync(join(ROOT, set))) {
        console.log(`SKIPPED: ${join(ROOT, set)} is absent (../shared/testdata not mounted)`);
        return;
      }
      const outcomes = run(set);
      const failures = outcomes.filter((o) => !passed(o));
      const business = outcomes.filter(isBusinessRule);
      const businessFailures = failures.filter(isBusinessRule);
      console.log(`${set}: ${outcomes.length - failures.length}/${outcomes.length} tests give the expected verdict; business rules ${business.length - businessFailures.length}/${business.length}`);
      for (const f of failures.slice(0, 40)) console.log(`  ${f.file}#${f.index} ${f.rule} expected ${f.expect}, fired=${f.fired}`);
      expect(business.length).toBeGreaterThan(0);
      expect(failures.map((f) => `${f.file}#${f.index} ${f.rule} expected ${f.expect}`)).toEqual([]);
    });
  }
});

/**
 * Conformance of the native engine (app/en16931) with the CEN's EN 16931 unit tests: every test of
 * unit-tests/ubl-invoice, ubl-creditnote and cii gives the verdict it expects for its rule. Figures per family are
 * printed (docs/en16931.md quotes them).
 */
import { describe, expect, it } from 'vitest';
import { validateEInvoiceXml } from '../app/en16931/index.js';
import { readUnitTests, unitTestFamilies, unitTestsAvailable, verdictHolds, type UnitTestFamily } from './en16931UnitTests.js';

interface FamilyResult {
  tests: number;
  verdicts: number;
  passed: number;
  failures: string[];
}

function runFamily(family: UnitTestFamily): FamilyResult {
  const result: FamilyResult = { tests: 0, verdicts: 0, passed: 0, failures: [] };
  for (const test of readUnitTests(family)) {
    result.tests++;
    let fired: { id: string }[] | null = null;
    let error = '';
    try {
      fired = validateEInvoiceXml(test.xml).failed;
    } catch (e) {
      error = (e as Error).message;
    }
    for (const verdict of test.expected) {
      result.verdicts++;
      if (fired !== null && verdictHolds(verdict, fired)) result.passed++;
      else {
        const times = fired?.filter((f) => f.id === verdict.rule).length;
        const got = fired === null ? `unreadable: ${error}` : `fired ${times}×`;
        result.failures.push(`${family}/${test.file} #${test.index} expects ${verdict.kind} ${verdict.rule}${verdict.count ? ` ×${verdict.count}` : ''}: ${got}`);
      }
    }
  }
  return result;
}

describe.runIf(unitTestsAvailable())('CEN EN 16931 unit tests on the native engine', () => {
  for (const family of unitTestFamilies) {
    it(`${family}: every test gives its expected verdict`, () => {
      const result = runFamily(family);
      console.log(
        `EN 16931 unit tests ${family}: ${result.passed}/${result.verdicts} verdicts in ${result.tests} tests ` +
          `(${((100 * result.passed) / Math.max(1, result.verdicts)).toFixed(1)} %)`,
      );
      if (result.failures.length > 0) console.log(result.failures.slice(0, 40).join('\n'));
      expect(result.tests).toBeGreaterThan(0);
      expect(result.failures).toEqual([]);
    });
  }
});

if (!unitTestsAvailable()) console.log('SKIPPED: ../shared/testdata/en16931/unit-tests is absent');

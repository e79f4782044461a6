/**
 * Conformance of the native engine (app/en16931) with the CEN's EN 16931 unit tests: every test of
 * unit-tests/ubl-invoice, ubl-creditnote and cii gives the verdict it expects for its rule. Figures per family are
 * printed (docs/en16931.md quotes them).
 *
 * A verdict is "the rule fires" or "it does not"; the business rules (BR-*) and the syntax binding rules
 * (UBL-CR/SR/DT, CII-SR/DT) are counted apart. `number="N"` — how many times the official XSLT fires a rule (once
 * per offending element) — is reported where the engine differs (it reports a rule once per document or line), a
 * known difference (docs/en16931.md), not a failed verdict.
 */
import { describe, expect, it } from 'vitest';
import { validateEInvoiceXml } from '../app/en16931/index.js';
import { readUnitTests, unitTestFamilies, unitTestsAvailable, verdictHolds, type UnitTestFamily } from './en16931UnitTests.js';

interface FamilyResult {
  tests: number;
  verdicts: number;
  passed: number;
  failures: string[];
  /** Syntax binding rule verdicts: how many, how many hold, which do not. */
  syntax: { verdicts: number; passed: number; failures: string[] };
  /** Verdicts that hold but with another number of firings than the test's `number`. */
  countDiffers: string[];
}

const SYNTAX_BINDING_RULE = /^(UBL|CII)-(CR|SR|DT)-/;

function runFamily(family: UnitTestFamily): FamilyResult {
  const result: FamilyResult = { tests: 0, verdicts: 0, passed: 0, failures: [], syntax: { verdicts: 0, passed: 0, failures: [] }, countDiffers: [] };
  for (const test of readUnitTests(family)) {
    result.tests++;
    let fired: { id: string }[] | null = null;
    let error = '';
    try {
      fired = validateEInvoiceXml(test.xml, { rules: 'en16931' }).failed;
    } catch (e) {
      error = (e as Error).message;
    }
    for (const verdict of test.expected) {
      const tally = SYNTAX_BINDING_RULE.test(verdict.rule) ? result.syntax : result;
      tally.verdicts++;
      const times = fired?.filter((f) => f.id === verdict.rule).length;
      const label = `${family}/${test.file} #${test.index} expects ${verdict.kind} ${verdict.rule}${verdict.count ? ` ×${verdict.count}` : ''}`;
      if (fired !== null && verdictHolds({ rule: verdict.rule, kind: verdict.kind }, fired)) {
        tally.passed++;
        if (verdict.count !== undefined && times !== verdict.count) result.countDiffers.push(`${label}: fired ${times}×`);
      } else tally.failures.push(`${label}: ${fired === null ? `unreadable: ${error}` : `fired ${times}×`}`);
    }
  }
  return result;
}

describe.runIf(unitTestsAvailable())('CEN EN 16931 unit tests on the native engine', () => {
  for (const family of unitTestFamilies) {
    it(`${family}: every test gives its expected verdict`, () => {
      const result = runFamily(family);
      console.log(
        `EN 16931 unit tests ${family}: ${result.tests} tests; business rules ${result.passed}/${result.verdicts} verdicts ` +
          `(${((100 * result.passed) / Math.max(1, result.verdicts)).toFixed(1)} %); syntax binding rules ` +
          `${result.syntax.passed}/${result.syntax.verdicts}; ${result.countDiffers.length} ` +
          `with another number of firings than the test's`,
      );
      for (const line of [...result.failures, ...result.syntax.failures, ...result.countDiffers].slice(0, 40)) console.log(`  ${line}`);
      expect(result.tests).toBeGreaterThan(0);
      expect(result.failures).toEqual([]);
      expect(result.syntax.failures).toEqual([]);
    });
  }
});

if (!unitTestsAvailable()) console.log('SKIPPED: ../shared/testdata/en16931/unit-tests is absent');

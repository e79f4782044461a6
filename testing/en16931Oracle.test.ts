import { beforeAll, describe, expect, it } from 'vitest';
import { En16931Oracle, firedRuleKeys, oracleAvailable, oracleSyntaxOf, parseSvrlFailures } from './en16931Oracle.js';
import { readUnitTests, unitTestsAvailable, verdictHolds, type UnitTest } from './en16931UnitTests.js';

describe('parseSvrlFailures', () => {
  it('reads id, flag, location and message of each failed assert', () => {
    const svrl =
      '<svrl:schematron-output><svrl:fired-rule context="/"/>' +
      '<svrl:failed-assert test="x" id="BR-01" flag="fatal" location="/*:Invoice[1]"><svrl:text>[BR-01]-An Invoice shall have a Specification identifier &amp; more</svrl:text></svrl:failed-assert>' +
      '<svrl:failed-assert test="y" id="BR-CL-10" flag="warning" location="/a"><svrl:text>[BR-CL-10] x</svrl:text></svrl:failed-assert>' +
      '</svrl:schematron-output>';
    const failed = parseSvrlFailures(svrl);
    expect(failed).toEqual([
      { id: 'BR-01', flag: 'fatal', location: '/*:Invoice[1]', message: '[BR-01]-An Invoice shall have a Specification identifier & more' },
      { id: 'BR-CL-10', flag: 'warning', location: '/a', message: '[BR-CL-10] x' },
    ]);
    expect(firedRuleKeys([...failed, failed[0]!])).toEqual(['BR-01:fatal', 'BR-CL-10:warning']);
  });

  it('rejects a failed assert without a known flag', () => {
    expect(() => parseSvrlFailures('<svrl:failed-assert id="X" flag="info"><svrl:text>t</svrl:text></svrl:failed-assert>')).toThrow(/flag info/);
  });
});

describe('oracleSyntaxOf', () => {
  it('tells CII from UBL by the root element, past prolog and comments', () => {
    expect(oracleSyntaxOf('<?xml version="1.0"?><!-- <Invoice> --><rsm:CrossIndustryInvoice xmlns:rsm="u"/>')).toBe('CII');
    expect(oracleSyntaxOf('<CreditNote xmlns="urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"/>')).toBe('UBL');
    expect(() => oracleSyntaxOf('<html/>')).toThrow(/not an EN 16931 document/);
  });
});

// A few CEN unit tests per family, one of each verdict kind: the oracle must give the expected verdict.
// RECTO_EN16931_ORACLE_FULL=1 runs every test instead (about a minute; figures in docs/en16931.md). The native engine's
// sweep over every test is testing/en16931Conformance.test.ts.
const SANITY_FILES = ['BR-01.xml', 'BR-CO-13.xml', 'BR-CO-17.xml', 'BR-CL-10.xml', 'BR-51.xml'];
const FULL = process.env.RECTO_EN16931_ORACLE_FULL === '1';

describe.runIf(oracleAvailable() && unitTestsAvailable())('the official XSLT on CEN unit tests', () => {
  let oracle: En16931Oracle;
  beforeAll(async () => {
    oracle = await En16931Oracle.load();
  }, 240_000);

  const sample = (): UnitTest[] =>
    (['ubl-invoice', 'ubl-creditnote', 'cii'] as const).flatMap((family) => readUnitTests(family).filter((t) => FULL || SANITY_FILES.includes(t.file)));

  it('gives the expected verdict on each', () => {
    const tests = sample();
    expect(tests.length).toBeGreaterThan(15);
    const kinds = new Set(tests.flatMap((t) => t.expected.map((e) => e.kind)));
    expect([...kinds].sort()).toEqual(['error', 'success', 'warning']);
    let verdicts = 0;
    for (const test of tests) {
      const report = oracle.validate(test.xml);
      for (const verdict of test.expected) {
        expect(verdictHolds(verdict, report.failed), `${test.family}/${test.file} #${test.index} ${verdict.kind} ${verdict.rule}`).toBe(true);
        verdicts++;
      }
    }
    console.log(`official XSLT: ${verdicts}/${verdicts} verdicts hold in ${tests.length} CEN unit tests${FULL ? ' (all)' : ' (sample)'}`);
  });
});

if (!oracleAvailable() || !unitTestsAvailable()) console.log('SKIPPED: ../shared/testdata/en16931 (oracle XSLT and unit tests) is absent');

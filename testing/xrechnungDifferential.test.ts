/**
 * XRechnung 3.0 rules against KoSIT's XSLT (issue 36): on KoSIT's technical test cases (all valid XRechnung 3.0, UBL
 * and CII), the testdata invoices that declare XRechnung 3.0, and seeded mutants of each (testing/en16931Mutations.ts),
 * and mutants aimed at what the XRechnung rules read (xrechnungMutations.ts), the XRechnung rules Recto implements
 * (XRECHNUNG_RULE_IDS) must fire exactly where the oracle fires them, with its flag. On the technical cases no
 * XRechnung rule fires, and the EN 16931 verdict is the CEN XSLT's (the CVD cases fail BR-CL-13 there too: their
 * `listID="CVD"` is not in UNTDID 7143). Rules the engine does not implement are
 * left out of the comparison (they are listed in docs/en16931.md), never counted as agreement.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { validateEInvoiceXml, XRECHNUNG_RULE_IDS } from '../app/en16931/index.js';
import { mutantsOf } from './en16931Mutations.js';
import { En16931Oracle } from './en16931Oracle.js';
import { xrechnungMutants } from './xrechnungMutations.js';
import { defaultTestdataRoot } from './testdataPaths.js';
import { XRechnungOracle, xrechnungOracleAvailable } from './xrechnungOracle.js';

const MUTANTS = Number(process.env.RECTO_XRECHNUNG_MUTANTS ?? 8);
const SEED = 2036;
const implemented = new Set(XRECHNUNG_RULE_IDS);
const casesDir = path.join(defaultTestdataRoot, 'xrechnung', 'technical-cases');
const available = xrechnungOracleAvailable();
if (!available) console.log(`SKIPPED: XRechnung differential: ${path.join(defaultTestdataRoot, 'xrechnung')} is absent`);

function xmlFiles(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith('.xml'))
      .map((e) => path.join(e.parentPath, e.name))
      .sort();
  } catch {
    return [];
  }
}

const XR3 = /urn:xeinkauf\.de:kosit:xrechnung_3\.0/;
const technicalCases = xmlFiles(casesDir);
/** Other testdata invoices that declare XRechnung 3.0 (einvoices/xml, einvoice-corpus/xml). */
const declared = ['einvoices', 'einvoice-corpus']
  .flatMap((folder) => xmlFiles(path.join(defaultTestdataRoot, folder, 'xml')))
  .filter((file) => XR3.test(readFileSync(file, 'utf8').slice(0, 4000)));

const keys = (failed: readonly { id: string; flag: string }[]) => [...new Set(failed.filter((f) => implemented.has(f.id)).map((f) => `${f.id}:${f.flag}`))].sort();

/**
 * BR-DE-19 (a warning) checks the IBAN with `xs:integer(digits) mod 97`. saxon-js holds xs:integer in a JavaScript
 * number, so past 2^53 — every German IBAN: 24 digits — its remainder is that of a rounded number and the oracle
 * fires on valid IBANs (DE91100000000123456789: exact remainder 1, saxon-js's 23). KoSIT's own validator (Saxon on
 * Java) computes exactly, and so does the engine; where a credit transfer's account is that long, BR-DE-19 has no
 * trustworthy oracle verdict and is left out of the comparison (counted). BR-DE-20 casts to xs:decimal, which saxon-js
 * computes exactly: compared everywhere.
 */
function ibanBeyondSaxonJsIntegers(xml: string): boolean {
  const accounts = [...xml.matchAll(/<(?:[\w.-]+:)?(?:PayeeFinancialAccount>\s*<(?:[\w.-]+:)?ID|IBANID)\b[^>]*>([^<]*)</g)].map((m) => m[1]!.replace(/\s/g, ''));
  return accounts.some((iban) => {
    const rearranged = iban.slice(4) + iban.slice(0, 2).toUpperCase() + iban.slice(2, 4);
    const digits = [...rearranged].map((c) => (c.codePointAt(0)! > 64 ? c.codePointAt(0)! - 55 : c.codePointAt(0)! - 48)).join('');
    return /^\d+$/.test(digits) && BigInt(digits) > BigInt(Number.MAX_SAFE_INTEGER);
  });
}

describe.runIf(available)('XRechnung 3.0 rules against KoSIT’s XSLT', () => {
  let oracle: XRechnungOracle;
  let cen: En16931Oracle;
  beforeAll(async () => {
    [oracle, cen] = await Promise.all([XRechnungOracle.load(), En16931Oracle.load()]);
  }, 240_000);

  it('on every technical case: the XRechnung set applied as declared, no XRechnung rule fired, the CEN XSLT’s EN 16931 verdict', () => {
    expect(technicalCases.length).toBeGreaterThanOrEqual(14);
    const fatalIds = (failed: readonly { id: string; flag: string }[]) => [...new Set(failed.filter((f) => f.flag === 'fatal').map((f) => f.id))].sort();
    for (const file of technicalCases) {
      const xml = readFileSync(file, 'utf8');
      const report = validateEInvoiceXml(readFileSync(file));
      expect(report.ruleSets, file).toContain('xrechnung');
      expect(report.failed.filter((f) => implemented.has(f.id)), file).toEqual([]);
      expect(keys(oracle.validate(xml).failed), file).toEqual([]);
      expect(fatalIds(report.failed), file).toEqual(fatalIds(cen.validate(xml).failed));
    }
  });

  it('fires the implemented rules exactly where the oracle does, on the cases, the declared invoices and their mutants', () => {
    const documents = [...technicalCases, ...declared].flatMap((file) => {
      const xml = readFileSync(file, 'utf8');
      const name = path.relative(defaultTestdataRoot, file);
      return [
        { name, xml },
        ...mutantsOf(name, xml, MUTANTS, SEED).map((m) => ({ name: `${name} #${m.number} ${m.operator}: ${m.change}`, xml: m.xml })),
        ...xrechnungMutants(xml).map((m) => ({ name: `${name} ${m.change}`, xml: m.xml })),
      ];
    });
    let compared = 0;
    let noVerdict = 0;
    let br19Uncomparable = 0;
    const disagreements: string[] = [];
    const perRule = new Map<string, { both: number; oracleOnly: number; engineOnly: number }>();
    for (const doc of documents) {
      let expected: string[];
      let actual: string[];
      try {
        expected = keys(oracle.validate(doc.xml).failed);
      } catch {
        noVerdict++; // the XSLT stops with a dynamic error: no official verdict
        continue;
      }
      try {
        actual = keys(validateEInvoiceXml(doc.xml, { rules: 'xrechnung' }).failed);
      } catch (error) {
        disagreements.push(`${doc.name}: the engine refused it (${(error as Error).message}); the oracle fired ${expected.join(', ') || 'nothing'}`);
        compared++;
        continue;
      }
      compared++;
      if (ibanBeyondSaxonJsIntegers(doc.xml)) {
        const without = (list: string[]) => list.filter((key) => key !== 'BR-DE-19:warning');
        if (expected.length !== without(expected).length || actual.length !== without(actual).length) br19Uncomparable++;
        expected = without(expected);
        actual = without(actual);
      }
      for (const key of new Set([...expected, ...actual])) {
        const row = perRule.get(key) ?? { both: 0, oracleOnly: 0, engineOnly: 0 };
        if (expected.includes(key) && actual.includes(key)) row.both++;
        else if (expected.includes(key)) row.oracleOnly++;
        else row.engineOnly++;
        perRule.set(key, row);
      }
      if (expected.join() !== actual.join()) disagreements.push(`${doc.name}: oracle ${expected.join(', ') || '-'} / engine ${actual.join(', ') || '-'}`);
    }
    const agreement = (compared - disagreements.length) / compared;
    console.log(
      `XRechnung ${XRECHNUNG_RULE_IDS.length} rules: ${technicalCases.length} technical cases + ${declared.length} declared invoices, ${MUTANTS} general mutants each (seed ${SEED}) + the targeted ones: ` +
        `${compared - disagreements.length}/${compared} identical (${(agreement * 100).toFixed(2)} %), ${noVerdict} without an oracle verdict, ` +
        `BR-DE-19 left out on ${br19Uncomparable} (an IBAN past saxon-js's integer precision)`,
    );
    console.table([...perRule].sort().map(([rule, row]) => ({ rule, ...row })));
    if (disagreements.length > 0) console.log(disagreements.slice(0, 20).join('\n'));
    expect(agreement).toBeGreaterThanOrEqual(0.99);
  }, 600_000);
});

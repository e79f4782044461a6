/**
 * The differential test against the official EN 16931 XSLT, for one syntax: every complete e-invoice of testdata and
 * its seeded mutants, validated by the native engine and by the oracle; every mutant must fire the same set of rules
 * (id + flag), allow-listed disagreements aside. One test file per syntax, so the two run on separate cores.
 *
 * Size: MUTANTS_PER_DOCUMENT per source (fewer for the megabyte-sized ones, whose cost is their base64 attachment),
 * chosen so that the pair of files takes at most about four minutes on two cores, oracle compilation included
 * (docs/en16931.md has the measured time). RECTO_EN16931_MUTANTS overrides it for a longer run.
 */
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { validateEInvoiceXml } from '../app/en16931/index.js';
import { completeEInvoices, eInvoiceCorpusAvailable, type CompleteEInvoice } from './en16931Corpus.js';
import { DifferentialTally, type AllowedDisagreement } from './en16931Differential.js';
import { mutantsOf, mutationOperators } from './en16931Mutations.js';
import { En16931Oracle, oracleAvailable, oracleSyntaxOf, type OracleSyntax } from './en16931Oracle.js';

const MUTANTS_PER_DOCUMENT = Number(process.env.RECTO_EN16931_MUTANTS ?? 12);
const LARGE_DOCUMENT_CHARS = 300_000;
const MUTANTS_PER_LARGE_DOCUMENT = 3;
const SEED = 2026;
/** The issue's target: ≥ 99.9 % of mutants fire the same rules in both. */
const TARGET_AGREEMENT = 0.999;
/** About a minute per syntax on a free core; generous, because the development machine is shared (load up to 20). */
const TEST_TIMEOUT_MS = 10 * 60_000;

/**
 * Known disagreements, each with its reason (docs/en16931.md lists the same). Keep it small: an entry hides every
 * disagreement on that rule:flag.
 */
// Empty: since the engine checks the syntax binding rules too (app/en16931/syntax), every rule:flag is compared.
export const ALLOWED_DISAGREEMENTS: readonly AllowedDisagreement[] = [];

/** The sources of one syntax, without exact duplicates (several PDFs embed an XML that is also in xml/). */
async function sourcesOf(syntax: OracleSyntax): Promise<CompleteEInvoice[]> {
  const seen = new Set<string>();
  const sources: CompleteEInvoice[] = [];
  for (const doc of await completeEInvoices({ withPdfs: true })) {
    let docSyntax: OracleSyntax;
    try {
      docSyntax = oracleSyntaxOf(doc.xml);
    } catch {
      continue; // ZUGFeRD 1 (CrossIndustryDocument): the official EN 16931 XSLT does not judge it
    }
    const hash = createHash('sha256').update(doc.xml).digest('hex');
    if (docSyntax !== syntax || seen.has(hash)) continue;
    seen.add(hash);
    sources.push(doc);
  }
  return sources;
}

function engineFired(xml: string): { id: string; flag: string }[] | Error {
  try {
    // Forced to EN 16931: the CEN XSLT applies its rules whatever profile the document declares (no XRechnung set).
    return validateEInvoiceXml(xml, { rules: 'en16931' }).failed;
  } catch (error) {
    return error as Error;
  }
}

export function differentialSuite(syntax: OracleSyntax): void {
  const available = oracleAvailable() && eInvoiceCorpusAvailable();
  if (!available) console.log(`SKIPPED: ../shared/testdata (EN 16931 oracle and e-invoices) is absent: no ${syntax} differential test`);

  describe.runIf(available)(`${syntax} e-invoices and their mutants: native engine vs the official XSLT`, () => {
    let oracle: En16931Oracle;
    let sources: CompleteEInvoice[];
    beforeAll(async () => {
      [oracle, sources] = await Promise.all([En16931Oracle.load(), sourcesOf(syntax)]);
    }, 240_000);

    it('fires the same rules (id + flag) on every original and mutant', () => {
      const tally = new DifferentialTally(ALLOWED_DISAGREEMENTS);
      const perOperator = new Map<string, DifferentialTally>(mutationOperators.map((op) => [op, new DifferentialTally(ALLOWED_DISAGREEMENTS)]));
      const oracleAborted: string[] = [];
      const engineRefused: string[] = [];
      const started = performance.now();
      for (const source of sources) {
        const count = source.xml.length > LARGE_DOCUMENT_CHARS ? MUTANTS_PER_LARGE_DOCUMENT : MUTANTS_PER_DOCUMENT;
        const documents = [
          { name: source.name, operator: 'original', xml: source.xml },
          ...mutantsOf(source.name, source.xml, count, SEED).map((m) => ({ name: `${m.source} #${m.number} ${m.change}`, operator: m.operator, xml: m.xml })),
        ];
        for (const doc of documents) {
          let oracleFired;
          try {
            oracleFired = oracle.validate(doc.xml, syntax).failed;
          } catch (error) {
            // The XSLT itself stops with a dynamic error (a duplicated single-valued element, a non-decimal amount):
            // the official validator gives no verdict to compare with.
            oracleAborted.push(`${doc.name}: ${(error as Error).message.slice(0, 120)}`);
            continue;
          }
          const fired = engineFired(doc.xml);
          if (fired instanceof Error) {
            engineRefused.push(`${doc.name}: ${fired.message}`);
            continue;
          }
          tally.add(doc.name, oracleFired, fired);
          perOperator.get(doc.operator)?.add(doc.name, oracleFired, fired);
        }
      }
      const seconds = (performance.now() - started) / 1000;
      console.log(tally.summary(`${syntax}: ${sources.length} sources`) + ` (${seconds.toFixed(0)} s)`);
      for (const [op, t] of perOperator) if (t.documents > 0) console.log(`  ${op.padEnd(10)} ${t.agreeing}/${t.documents}`);
      console.log(`  oracle aborted (no verdict): ${oracleAborted.length}; engine refused the XML: ${engineRefused.length}`);
      console.log(tally.table());
      for (const allowed of ALLOWED_DISAGREEMENTS) {
        const keys = [...tally.rules.entries()].filter(([key, t]) => tally.isAllowed(key) && (t.onlyOracle > 0 || t.onlyEngine > 0) && (typeof allowed.rule === 'string' ? allowed.rule === key : allowed.rule.test(key)));
        console.log(`allow-listed ${String(allowed.rule)} (${allowed.reason}): ${keys.map(([key, t]) => `${key} ${t.onlyOracle}/${t.onlyEngine}`).join(', ') || 'no disagreement'}`);
      }
      if (tally.disagreements.length > 0) {
        console.log(
          tally.disagreements
            .slice(0, 60)
            .map((d) => `DISAGREE ${d.name}\n    only oracle: ${d.onlyOracle.join(' ') || '-'}\n    only engine: ${d.onlyEngine.join(' ') || '-'}`)
            .join('\n'),
        );
      }
      if (engineRefused.length > 0) console.log(engineRefused.slice(0, 10).join('\n'));
      expect(tally.documents).toBeGreaterThan(sources.length);
      // An XML the official validator judges must be read by the engine too.
      expect(engineRefused).toEqual([]);
      expect(tally.agreementOutsideAllowList()).toBeGreaterThanOrEqual(TARGET_AGREEMENT);
    }, TEST_TIMEOUT_MS);
  });
}

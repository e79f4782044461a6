/**
 * KoSIT's XRechnung 3.0 validation XSLT (`../shared/testdata/xrechnung/oracle/`, the compiled schematron of BR-DE-*,
 * BR-DEX-*, the CVD rules and the Peppol rules XRechnung includes) run through saxon-js like the EN 16931 oracle
 * (en16931Oracle.ts: the SEF compiled once and cached). Tests and benchmarks only. An XRechnung must pass this and
 * the EN 16931 XSLT; this oracle is the XRechnung half.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { compiledStylesheetPath, oracleSyntaxOf, parseSvrlFailures, type OracleReport, type OracleSyntax } from './en16931Oracle.js';
import { defaultTestdataRoot } from './testdataPaths.js';

interface SaxonJs {
  transform(options: Record<string, unknown>, mode: 'sync'): { principalResult: string };
}
const saxon = createRequire(import.meta.url)('saxon-js') as SaxonJs;

export function xrechnungXsltPath(syntax: OracleSyntax, testdataRoot = defaultTestdataRoot): string {
  return path.join(testdataRoot, 'xrechnung', 'oracle', `XRechnung-${syntax}-validation.xslt`);
}

export function xrechnungOracleAvailable(testdataRoot = defaultTestdataRoot): boolean {
  return existsSync(xrechnungXsltPath('UBL', testdataRoot)) && existsSync(xrechnungXsltPath('CII', testdataRoot));
}

export class XRechnungOracle {
  private constructor(private readonly stylesheets: Record<OracleSyntax, unknown>) {}

  static async load(testdataRoot = defaultTestdataRoot): Promise<XRechnungOracle> {
    const sef = async (syntax: OracleSyntax): Promise<unknown> =>
      JSON.parse(await readFile(await compiledStylesheetPath(xrechnungXsltPath(syntax, testdataRoot), `XRechnung-${syntax}`), 'utf8'));
    const [ubl, cii] = await Promise.all([sef('UBL'), sef('CII')]);
    return new XRechnungOracle({ UBL: ubl, CII: cii });
  }

  validate(xml: string, syntax: OracleSyntax = oracleSyntaxOf(xml)): OracleReport {
    const result = saxon.transform({ stylesheetInternal: this.stylesheets[syntax], sourceText: xml, destination: 'serialized' }, 'sync');
    return { syntax, failed: parseSvrlFailures(result.principalResult, { skipInformation: true }) };
  }
}

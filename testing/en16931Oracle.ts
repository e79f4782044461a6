/**
 * The official EN 16931 validation (the CEN's schematron compiled to XSLT, ../shared/testdata/en16931/oracle) run
 * through saxon-js: the reference the native engine (app/en16931) is tested and benchmarked against. Tests and
 * benchmarks only — the product never ships saxon-js or the 5–7 MB compiled stylesheets (docs/en16931.md).
 *
 * The XSLT is compiled to a SEF (saxon's export format) with xslt3's compiler once, in a child process (≈ 25 s per
 * syntax), and cached under os.tmpdir() keyed by the XSLT's SHA-256, so a changed stylesheet never reuses a stale SEF.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { defaultTestdataRoot } from './testdataPaths.js';

export type OracleSyntax = 'UBL' | 'CII';
export type OracleFlag = 'fatal' | 'warning';

export interface OracleFailure {
  id: string;
  flag: OracleFlag;
  /** The SVRL location (an XPath into the document). */
  location: string;
  message: string;
}

export interface OracleReport {
  syntax: OracleSyntax;
  /** Failed asserts in document order, as the SVRL lists them (a rule may fire several times). */
  failed: OracleFailure[];
}

interface SaxonTransformResult {
  principalResult: string;
}
interface SaxonJs {
  transform(options: Record<string, unknown>, mode: 'sync'): SaxonTransformResult;
}

const require = createRequire(import.meta.url);
const saxon = require('saxon-js') as SaxonJs;
const xslt3Cli = require.resolve('xslt3/xslt3.js');

/** The compiler needs several hundred MB and half a minute for the 0.7–0.9 MB stylesheets. */
const COMPILE_TIMEOUT_MS = 10 * 60_000;
const COMPILE_MAX_BUFFER = 16 * 1024 * 1024;

export function oracleXsltPath(syntax: OracleSyntax, testdataRoot = defaultTestdataRoot): string {
  return path.join(testdataRoot, 'en16931', 'oracle', `EN16931-${syntax}-validation.xslt`);
}

export function oracleAvailable(testdataRoot = defaultTestdataRoot): boolean {
  return existsSync(oracleXsltPath('UBL', testdataRoot)) && existsSync(oracleXsltPath('CII', testdataRoot));
}

/** Which stylesheet applies: CII for a CrossIndustryInvoice root, UBL for Invoice and CreditNote. */
export function oracleSyntaxOf(xml: string): OracleSyntax {
  const root = /<(?:[A-Za-z_][\w.-]*:)?(Invoice|CreditNote|CrossIndustryInvoice)[\s>/]/.exec(stripProlog(xml));
  if (!root) throw new Error('not an EN 16931 document: no Invoice, CreditNote or CrossIndustryInvoice root element');
  return root[1] === 'CrossIndustryInvoice' ? 'CII' : 'UBL';
}

function stripProlog(xml: string): string {
  return xml.replace(/<\?[\s\S]*?\?>|<!--[\s\S]*?-->/g, '');
}

/** Compiles (or reuses the cached) SEF of one syntax's XSLT; returns the cached file's path. */
export async function compiledOraclePath(syntax: OracleSyntax, testdataRoot = defaultTestdataRoot): Promise<string> {
  return compiledStylesheetPath(oracleXsltPath(syntax, testdataRoot), syntax);
}

/** Compiles (or reuses the cached) SEF of any validation XSLT; `tag` names the cached file. */
export async function compiledStylesheetPath(xsltPath: string, tag: string): Promise<string> {
  const xslt = await readFile(xsltPath);
  const sha = createHash('sha256').update(xslt).digest('hex');
  const cacheDir = path.join(os.tmpdir(), 'recto-en16931-oracle');
  const sefPath = path.join(cacheDir, `${tag}-${sha.slice(0, 32)}.sef.json`);
  if (existsSync(sefPath)) return sefPath;
  await mkdir(cacheDir, { recursive: true });
  // Written beside, then renamed: a concurrent test process never reads a half-written SEF.
  const partial = `${sefPath}.${process.pid}.partial`;
  await promisify(execFile)(process.execPath, [xslt3Cli, `-xsl:${xsltPath}`, `-export:${partial}`, '-nogo', '-relocate:on'], {
    timeout: COMPILE_TIMEOUT_MS,
    maxBuffer: COMPILE_MAX_BUFFER,
  });
  await rename(partial, sefPath);
  return sefPath;
}

/** A loaded oracle: both stylesheets parsed once, then `validate` runs synchronously per document. */
export class En16931Oracle {
  private constructor(private readonly stylesheets: Record<OracleSyntax, unknown>) {}

  static async load(testdataRoot = defaultTestdataRoot): Promise<En16931Oracle> {
    const [ubl, cii] = await Promise.all([compiledOraclePath('UBL', testdataRoot), compiledOraclePath('CII', testdataRoot)]);
    const parse = async (file: string): Promise<unknown> => JSON.parse(await readFile(file, 'utf8'));
    return new En16931Oracle({ UBL: await parse(ubl), CII: await parse(cii) });
  }

  validate(xml: string, syntax: OracleSyntax = oracleSyntaxOf(xml)): OracleReport {
    const result = saxon.transform(
      { stylesheetInternal: this.stylesheets[syntax], sourceText: xml, destination: 'serialized' },
      'sync',
    );
    return { syntax, failed: parseSvrlFailures(result.principalResult) };
  }
}

const FAILED_ASSERT = /<svrl:failed-assert\b([^>]*)>([\s\S]*?)<\/svrl:failed-assert>/g;
const SVRL_TEXT = /<svrl:text>([\s\S]*?)<\/svrl:text>/;

/** The failed asserts of an SVRL report (the XSLT's output): id, flag, location and message of each. */
export function parseSvrlFailures(svrl: string, options: { skipInformation?: boolean } = {}): OracleFailure[] {
  const failures: OracleFailure[] = [];
  for (const match of svrl.matchAll(FAILED_ASSERT)) {
    const attributes = match[1]!;
    const id = attribute(attributes, 'id');
    const flag = attribute(attributes, 'flag');
    if (!id) throw new Error(`SVRL failed-assert without an id: ${attributes.trim()}`);
    // KoSIT's XRechnung rules also report notes flagged `information` (BR-DE-TMP-*): no verdict, left out.
    if (flag === 'information' && options.skipInformation) continue;
    if (flag !== 'fatal' && flag !== 'warning') throw new Error(`SVRL failed-assert ${id} has flag ${flag ?? '(none)'}`);
    const text = SVRL_TEXT.exec(match[2]!)?.[1] ?? '';
    failures.push({ id, flag, location: unescapeXml(attribute(attributes, 'location') ?? ''), message: unescapeXml(text.trim()) });
  }
  return failures;
}

function attribute(attributes: string, name: string): string | undefined {
  return new RegExp(`\\b${name}="([^"]*)"`).exec(attributes)?.[1];
}

function unescapeXml(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

/** The distinct fired rules as `id:flag` keys, sorted: what the differential tests compare. */
export function firedRuleKeys(failed: readonly { id: string; flag: string }[]): string[] {
  return [...new Set(failed.map((f) => `${f.id}:${f.flag}`))].sort();
}

/** KoSIT's XRechnung 3.0 rules (BR-DE-*, BR-DEX-*, the Peppol rules it includes), ../shared/testdata/xrechnung/oracle. */
export function xrechnungOracleXsltPath(syntax: OracleSyntax, testdataRoot = defaultTestdataRoot): string {
  return path.join(testdataRoot, 'xrechnung', 'oracle', `XRechnung-${syntax}-validation.xslt`);
}

export function xrechnungOracleAvailable(testdataRoot = defaultTestdataRoot): boolean {
  return existsSync(xrechnungOracleXsltPath('UBL', testdataRoot)) && existsSync(xrechnungOracleXsltPath('CII', testdataRoot));
}

/** The XRechnung 3.0 oracle: an XRechnung must pass it as well as the EN 16931 oracle. */
export class XRechnungOracle {
  private constructor(private readonly stylesheets: Record<OracleSyntax, unknown>) {}

  static async load(testdataRoot = defaultTestdataRoot): Promise<XRechnungOracle> {
    const compiled = await Promise.all((['UBL', 'CII'] as const).map((syntax) => compiledStylesheetPath(xrechnungOracleXsltPath(syntax, testdataRoot), `XRechnung-${syntax}`)));
    const [ubl, cii] = await Promise.all(compiled.map(async (file) => JSON.parse(await readFile(file, 'utf8')) as unknown));
    return new XRechnungOracle({ UBL: ubl, CII: cii });
  }

  validate(xml: string, syntax: OracleSyntax = oracleSyntaxOf(xml)): OracleReport {
    const result = saxon.transform({ stylesheetInternal: this.stylesheets[syntax], sourceText: xml, destination: 'serialized' }, 'sync');
    return { syntax, failed: parseSvrlFailures(result.principalResult, { skipInformation: true }) };
  }
}

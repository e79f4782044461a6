/**
 * The schema layer's cost, for `npm run bench:validate`: libxml2 (libxml2-wasm) checking each e-invoice against its
 * XSD (main/import/einvoiceSchemaCheck.ts), as the validation worker runs it — the schema compiled once per thread:
 * - cold: in a fresh worker thread, the first document (libxml2's WebAssembly instantiated, the XSD parsed and
 *   compiled, the check), what a worker pays once per schema — `recto validate FILE` once per run — on the compiled
 *   module where dist/ is current;
 * - per invoice, warm: each invoice checked alone, and all of a syntax in one call;
 * - against the size: one real CII invoice grown from 1 KB to 10 MB by copies of its first line, and the UBL size
 *   cases of sizeScaling.ts (1 KB … 10 MB, 16,000 empty lines, 6,000 full lines).
 * Wall time, median of the repetitions.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { checkSchemas } from '../../main/import/einvoiceSchemaCheck.js';
import type { SchemaTarget } from '../../app/en16931/index.js';
import { startModuleWorker } from '../../main/util/moduleWorker.js';
import type { SizeCase } from './sizeScaling.js';

const EN16931: SchemaTarget = { syntax: 'CII', facturXLevel: 'EN16931' };
const LINE_OPEN = '<ram:IncludedSupplyChainTradeLineItem>';
const LINE_CLOSE = '</ram:IncludedSupplyChainTradeLineItem>';
const TARGET_KB = [1, 10, 100, 1024, 10 * 1024 - 64];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function round(value: number): number {
  return Number(value.toFixed(value < 10 ? 2 : 0));
}

async function wallMs(work: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** The XSD a document is checked against by the worker (app/en16931/schemaLayer.ts), for the syntaxes measured here. */
function targetOf(xml: string): SchemaTarget | null {
  if (/<(?:\w+:)?CrossIndustryInvoice\b/.test(xml)) return EN16931;
  if (/<(?:\w+:)?CreditNote\b[^>]*urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2/.test(xml)) return { syntax: 'UBL-CreditNote' };
  if (/<(?:\w+:)?Invoice\b[^>]*urn:oasis:names:specification:ubl:schema:xsd:Invoice-2/.test(xml)) return { syntax: 'UBL-Invoice' };
  return null;
}

export interface SchemaLayerTimes {
  syntax: 'CII' | 'UBL';
  invoices: number;
  /** Median over invoices of one check of that invoice alone (the validator kept, as in a worker after its first). */
  'one at a time, median ms': number;
  /** One call for all the invoices of the syntax, divided by their number. */
  'all in one call, ms per invoice': number;
  /** Invoices that failed their XSD (every testdata CII and UBL passes: docs/en16931.md). */
  'schema-invalid': number;
}

/** The schema layer, warm, on the CII invoices among `xmls` (the EN16931 level's XSD) and on the UBL ones. */
export async function measureSchemaLayer(xmls: readonly string[], reps: number): Promise<SchemaLayerTimes[]> {
  const rows: SchemaLayerTimes[] = [];
  for (const syntax of ['CII', 'UBL'] as const) {
    const items = xmls.flatMap((xml) => {
      const target = targetOf(xml);
      return target && (target.syntax === 'CII') === (syntax === 'CII') ? [{ xml: new TextEncoder().encode(xml), target }] : [];
    });
    if (items.length === 0) continue;
    await checkSchemas(items); // warm-up: libxml2 loaded, each XSD compiled once
    const single: number[] = [];
    let invalid = 0;
    for (const item of items) {
      const times: number[] = [];
      for (let i = 0; i < reps; i++) {
        times.push(
          await wallMs(async () => {
            const [check] = await checkSchemas([item]);
            if (i === 0 && !(check!.verdict.checked && check!.verdict.valid)) invalid++;
          }),
        );
      }
      single.push(median(times));
    }
    const batchTimes: number[] = [];
    for (let i = 0; i < reps; i++) batchTimes.push(await wallMs(() => checkSchemas(items)));
    rows.push({ syntax, invoices: items.length, 'one at a time, median ms': round(median(single)), 'all in one call, ms per invoice': round(median(batchTimes) / items.length), 'schema-invalid': invalid });
  }
  return rows;
}

export interface SchemaColdTimes {
  schema: string;
  /** In a fresh worker thread: the first check (libxml2 instantiated, the XSD compiled, the invoice checked). */
  'first check in a fresh thread, ms': number;
  /** The same invoice checked again in that thread. */
  'second check, ms': number;
}

/**
 * The compiled schema module (dist/, `npm run build:node`) when it is newer than its source: a cold thread measured on
 * it is what the app and `recto` pay. Under tsx, its loader adds ≈ 1 s to importing libxml2-wasm (0.8–1.2 s against
 * 40–120 ms in plain Node, load 11), which no installed Recto pays.
 */
function compiledSchemaModule(): string | null {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
  const compiled = path.join(root, 'dist', 'main', 'import', 'einvoiceSchemaCheck.js');
  const source = path.join(root, 'main', 'import', 'einvoiceSchemaCheck.ts');
  return fs.existsSync(compiled) && fs.statSync(compiled).mtimeMs >= fs.statSync(source).mtimeMs ? pathToFileURL(compiled).href : null;
}

/**
 * Per target, `reps` fresh worker threads, each timing its first and second check: on the compiled module in plain
 * Node where dist/ is current (schemaColdWorker.mjs), else on the TypeScript module under tsx (schemaColdWorker.ts).
 */
export async function measureSchemaCold(xmls: readonly string[], reps: number): Promise<{ runOn: string; rows: SchemaColdTimes[] }> {
  const compiled = compiledSchemaModule();
  const rows: SchemaColdTimes[] = [];
  for (const syntax of ['CII', 'UBL-Invoice'] as const) {
    const xml = xmls.filter((x) => targetOf(x)?.syntax === syntax).sort((a, b) => a.length - b.length)[0];
    if (!xml) continue;
    const target = targetOf(xml)!;
    const first: number[] = [];
    const second: number[] = [];
    let schema = '';
    for (let i = 0; i < reps; i++) {
      const workerData = { xml: new TextEncoder().encode(xml), target, moduleUrl: compiled };
      const worker: Worker = compiled ? new Worker(new URL('./schemaColdWorker.mjs', import.meta.url), { workerData }) : startModuleWorker(import.meta.url, 'schemaColdWorker', { workerData });
      const result = await new Promise<{ firstMs: number; secondMs: number; schema: string }>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
      });
      void worker.terminate();
      first.push(result.firstMs);
      second.push(result.secondMs);
      schema = result.schema;
    }
    rows.push({ schema, 'first check in a fresh thread, ms': round(median(first)), 'second check, ms': round(median(second)) });
  }
  return { runOn: compiled ? 'the compiled module (dist/), plain Node' : 'the TypeScript module under tsx (dist/ absent or stale: its loader adds ≈ 1 s)', rows };
}

export interface SchemaSizeTimes {
  case: string;
  kb: number;
  lines: number;
  'schema ms': number;
  'schema ms / MB': number;
  'schema ms / 1,000 lines': number;
  valid: boolean;
}

async function timeSize(name: string, xml: Uint8Array, lines: number, target: SchemaTarget, reps: number): Promise<SchemaSizeTimes> {
  const times: number[] = [];
  for (let i = 0; i < reps; i++) times.push(await wallMs(() => checkSchemas([{ xml, target }])));
  const [check] = await checkSchemas([{ xml, target }]);
  const ms = median(times);
  const kb = xml.byteLength / 1024;
  return { case: name, kb: Math.round(kb), lines, 'schema ms': round(ms), 'schema ms / MB': round(ms / (kb / 1024)), 'schema ms / 1,000 lines': round((ms / lines) * 1000), valid: check!.verdict.checked && check!.verdict.valid };
}

/** One real CII invoice grown to 1 KB … 10 MB by copies of its first line (each with its own LineID). */
export async function measureSchemaSizes(base: string, reps: number): Promise<SchemaSizeTimes[]> {
  const start = base.indexOf(LINE_OPEN);
  const end = base.indexOf(LINE_CLOSE, start);
  if (start < 0 || end < 0) return [];
  const line = base.slice(start, end + LINE_CLOSE.length);
  const head = base.slice(0, start);
  const tail = base.slice(base.lastIndexOf(LINE_CLOSE) + LINE_CLOSE.length);
  await checkSchemas([{ xml: new TextEncoder().encode(base), target: EN16931 }]); // the XSD compiled before timing
  const rows: SchemaSizeTimes[] = [];
  for (const kb of TARGET_KB) {
    const count = Math.max(1, Math.floor((kb * 1024 - head.length - tail.length) / line.length));
    const lines = Array.from({ length: count }, (_, i) => line.replace(/<ram:LineID>[^<]*<\/ram:LineID>/, `<ram:LineID>${i + 1}</ram:LineID>`));
    const xml = new TextEncoder().encode(head + lines.join('') + tail);
    rows.push(await timeSize(`CII ${kb >= 1024 ? `${Math.round(kb / 1024)} MB` : `${kb} KB`} (full lines)`, xml, count, EN16931, reps));
  }
  return rows;
}

/** The UBL size cases of the rules' size table (sizeScaling.ts) against the UBL 2.1 Invoice XSD. */
export async function measureUblSchemaSizes(cases: readonly SizeCase[], reps: number): Promise<SchemaSizeTimes[]> {
  const rows: SchemaSizeTimes[] = [];
  for (const c of cases) rows.push(await timeSize(`UBL ${c.name}`, new TextEncoder().encode(c.xml), c.lines, { syntax: 'UBL-Invoice' }, reps));
  return rows;
}

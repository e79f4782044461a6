/**
 * The schema layer's cost, for `npm run bench:validate`: libxml2 (xmllint-wasm) checking each CII e-invoice against
 * its Factur-X XSD (main/import/einvoiceSchemaCheck.ts), as the validation worker runs it.
 * - per invoice, one libxml2 run each (what a single review or `recto validate FILE` pays: starting libxml2's worker
 *   and compiling the schema, then the check), and one run for all of them (what a batch pays per invoice);
 * - against the size: one real CII invoice grown from 1 KB to 10 MB by copies of its first line.
 * Wall time (the check runs in libxml2's own thread; this process's CPU time would not show it).
 */
import { checkSchemas } from '../../main/import/einvoiceSchemaCheck.js';
import type { SchemaTarget } from '../../app/en16931/index.js';

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

export interface SchemaLayerTimes {
  invoices: number;
  /** Median over invoices of one libxml2 run for that invoice alone. */
  'one run per invoice, median ms': number;
  /** One libxml2 run for all the invoices, divided by their number. */
  'one run for all, ms per invoice': number;
  /** Invoices that failed their XSD (every testdata CII passes: docs/en16931.md). */
  'schema-invalid': number;
}

/** The schema layer on the CII invoices among `xmls` (the EN16931 level's XSD, as for a document declaring none). */
export async function measureSchemaLayer(xmls: readonly string[], reps: number): Promise<SchemaLayerTimes | null> {
  const cii = xmls.filter((xml) => xml.includes('CrossIndustryInvoice')).map((xml) => new TextEncoder().encode(xml));
  if (cii.length === 0) return null;
  await checkSchemas([{ xml: cii[0]!, target: EN16931 }]); // warm-up: the XSD files read, the WebAssembly compiled once
  const single: number[] = [];
  let invalid = 0;
  for (const xml of cii) {
    const times: number[] = [];
    for (let i = 0; i < reps; i++) {
      times.push(
        await wallMs(async () => {
          const [check] = await checkSchemas([{ xml, target: EN16931 }]);
          if (i === 0 && check!.verdict.checked && !check!.verdict.valid) invalid++;
        }),
      );
    }
    single.push(median(times));
  }
  const batchTimes: number[] = [];
  for (let i = 0; i < reps; i++) batchTimes.push(await wallMs(() => checkSchemas(cii.map((xml) => ({ xml, target: EN16931 })))));
  const batch = median(batchTimes);
  return { invoices: cii.length, 'one run per invoice, median ms': round(median(single)), 'one run for all, ms per invoice': round(batch / cii.length), 'schema-invalid': invalid };
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

/** One real CII invoice grown to 1 KB … 10 MB by copies of its first line (each with its own LineID). */
export async function measureSchemaSizes(base: string, reps: number): Promise<SchemaSizeTimes[]> {
  const start = base.indexOf(LINE_OPEN);
  const end = base.indexOf(LINE_CLOSE, start);
  if (start < 0 || end < 0) return [];
  const line = base.slice(start, end + LINE_CLOSE.length);
  const head = base.slice(0, start);
  const tail = base.slice(base.lastIndexOf(LINE_CLOSE) + LINE_CLOSE.length);
  const rows: SchemaSizeTimes[] = [];
  for (const kb of TARGET_KB) {
    const count = Math.max(1, Math.floor((kb * 1024 - head.length - tail.length) / line.length));
    const lines = Array.from({ length: count }, (_, i) => line.replace(/<ram:LineID>[^<]*<\/ram:LineID>/, `<ram:LineID>${i + 1}</ram:LineID>`));
    const xml = new TextEncoder().encode(head + lines.join('') + tail);
    const times: number[] = [];
    for (let i = 0; i < reps; i++) times.push(await wallMs(() => checkSchemas([{ xml, target: EN16931 }])));
    const [check] = await checkSchemas([{ xml, target: EN16931 }]);
    const valid = check!.verdict.checked && check!.verdict.valid;
    const ms = median(times);
    const actualKb = xml.byteLength / 1024;
    rows.push({ case: `${kb >= 1024 ? `${Math.round(kb / 1024)} MB` : `${kb} KB`} (full lines)`, kb: Math.round(actualKb), lines: count, 'schema ms': round(ms), 'schema ms / MB': round(ms / (actualKb / 1024)), 'schema ms / 1,000 lines': round((ms / count) * 1000), valid });
  }
  return rows;
}

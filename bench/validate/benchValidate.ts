/**
 * `npm run bench:validate [-- --json FILE] [--reps N] [--oracle-reps N]`: EN 16931 validation time per e-invoice.
 *
 * On the CEN examples and on the e-invoice XMLs of ../shared/testdata (einvoices/xml, einvoice-corpus/xml), per
 * invoice: the native engine from XML text to report (read + rules), the rules alone on the read model, and the
 * re-validation after one field edit as the review screen does it (app/review/einvoiceValidation.ts: the amount due,
 * BT-115, moved by a cent on the model, and only the rules reading BT-115 run again). Baseline in the same run: the official validation XSLT through saxon-js (SEF compiled and cached first, not
 * timed). Each invoice's time is the median of its repetitions; the table gives the median and p95 over invoices and
 * the oracle/engine ratio of the medians, and per invoice ms per 1,000 lines for both.
 *
 * Then the size table (sizeScaling.ts): one real UBL invoice grown from 1 KB to 10 MB, and issue 36's 16,000 empty
 * lines and 6,000 full lines — engine ms per invoice, per 1,000 lines and per MB against the oracle's in the same run
 * (`--oracle-max-kb N`, default 128: on the 1 MB invoice one XSLT run had not ended after more than 10 minutes at load 20), and whether
 * the verdicts agree. `--sizes-only` skips the per-invoice table.
 *
 * Then the schema layer (schemaLayerBench.ts): libxml2 on the CII and UBL invoices' XSDs, cold (a fresh thread's first
 * check) and warm (per invoice alone and in one call), against the oracle and the engine on the same invoices, and
 * against the size (one CII grown from 1 KB to 10 MB; the UBL size cases above).
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { readSemanticInvoice, validateEInvoiceXml, validateSemanticInvoice, type SemanticInvoice } from '../../app/en16931/index.js';
import { applyFieldEdit, revalidateTerms } from '../../app/review/einvoiceValidation.js';
import { completeEInvoices, eInvoiceCorpusAvailable, type CompleteEInvoice } from '../../testing/en16931Corpus.js';
import { En16931Oracle, oracleAvailable } from '../../testing/en16931Oracle.js';
import { measureSizes, sizeCases } from './sizeScaling.js';
import { measureSchemaCold, measureSchemaLayer, measureSchemaSizes, measureUblSchemaSizes } from './schemaLayerBench.js';

const DEFAULT_REPS = 30;
const DEFAULT_ORACLE_REPS = 3;
const WARM_UP_REPS = 3;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Median milliseconds of `reps` runs of `work`, after a warm-up. */
function timeMs(reps: number, work: () => unknown, warmUp = WARM_UP_REPS): number {
  for (let i = 0; i < warmUp; i++) work();
  const times: number[] = [];
  for (let i = 0; i < reps; i++) {
    const start = process.hrtime.bigint();
    work();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return median(times);
}

/** One field edit: the amount due (BT-115) a cent higher, then the rules that read it run again. */
function revalidateAfterEdit(inv: SemanticInvoice, before: ReturnType<typeof validateSemanticInvoice>): void {
  const payable = Number(inv.totals[0]?.payable[0]?.text ?? '0');
  revalidateTerms(applyFieldEdit(inv, 'amount_due', payable + 0.01), before, ['BT-115']);
}

interface InvoiceTimes {
  name: string;
  group: 'examples' | 'einvoice XMLs';
  kb: number;
  /** Invoice lines (BG-25), at least 1 so that per-line figures stay finite. */
  lines: number;
  xmlToReportMs: number;
  rulesMs: number;
  revalidateMs: number;
  oracleMs: number;
}

function measure(doc: CompleteEInvoice, oracle: En16931Oracle, reps: number, oracleReps: number): InvoiceTimes {
  const inv = readSemanticInvoice(doc.xml);
  const before = validateSemanticInvoice(inv, { source: 'xml' });
  return {
    name: doc.name,
    group: doc.group === 'examples' ? 'examples' : 'einvoice XMLs',
    kb: Math.round(doc.xml.length / 1024),
    lines: Math.max(1, inv.lines.length),
    xmlToReportMs: timeMs(reps, () => validateEInvoiceXml(doc.xml, { rules: 'en16931' })),
    rulesMs: timeMs(reps, () => validateSemanticInvoice(inv, { source: 'xml' })),
    revalidateMs: timeMs(reps, () => revalidateAfterEdit(inv, before)),
    oracleMs: timeMs(oracleReps, () => oracle.validate(doc.xml), 1),
  };
}

function round(value: number): number {
  return Number(value.toFixed(value < 10 ? 3 : 1));
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { json: { type: 'string' }, reps: { type: 'string' }, 'oracle-reps': { type: 'string' }, 'oracle-max-kb': { type: 'string' }, 'sizes-only': { type: 'boolean' } },
  });
  if (!oracleAvailable() || !eInvoiceCorpusAvailable()) {
    console.log('SKIPPED: ../shared/testdata (EN 16931 examples, e-invoice XMLs, oracle XSLT) is absent');
    return;
  }
  const reps = Number(values.reps ?? DEFAULT_REPS);
  const oracleReps = Number(values['oracle-reps'] ?? DEFAULT_ORACLE_REPS);
  const oracle = await En16931Oracle.load();
  const docs = await completeEInvoices();
  // The official XSLT cold, as a run on one file pays it: the cached SEFs read and parsed (both syntaxes; compiling
  // them, ≈ 25 s each, is not counted), then the smallest document of each syntax, the stylesheet's first transform.
  const oracleLoadStart = performance.now();
  const coldOracle = await En16931Oracle.load();
  const oracleLoadMs = performance.now() - oracleLoadStart;
  const oracleCold = Object.fromEntries(
    (['CII', 'UBL'] as const).map((syntax) => {
      const first = docs.filter((d) => d.xml.includes('CrossIndustryInvoice') === (syntax === 'CII')).sort((a, b) => a.xml.length - b.xml.length)[0];
      const start = performance.now();
      if (first) coldOracle.validate(first.xml);
      return [syntax, oracleLoadMs + (performance.now() - start)];
    }),
  ) as Record<'CII' | 'UBL', number>;
  const measured: InvoiceTimes[] = [];
  const refused: string[] = [];
  for (const doc of values['sizes-only'] ? [] : docs) {
    try {
      measured.push(measure(doc, oracle, reps, oracleReps));
    } catch (error) {
      refused.push(`${doc.name}: ${(error as Error).message}`);
    }
  }
  const groups = ['examples', 'einvoice XMLs', 'all'] as const;
  const rows = values['sizes-only']
    ? []
    : groups.map((group) => {
        const set = measured.filter((m) => group === 'all' || m.group === group);
        const xml = set.map((m) => m.xmlToReportMs);
        const oracleTimes = set.map((m) => m.oracleMs);
        return {
          invoices: group,
          n: set.length,
          'engine median ms': round(median(xml)),
          'engine p95 ms': round(percentile(xml, 95)),
          'engine ms / 1,000 lines (median)': round(median(set.map((m) => (m.xmlToReportMs / m.lines) * 1000))),
          'rules only (all) median ms': round(median(set.map((m) => m.rulesMs))),
          're-validate after edit median ms': round(median(set.map((m) => m.revalidateMs))),
          're-validate p95 ms': round(percentile(set.map((m) => m.revalidateMs), 95)),
          'oracle median ms': round(median(oracleTimes)),
          'oracle p95 ms': round(percentile(oracleTimes, 95)),
          'oracle ms / 1,000 lines (median)': round(median(set.map((m) => (m.oracleMs / m.lines) * 1000))),
          'oracle / engine (medians)': round(median(oracleTimes) / median(xml)),
        };
      });
  if (rows.length > 0) {
    console.table(rows);
    const slowest = [...measured].sort((a, b) => b.xmlToReportMs - a.xmlToReportMs).slice(0, 3);
    console.log(`slowest (engine, XML to report): ${slowest.map((m) => `${m.name} ${m.kb} KB ${round(m.xmlToReportMs)} ms`).join('; ')}`);
  }
  if (refused.length > 0) console.log(`not measured (the engine refused the XML):\n  ${refused.join('\n  ')}`);

  // Size scaling: a real UBL invoice grown to 10 MB — the smallest UBL Invoice with lines that the official XSLT finds
  // valid, so that growth, not a start from an attachment or a failing rule, is what is measured.
  const candidates = docs
    .filter((d) => d.xml.includes('<cac:InvoiceLine>') && d.xml.includes('urn:oasis:names:specification:ubl:schema:xsd:Invoice-2'))
    .sort((a, b) => a.xml.length - b.xml.length);
  const base = candidates.find((d) => {
    try {
      return !oracle.validate(d.xml).failed.some((f) => f.flag === 'fatal');
    } catch {
      return false;
    }
  });
  const sizes = base ? measureSizes(sizeCases(base.xml), oracle, Math.max(1, Math.min(reps, 5)), Number(values['oracle-max-kb'] ?? 128)) : [];
  if (base) {
    console.log(`\nsize scaling (grown from ${base.name}; engine: median of ${Math.max(1, Math.min(reps, 5))} runs, oracle: one run):`);
    console.table(sizes);
  }
  // The schema layer (libxml2 on the Factur-X and UBL 2.1 XSDs): cold, warm on the invoices, against the size.
  const schemaReps = Math.max(1, Math.min(reps, 5));
  const xmls = values['sizes-only'] ? [] : docs.map((d) => d.xml);
  const { runOn: schemaColdRunOn, rows: schemaCold } = await measureSchemaCold(xmls, Math.max(1, Math.min(reps, 3)));
  if (schemaCold.length > 0) {
    console.log(`\nschema layer, cold (a fresh worker thread: libxml2 instantiated, the XSD compiled, one invoice checked; median of ${Math.max(1, Math.min(reps, 3))} threads; on ${schemaColdRunOn}), against the official XSLT cold (its SEFs parsed, its first transform):`);
    console.table(
      schemaCold.map((row) => {
        const oracleMs = oracleCold[row.schema.startsWith('UBL') ? 'UBL' : 'CII'];
        return { ...row, 'oracle cold ms': round(oracleMs), 'oracle cold / schema cold': round(oracleMs / row['first check in a fresh thread, ms']) };
      }),
    );
  }
  const schemaLayer = await measureSchemaLayer(xmls, schemaReps);
  if (schemaLayer.length > 0) {
    console.log(`\nschema layer, warm (libxml2-wasm, each XSD compiled once per thread; CII: Factur-X 1.07.3 EN16931 XSD, UBL: UBL 2.1; wall ms, median of ${schemaReps} runs):`);
    const isSyntax = (name: string, syntax: 'CII' | 'UBL'): boolean => (docs.find((d) => d.name === name)?.xml.includes('CrossIndustryInvoice') ?? false) === (syntax === 'CII');
    console.table(
      schemaLayer.map((row) => {
        const same = measured.filter((m) => isSyntax(m.name, row.syntax));
        const oracleMs = median(same.map((m) => m.oracleMs));
        const engineMs = median(same.map((m) => m.xmlToReportMs));
        const cold = schemaCold.find((c) => c.schema.startsWith(row.syntax === 'CII' ? 'Factur-X' : 'UBL'))?.['first check in a fresh thread, ms'];
        return {
          ...row,
          'engine (rules) median ms': round(engineMs),
          'oracle median ms': round(oracleMs),
          'oracle / (engine + schema, all in one call)': round(oracleMs / (engineMs + row['all in one call, ms per invoice'])),
          'oracle / (engine + schema, one at a time)': round(oracleMs / (engineMs + row['one at a time, median ms'])),
          'oracle / (engine + schema cold)': cold === undefined ? null : round(oracleMs / (engineMs + cold)),
        };
      }),
    );
  }
  const ciiBase = docs.filter((d) => d.xml.includes('<ram:IncludedSupplyChainTradeLineItem>')).sort((a, b) => a.xml.length - b.xml.length)[0];
  const schemaSizes = [
    ...(ciiBase ? await measureSchemaSizes(ciiBase.xml, Math.max(1, Math.min(reps, 3))) : []),
    ...(base ? await measureUblSchemaSizes(sizeCases(base.xml), Math.max(1, Math.min(reps, 3))) : []),
  ];
  if (schemaSizes.length > 0) {
    console.log(`\nschema layer against size (CII grown from ${ciiBase?.name ?? '—'}, UBL from ${base?.name ?? '—'}; warm, wall ms):`);
    console.table(schemaSizes);
  }
  if (values.json) fs.writeFileSync(values.json, `${JSON.stringify({ reps, oracleReps, rows, invoices: measured, refused, sizeBase: base?.name ?? null, sizes, oracleCold, schemaColdRunOn, schemaCold, schemaLayer, schemaSizeBase: ciiBase?.name ?? null, schemaSizes }, null, 2)}\n`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});

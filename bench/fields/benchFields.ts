/**
 * `npm run bench:fields -- [--testdata DIR] [--json FILE] [--words-cache FILE] [--no-service]`: the field benchmark
 * (fieldsBench.ts) over ../shared/testdata/einvoice-corpus, its PDFs read by the bundled engine (their text layers).
 * `--words-cache` keeps the pages' words between runs (read once, then reused); the second invoice is measured again
 * through the app's own contract (servicePath.ts) unless `--no-service`. Prints a table; `--json` writes
 * the figures, held-out families' documents and failures left out.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Word } from '../../app/model/extraction.js';
import { BundledEngine } from '../../native-models/bundled/index.js';
import { enginePageReader } from '../engine/engineReaders.js';
import { defaultTestdataRoot } from '../../testing/testdataPaths.js';
import { readCorpusTruth } from './corpusTruth.js';
import { bands, runFieldsBench, type BandFigures, type FieldsBenchResult, type ScoredValue, type Tally } from './fieldsBench.js';
import { isHeldOutFamily } from './heldOutFamilies.js';
import { secondInvoiceThroughService, type ServicePathResult } from './servicePath.js';
import { HELD_OUT_FAMILIES } from './heldOutFamilies.js';

const pct = (t: Tally): string => (t.total ? `${t.right}/${t.total} (${((100 * t.right) / t.total).toFixed(0)} %)` : '—');
const share = (x: number | null): string => (x === null ? '—' : `${(100 * x).toFixed(0)} %`);
const bandLine = (name: string, b: BandFigures): string =>
  `| ${name} | ${share(b.highPrecision)} | ${share(b.rightShownHigh)} | ${pct(b.high)} | ${pct(b.mid)} | ${pct(b.low)} |`;

export interface ServiceFigures {
  development: Tally;
  /** Development families one by one (held-out families only in total: their failures stay unseen). */
  developmentByFamily: Record<string, Tally>;
  heldOut: Tally;
  read: number;
  recognised: number;
  corrections: number;
  fromMemory: Tally;
  confidence: { development: BandFigures; heldOut: BandFigures };
}

const tallyOf = (values: readonly ScoredValue[]): Tally => ({ right: values.filter((v) => v.right).length, total: values.length });

export function serviceFigures(r: ServicePathResult): ServiceFigures {
  const dev = r.values.filter((v) => !isHeldOutFamily(v.family));
  const held = r.values.filter((v) => isHeldOutFamily(v.family));
  const developmentByFamily: Record<string, Tally> = {};
  for (const family of [...new Set(dev.map((v) => v.family))].sort()) developmentByFamily[family] = tallyOf(dev.filter((v) => v.family === family));
  return {
    development: tallyOf(dev),
    developmentByFamily,
    heldOut: tallyOf(held),
    read: r.read,
    recognised: r.recognised,
    corrections: r.corrections,
    fromMemory: tallyOf(r.values.filter((v) => v.fromMemory)),
    confidence: { development: bands(dev), heldOut: bands(held) },
  };
}

export function formatServiceFigures(s: ServiceFigures): string {
  return [
    '',
    `Second invoice through the app (fields.save + suppliers.approve on each family's first document, ${s.corrections} corrections; the other ${s.read} imported into the same project, ${s.recognised} recognised; values from fields.document):`,
    '| Split | right | values from memory right |',
    '|---|---|---|',
    `| development | ${pct(s.development)} | ${pct(s.fromMemory)} (all splits) |`,
    `| held-out | ${pct(s.heldOut)} | |`,
    ...Object.entries(s.developmentByFamily).map(([family, t]) => `| ${family.replace(/\s+/g, ' ')} | ${pct(t)} | |`),
    '',
    '| Confidence bands | high right | right shown high | high | mid | low |',
    '|---|---|---|---|---|---|',
    bandLine('through the app, development', s.confidence.development),
    bandLine('through the app, held-out', s.confidence.heldOut),
    '',
  ].join('\n');
}

export function formatFieldsBench(r: FieldsBenchResult): string {
  const out: string[] = [];
  out.push(`Held-out families (sha256 rule, bench/fields/heldOutFamilies.ts): ${HELD_OUT_FAMILIES.join(', ')}`, '');
  out.push('| First-seen key fields | right |', '|---|---|');
  out.push(`| development families | ${pct(r.firstSeen.development)} |`, `| held-out families | ${pct(r.firstSeen.heldOut)} |`);
  for (const [family, t] of Object.entries(r.firstSeen.byFamily)) out.push(`| ${t.heldOut ? '(held out) ' : ''}${family.replace(/\s+/g, ' ')} | ${pct(t)} |`);
  out.push('', '| Second invoice (first confirmed, rest read through memory) | without memory | with memory | recognised |', '|---|---|---|---|');
  const s = r.secondInvoice;
  out.push(`| development | ${pct(s.withoutMemory.development)} | ${pct(s.development)} | |`, `| held-out | ${pct(s.withoutMemory.heldOut)} | ${pct(s.heldOut)} | |`);
  for (const [family, t] of Object.entries(s.byFamily)) out.push(`| ${t.heldOut ? '(held out) ' : ''}${family.replace(/\s+/g, ' ')} | ${pct(t.withoutMemory)} | ${pct(t)} | ${t.recognised}/${t.documents} |`);
  out.push('', '| Confidence bands | high right | right shown high | high | mid | low |', '|---|---|---|---|---|---|');
  out.push(bandLine('first-seen, development', r.confidence.firstSeen.development), bandLine('first-seen, held-out', r.confidence.firstSeen.heldOut));
  out.push(bandLine('second invoice, development', r.confidence.secondInvoice.development), bandLine('second invoice, held-out', r.confidence.secondInvoice.heldOut));
  const c = r.memoryCost;
  out.push('', `Memory cost at ${c.suppliers} suppliers over ${c.pages} pages: ${c.meanMs.toFixed(2)} ms mean, ${c.p95Ms.toFixed(2)} ms p95 per page read (CPU ${c.cpuMeanMs.toFixed(2)} ms mean, ${c.cpuP95Ms.toFixed(2)} ms p95); learning one page ${c.learnMeanMs.toFixed(2)} ms`);
  return `${out.join('\n')}\n`;
}

async function readWords(corpusDir: string, names: readonly string[], cacheFile: string | undefined): Promise<Map<string, Word[]>> {
  if (cacheFile && existsSync(cacheFile)) {
    const cached = JSON.parse(readFileSync(cacheFile, 'utf8')) as Record<string, Word[]>;
    if (names.every((n) => Array.isArray(cached[n]))) return new Map(names.map((n) => [n, cached[n]!]));
  }
  const reader = enginePageReader(new BundledEngine({ ocrWorkers: 1 }), { cacheDir: mkdtempSync(path.join(os.tmpdir(), 'recto-bench-fields-')) });
  const words = new Map<string, Word[]>();
  for (const name of names) words.set(name, (await reader.invoice(path.join(corpusDir, 'pdfs', name))).words ?? []);
  if (cacheFile) writeFileSync(cacheFile, JSON.stringify(Object.fromEntries(words)));
  return words;
}

async function main(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { testdata: { type: 'string' }, json: { type: 'string' }, 'words-cache': { type: 'string' }, 'no-service': { type: 'boolean' } } });
  const corpusDir = path.join(path.resolve(values.testdata ?? defaultTestdataRoot), 'einvoice-corpus');
  if (!existsSync(path.join(corpusDir, 'truth.json'))) {
    process.stderr.write(`bench:fields: ${corpusDir}/truth.json not found (see ../shared/testdata/MANIFEST.md)\n`);
    return 2;
  }
  const documents = readCorpusTruth(corpusDir);
  const words = await readWords(corpusDir, documents.map((d) => d.name), values['words-cache']);
  const result = runFieldsBench(documents, (name) => words.get(name) ?? []);
  process.stdout.write(formatFieldsBench(result));
  const service = values['no-service'] ? null : serviceFigures(await secondInvoiceThroughService(documents, corpusDir));
  if (service) process.stdout.write(formatServiceFigures(service));
  if (values.json) writeFileSync(values.json, `${JSON.stringify({ ...result, service }, null, 1)}\n`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`bench:fields: ${(error as Error).message}\n`);
    process.exit(1);
  },
);

/**
 * `npm run bench:fields -- [--testdata DIR] [--json FILE] [--words-cache FILE] [--no-service] [--receipts [--boxes DIR] [--cli] [--no-line-reread]]`: the field benchmark
 * (fieldsBench.ts) over ../shared/testdata/einvoice-corpus, its PDFs read by the bundled engine (their text layers).
 * `--words-cache` keeps the pages' words between runs (read once, then reused); the second invoice is measured again
 * through the app's own contract (servicePath.ts) unless `--no-service`. Prints a table; `--json` writes
 * the figures, held-out families' documents and failures left out. Families are reported in three groups
 * (heldOutFamilies.ts): development, hash-picked but a relative was studied (development too), and held out.
 * `--receipts`: the scanned receipts instead (receiptsCommand.ts).
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
import { bands, byGroup, runFieldsBench, type BandFigures, type ByGroup, type FieldsBenchResult, type ScoredValue, type Tally } from './fieldsBench.js';
import { familyGroups, familyGroupTitles, splitFamilies, type FamilyGroup, type FamilySplit } from './heldOutFamilies.js';
import { receiptsCommand } from './receiptsCommand.js';
import { secondInvoiceThroughService, type ServicePathResult } from './servicePath.js';
import { readStudiedSellers } from './studiedRelatives.js';

const pct = (t: Tally): string => (t.total ? `${t.right}/${t.total} (${((100 * t.right) / t.total).toFixed(0)} %)` : '—');
const share = (x: number | null): string => (x === null ? '—' : `${(100 * x).toFixed(0)} %`);
const bandLine = (name: string, b: BandFigures): string =>
  `| ${name} | ${share(b.highPrecision)} | ${share(b.rightShownHigh)} | ${pct(b.high)} | ${pct(b.mid)} | ${pct(b.low)} |`;
const oneLine = (family: string): string => family.replace(/\s+/g, ' ');
const tagOf = (group: FamilyGroup): string => (group === 'development' ? '' : `(${familyGroupTitles[group]}) `);

export interface ServiceFigures extends ByGroup<Tally> {
  /** Families developed on, one by one (held-out families only in total: their failures stay unseen). */
  developmentByFamily: Record<string, Tally>;
  read: number;
  recognised: number;
  corrections: number;
  fromMemory: Tally;
  confidence: ByGroup<BandFigures>;
}

const tallyOf = (values: readonly ScoredValue[]): Tally => ({ right: values.filter((v) => v.right).length, total: values.length });

export function serviceFigures(r: ServicePathResult, groupOf: (family: string) => FamilyGroup): ServiceFigures {
  const studied = r.values.filter((v) => groupOf(v.family) !== 'heldOut');
  const developmentByFamily: Record<string, Tally> = {};
  for (const family of [...new Set(studied.map((v) => v.family))].sort()) developmentByFamily[family] = tallyOf(studied.filter((v) => v.family === family));
  return {
    ...byGroup(r.values, groupOf, tallyOf),
    developmentByFamily,
    read: r.read,
    recognised: r.recognised,
    corrections: r.corrections,
    fromMemory: tallyOf(r.values.filter((v) => v.fromMemory)),
    confidence: byGroup(r.values, groupOf, bands),
  };
}

export function formatServiceFigures(s: ServiceFigures, groupOf: (family: string) => FamilyGroup): string {
  return [
    '',
    `Second invoice through the app (fields.save + suppliers.approve on each family's first document, ${s.corrections} corrections; the other ${s.read} imported into the same project, ${s.recognised} recognised; values from fields.document):`,
    '| Group | right |',
    '|---|---|',
    ...familyGroups.map((group) => `| ${familyGroupTitles[group]} | ${pct(s[group])} |`),
    ...Object.entries(s.developmentByFamily).map(([family, t]) => `| ${tagOf(groupOf(family))}${oneLine(family)} | ${pct(t)} |`),
    `| values from memory right (all groups) | ${pct(s.fromMemory)} |`,
    '',
    '| Confidence bands | high right | right shown high | high | mid | low |',
    '|---|---|---|---|---|---|',
    ...familyGroups.map((group) => bandLine(`through the app, ${familyGroupTitles[group]}`, s.confidence[group])),
    '',
  ].join('\n');
}

export function formatFieldsBench(r: FieldsBenchResult, split: FamilySplit): string {
  const out: string[] = [];
  out.push(`Held out (hash rule, no studied relative; bench/fields/heldOutFamilies.ts): ${split.heldOut.join(', ')}`);
  out.push(`Hash-picked, relative studied (counted as development): ${split.relativeStudied.map((r) => `${r.family} (${r.relative})`).join(', ')}`, '');
  out.push('| First-seen key fields | right |', '|---|---|');
  for (const group of familyGroups) out.push(`| ${familyGroupTitles[group]} families | ${pct(r.firstSeen[group])} |`);
  for (const [family, t] of Object.entries(r.firstSeen.byFamily)) out.push(`| ${tagOf(t.group)}${oneLine(family)} | ${pct(t)} |`);
  out.push('', '| Second invoice (first confirmed, rest read through memory) | without memory | with memory | recognised |', '|---|---|---|---|');
  const s = r.secondInvoice;
  for (const group of familyGroups) out.push(`| ${familyGroupTitles[group]} | ${pct(s.withoutMemory[group])} | ${pct(s[group])} | |`);
  for (const [family, t] of Object.entries(s.byFamily)) out.push(`| ${tagOf(t.group)}${oneLine(family)} | ${pct(t.withoutMemory)} | ${pct(t)} | ${t.recognised}/${t.documents} |`);
  out.push('', '| Confidence bands | high right | right shown high | high | mid | low |', '|---|---|---|---|---|---|');
  for (const group of familyGroups) out.push(bandLine(`first-seen, ${familyGroupTitles[group]}`, r.confidence.firstSeen[group]));
  for (const group of familyGroups) out.push(bandLine(`second invoice, ${familyGroupTitles[group]}`, r.confidence.secondInvoice[group]));
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
  const { values } = parseArgs({ args, options: { testdata: { type: 'string' }, json: { type: 'string' }, 'words-cache': { type: 'string' }, 'no-service': { type: 'boolean' }, receipts: { type: 'boolean' }, boxes: { type: 'string' }, cli: { type: 'boolean' }, 'no-line-reread': { type: 'boolean' } } });
  if (values.receipts) return receiptsCommand(path.resolve(values.testdata ?? defaultTestdataRoot), values.json, values['words-cache'], values.boxes, values.cli, values['no-line-reread'] ? { lineReread: false } : {});
  const corpusDir = path.join(path.resolve(values.testdata ?? defaultTestdataRoot), 'einvoice-corpus');
  if (!existsSync(path.join(corpusDir, 'truth.json'))) {
    process.stderr.write(`bench:fields: ${corpusDir}/truth.json not found (see ../shared/testdata/MANIFEST.md)\n`);
    return 2;
  }
  const documents = readCorpusTruth(corpusDir);
  const split = splitFamilies(documents.map((d) => d.family), readStudiedSellers(path.dirname(corpusDir)));
  const words = await readWords(corpusDir, documents.map((d) => d.name), values['words-cache']);
  const result = runFieldsBench(documents, (name) => words.get(name) ?? [], split.groupOf);
  process.stdout.write(formatFieldsBench(result, split));
  const service = values['no-service'] ? null : serviceFigures(await secondInvoiceThroughService(documents, corpusDir), split.groupOf);
  if (service) process.stdout.write(formatServiceFigures(service, split.groupOf));
  const splitJson = { heldOut: split.heldOut, relativeStudied: split.relativeStudied };
  if (values.json) writeFileSync(values.json, `${JSON.stringify({ split: splitJson, ...result, service }, null, 1)}\n`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`bench:fields: ${(error as Error).message}\n`);
    process.exit(1);
  },
);

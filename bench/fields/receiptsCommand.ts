/**
 * `npm run bench:fields -- --receipts [--testdata DIR] [--json FILE] [--words-cache FILE]`: the receipt benchmark
 * (receiptsBench.ts) over ../shared/testdata/receipts, the scans read by the bundled engine (receiptWords.ts). Prints
 * the figures of the development vendors and of the held-out vendors (heldOutVendors.ts) apart; `--json` writes them
 * with the development values only. `--boxes DIR`: the OCR truth's box files (see readReceiptTruths). `--cli`: the
 * engine and tesseract's CLI read every receipt in the same run (speed and CER, againstTesseractCli).
 * `--no-line-reread`: the engine without its second reader of weak lines (BundledEngine's `lineReread: false`), for
 * an A/B on the same machine (a words cache holds one engine's reading: give each its own file).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { characterErrorRate } from '../../app/checks/textDistance.js';
import { childCpuSeconds, ensureTesseract, tesseractTexts } from '../engine/tesseractCli.js';
import { hashPicksVendor, readReceiptVendors } from './heldOutVendors.js';
import type { BundledEngineOptions } from '../../native-models/bundled/index.js';
import { readReceipts } from './receiptWords.js';
import { receiptKeyFields, runReceiptsBench, vendorGroups, type ReceiptTruth, type VendorGroup } from './receiptsBench.js';
import type { Tally } from './fieldsBench.js';

const pct = (t: Tally): string => (t.total ? `${t.right}/${t.total} (${((100 * t.right) / t.total).toFixed(0)} %)` : '—');
const titles: Record<VendorGroup, string> = { development: 'development vendors', heldOut: 'held-out vendors' };

/**
 * key/<receipt>.json and box/<receipt>.txt (`x1,y1,…,y4,TRANSCRIPT`; the transcript may hold commas). `boxDir`: where
 * the box files are read from instead — the test set as shipped (2026-12) has them empty (0 bytes in FILES.tsv too);
 * the upstream repository's `data/box/<receipt>.csv` at the commit FILES.tsv names hold the transcripts (`--boxes`).
 */
export function readReceiptTruths(receiptsDir: string, boxDir = path.join(receiptsDir, 'box')): ReceiptTruth[] {
  return readReceiptVendors(receiptsDir).map((entry) => {
    const keyFile = path.join(receiptsDir, 'key', `${entry.receipt}.json`);
    const key = JSON.parse(readFileSync(keyFile, 'utf8')) as Record<string, unknown>;
    const text = (name: string): string => {
      if (typeof key[name] !== 'string') throw new Error(`${keyFile}: "${name}" is not a string`);
      return key[name] as string;
    };
    const boxFile = ['txt', 'csv'].map((ext) => path.join(boxDir, `${entry.receipt}.${ext}`)).find(existsSync);
    const lines = (boxFile ? readFileSync(boxFile, 'utf8') : '')
      .split(/\r?\n/)
      .map((line) => line.split(',').slice(8).join(','))
      .filter((t) => t.trim() !== '');
    return { receipt: entry.receipt, vendorKey: entry.vendorKey, company: text('company'), date: text('date'), total: text('total'), lines };
  });
}

/** The CER of texts against the receipts' transcripts, all characters pooled (null without transcripts). */
function pooledCer(truths: readonly ReceiptTruth[], textOf: (t: ReceiptTruth) => string): number | null {
  let edits = 0;
  let chars = 0;
  for (const t of truths) {
    const reference = t.lines.join('\n');
    const n = reference.replace(/\s+/g, ' ').trim().length;
    edits += characterErrorRate(textOf(t), reference) * n;
    chars += n;
  }
  return chars ? edits / chars : null;
}

/**
 * The same receipts read in one run by the bundled engine (fresh: no words cache) and by tesseract's CLI (one
 * process, as the engine has one OCR worker), alternating nothing: the engine first, then the CLI, on the same
 * machine state. Seconds per receipt and CER against the transcripts, both texts as words in reading order.
 */
async function againstTesseractCli(receiptsDir: string, truths: readonly ReceiptTruth[]): Promise<string> {
  const info = ensureTesseract((line) => process.stderr.write(`${line}\n`));
  const startedEngine = performance.now();
  const engineCpu = process.cpuUsage();
  const engine = await readReceipts(receiptsDir, truths.map((t) => t.receipt), undefined);
  const engineSeconds = (performance.now() - startedEngine) / 1000;
  const engineUsed = process.cpuUsage(engineCpu);
  const engineCpuSeconds = (engineUsed.user + engineUsed.system) / 1e6;
  const startedCli = performance.now();
  const cliCpuBefore = childCpuSeconds();
  const texts = await tesseractTexts(truths.map((t) => ({ imagePath: path.join(receiptsDir, 'img', `${t.receipt}.jpg`), dpi: CLI_DPI })), 1);
  const cliSeconds = (performance.now() - startedCli) / 1000;
  const cliCpuAfter = childCpuSeconds();
  // The CLI's CPU: its processes, reaped by now (Linux /proc); the engine's: this process, its OCR worker included.
  const cliCpuSeconds = cliCpuBefore === null || cliCpuAfter === null ? null : cliCpuAfter - cliCpuBefore;
  const cliText = new Map(truths.map((t, i) => [t.receipt, texts[i] ?? '']));
  const engineCer = pooledCer(truths, (t) => (engine.get(t.receipt)?.words ?? []).map((w) => w.text).join(' '));
  const cliCer = pooledCer(truths, (t) => cliText.get(t.receipt)!);
  const cer = (x: number | null): string => (x === null ? 'no transcripts' : `${(100 * x).toFixed(1)} %`);
  const n = truths.length;
  return [
    '',
    `Same run against ${info.version} (CLI, one process, --dpi ${CLI_DPI}; the engine with one OCR worker, import and render included):`,
    '| | s per receipt (wall) | receipts/s (wall) | CPU s per receipt | CER (all receipts) |',
    '|---|---|---|---|---|',
    `| bundled engine | ${(engineSeconds / n).toFixed(2)} | ${(n / engineSeconds).toFixed(2)} | ${(engineCpuSeconds / n).toFixed(2)} | ${cer(engineCer)} |`,
    `| tesseract CLI | ${(cliSeconds / n).toFixed(2)} | ${(n / cliSeconds).toFixed(2)} | ${cliCpuSeconds === null ? '—' : (cliCpuSeconds / n).toFixed(2)} | ${cer(cliCer)} |`,
    `| engine / CLI | ${(engineSeconds / cliSeconds).toFixed(2)}× the time | ${(cliSeconds / engineSeconds).toFixed(2)}× the speed | ${cliCpuSeconds ? `${(cliCpuSeconds / engineCpuSeconds).toFixed(2)}× the speed` : '—'} | ${engineCer !== null && cliCer ? `${(engineCer / cliCer).toFixed(2)}×` : '—'} |`,
    '',
  ].join('\n');
}

/** The CLI is told this resolution: the scans carry none that holds (phone photos and 600 dpi scans alike). */
const CLI_DPI = 300;

export async function receiptsCommand(testdataRoot: string, json: string | undefined, wordsCache: string | undefined, boxDir?: string, cli = false, engineOptions: BundledEngineOptions = {}): Promise<number> {
  const receiptsDir = path.join(testdataRoot, 'receipts');
  if (!existsSync(path.join(receiptsDir, 'vendors.tsv'))) {
    process.stderr.write(`bench:fields --receipts: ${receiptsDir}/vendors.tsv not found (see ../shared/testdata/MANIFEST.md)\n`);
    return 2;
  }
  const truths = readReceiptTruths(receiptsDir, boxDir);
  const reads = await readReceipts(receiptsDir, truths.map((t) => t.receipt), wordsCache, undefined, engineOptions);
  const groupOf = (vendorKey: string): VendorGroup => (hashPicksVendor(vendorKey) ? 'heldOut' : 'development');
  const result = runReceiptsBench(truths, (r) => reads.get(r)?.words ?? [], groupOf);
  const all = [...reads.values()];
  const seconds = all.reduce((a, r) => a + r.seconds, 0) / Math.max(1, all.length);
  const cpuSeconds = all.reduce((a, r) => a + r.cpuSeconds, 0) / Math.max(1, all.length);
  const failed = all.filter((r) => r.error).length;
  const timed = all.filter((r) => r.importSeconds !== undefined);
  const importShare = timed.length ? timed.reduce((a, r) => a + r.importSeconds!, 0) / Math.max(1e-9, timed.reduce((a, r) => a + r.seconds, 0)) : null;
  const out = [
    `Receipts: ${truths.length} (${result.receipts.development} of development vendors, ${result.receipts.heldOut} held out: bench/fields/heldOutVendors.ts)`,
    '',
    `| | ${vendorGroups.map((g) => titles[g]).join(' | ')} |`,
    '|---|---|---|',
    `| first-seen, company + date + total | ${vendorGroups.map((g) => pct(result.firstSeen[g])).join(' | ')} |`,
    ...receiptKeyFields.map((f) => `| first-seen, ${f} | ${vendorGroups.map((g) => pct(result.firstSeen.byField[g][f])).join(' | ')} |`),
    `| second receipt, without memory | ${vendorGroups.map((g) => pct(result.secondReceipt.withoutMemory[g])).join(' | ')} |`,
    `| second receipt, with memory | ${vendorGroups.map((g) => pct(result.secondReceipt[g])).join(' | ')} |`,
    ...receiptKeyFields.map((f) => `| second receipt, ${f}: without → with memory | ${vendorGroups.map((g) => `${pct(result.secondReceipt.withoutMemoryByField[g][f])} → ${pct(result.secondReceipt.byField[g][f])}`).join(' | ')} |`),
    ...receiptKeyFields.map((f) => `| every ordered pair of a vendor's receipts (one taught, the other read), ${f} | ${vendorGroups.map((g) => pct(result.secondReceipt.everyPair[g][f])).join(' | ')} |`),
    `| second receipt, supplier recognised | ${vendorGroups.map((g) => pct(result.secondReceipt.recognised[g])).join(' | ')} |`,
    `| second receipt, not taken for another vendor (every vendor's first receipt taught) | ${vendorGroups.map((g) => pct(result.secondReceipt.notMistaken[g])).join(' | ')} |`,
    `| first-seen, receipts failing a rule (a reason to approve) | ${vendorGroups.map((g) => `${result.failingRules[g].receipts}/${result.receipts[g]}`).join(' | ')} |`,
    `| CER against box/ (sorted words) | ${vendorGroups.map((g) => (result.cer[g] ? `${(100 * result.cer[g].cer).toFixed(1)} % (${(100 * result.cer[g].sortedWords).toFixed(1)} %)` : 'no transcripts (box/ empty: --boxes DIR)')).join(' | ')} |`,
    '',
    ...vendorGroups.map((g) => `Rules failing, ${titles[g]} (receipts each): ${Object.entries(result.failingRules[g].byRule).map(([rule, n]) => `${rule} ${n}`).join(', ') || 'none'}`),
    '',
    `Seconds per receipt (import, render, OCR; as read into the words cache): ${seconds.toFixed(2)} s wall, ${cpuSeconds.toFixed(2)} s CPU of this process (OCR runs in a worker thread: counted)${importShare === null ? '' : `, ${(100 * importShare).toFixed(0)} % of the wall time in the import (render to the OCR image)`}; ${failed} receipt(s) not read`,
    '',
  ];
  process.stdout.write(out.join('\n'));
  if (cli) process.stdout.write(await againstTesseractCli(receiptsDir, truths));
  if (json) writeFileSync(json, `${JSON.stringify({ ...result, secondsPerReceipt: seconds, cpuSecondsPerReceipt: cpuSeconds, failed }, null, 1)}\n`);
  return 0;
}

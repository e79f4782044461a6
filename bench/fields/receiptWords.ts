/**
 * The receipts of `../shared/testdata/receipts/` read by the bundled engine (import, render, OCR), each with its words,
 * plain text and the seconds its page took (import and OCR; wall-clock and this process's CPU). Cached in a JSON file
 * between runs (`--words-cache`) because OCR of 90 scans takes minutes on the development machine.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Word } from '../../app/model/extraction.js';
import { BundledEngine, type BundledEngineOptions } from '../../native-models/bundled/index.js';
import { enginePageReader } from '../engine/engineReaders.js';

export interface ReceiptRead {
  words: Word[];
  markdown: string;
  seconds: number;
  cpuSeconds: number;
  /** Of `seconds`, the import: the file's bytes checked and the page rendered to the image OCR reads (absent in old caches). */
  importSeconds?: number;
  /** The engine's refusal or failure, where it read nothing. */
  error?: string;
}

export async function readReceipts(
  receiptsDir: string,
  receipts: readonly string[],
  cacheFile: string | undefined,
  log?: (line: string) => void,
  engineOptions: BundledEngineOptions = {},
): Promise<Map<string, ReceiptRead>> {
  const cached: Record<string, ReceiptRead> = cacheFile && existsSync(cacheFile) ? (JSON.parse(readFileSync(cacheFile, 'utf8')) as Record<string, ReceiptRead>) : {};
  const missing = receipts.filter((r) => !cached[r]);
  if (missing.length) {
    const engine = new BundledEngine({ ocrWorkers: 1, ...engineOptions });
    const reader = enginePageReader(engine, { cacheDir: mkdtempSync(path.join(os.tmpdir(), 'recto-bench-receipts-')) });
    try {
      for (const receipt of missing) {
        const started = performance.now();
        const cpu = process.cpuUsage();
        try {
          const file = path.join(receiptsDir, 'img', `${receipt}.jpg`);
          await reader.document(file);
          const importSeconds = (performance.now() - started) / 1000;
          const read = await reader.invoice(file);
          const used = process.cpuUsage(cpu);
          cached[receipt] = { words: read.words ?? [], markdown: read.markdown ?? '', seconds: (performance.now() - started) / 1000, cpuSeconds: (used.user + used.system) / 1e6, importSeconds };
        } catch (error) {
          cached[receipt] = { words: [], markdown: '', seconds: (performance.now() - started) / 1000, cpuSeconds: 0, error: (error as Error).message };
        }
        log?.(`${receipt}: ${cached[receipt]!.words.length} words, ${cached[receipt]!.seconds.toFixed(1)} s`);
        if (cacheFile) writeFileSync(cacheFile, JSON.stringify(cached));
      }
    } finally {
      await engine.dispose();
    }
  }
  return new Map(receipts.map((r) => [r, cached[r]!]));
}

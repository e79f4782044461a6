/**
 * `npm run bench:quality -- [--testdata DIR] [--json FILE] [--only PART,…] [--workers N] [--cache DIR]`: the bundled
 * engine over the shared public test set (../shared/testdata): olmOCR-Bench sample pass rates by test type,
 * invoice2data key-field accuracy, ICDAR 2013 EU table cell-neighbour F1, and CER of OCR'd rendered pages.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { BundledEngine } from '../../native-models/bundled/index.js';
import { TEXT_ONLY_SAMPLE } from './engineReaders.js';
import { formatQualitySummary, missingTestdata, qualityParts, runQualityBench, type QualityPart } from './qualityBench.js';
import { defaultTestdataRoot } from '../../testing/testdataPaths.js';

export const benchQualityUsage = `  npm run bench:quality -- [--testdata DIR] [--json FILE] [--only olmocr,reading,invoices,icdar,icdar-ocr,cer] [--workers N] [--cache DIR]
      Runs the bundled engine over the public test set (default ${defaultTestdataRoot}) and prints olmOCR-Bench
      pass rates by test type, invoice field accuracy, ICDAR table F1 (from the text layer, and from the rendered pages
      by OCR: icdar-ocr) and OCR character error rate.`;

export interface BenchQualityIo {
  out: (text: string) => void;
  err: (text: string) => void;
}

/** Returns the exit code: 0 done, 1 a part had errors, 2 bad arguments or no test data. */
export async function benchQualityCommand(args: string[], io: BenchQualityIo): Promise<number> {
  let values: { testdata?: string; json?: string; only?: string; workers?: string; cache?: string };
  try {
    ({ values } = parseArgs({
      args,
      options: { testdata: { type: 'string' }, json: { type: 'string' }, only: { type: 'string' }, workers: { type: 'string' }, cache: { type: 'string' } },
    }));
  } catch (error) {
    io.err(`bench:quality: ${(error as Error).message}\n`);
    return 2;
  }
  const testdataRoot = path.resolve(values.testdata ?? defaultTestdataRoot);
  const parts = values.only ? values.only.split(',').map((p) => p.trim()) : [...qualityParts];
  const unknown = parts.filter((p) => !(qualityParts as readonly string[]).includes(p));
  if (unknown.length > 0) {
    io.err(`bench:quality: --only: unknown part(s) ${unknown.join(', ')}; choose from ${qualityParts.join(', ')}\n`);
    return 2;
  }
  const workers = values.workers ? Number(values.workers) : os.availableParallelism();
  if (!Number.isInteger(workers) || workers < 1) {
    io.err(`bench:quality: --workers: not a positive whole number: ${values.workers}\n`);
    return 2;
  }
  const missing = missingTestdata(testdataRoot, parts as QualityPart[]);
  if (missing.length > 0) {
    io.err(
      `bench:quality: the public test set is not where expected (${testdataRoot}); missing:\n` +
        missing.map((m) => `  ${m}\n`).join('') +
        `Give its folder with --testdata DIR (see shared/testdata/MANIFEST.md).\n`,
    );
    return 2;
  }
  const cacheDir = path.resolve(values.cache ?? path.join(os.tmpdir(), 'recto-bench-cache'));
  mkdirSync(cacheDir, { recursive: true });
  const report = await runQualityBench({
    testdataRoot,
    cacheDir,
    concurrency: workers,
    parts: parts as QualityPart[],
    makeEngine: ({ forceOcr }) => new BundledEngine({ ocrWorkers: workers, forceOcr }),
    log: (line) => io.out(`${line}\n`),
  });
  io.out(`\n${formatQualitySummary(report)}\n`);
  if (values.json) {
    writeFileSync(path.resolve(values.json), `${JSON.stringify(report, null, 2)}\n`);
    io.out(`wrote ${path.resolve(values.json)}\n`);
  }
  const errors = [report.olmocr?.errors, report.invoices?.errors, report.icdar?.errors, report.icdarOcr?.errors, report.cer?.errors].flatMap((e) => e ?? []).filter((e) => !e.endsWith(TEXT_ONLY_SAMPLE));
  return errors.length > 0 ? 1 : 0;
}

/** `npm run bench:quality -- …` runs this file. */
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  if (args.includes('--help')) {
    process.stdout.write(`Usage:\n${benchQualityUsage}\n`);
  } else {
    process.exitCode = await benchQualityCommand(args, {
      out: (text) => process.stdout.write(text),
      err: (text) => process.stderr.write(text),
    });
  }
}

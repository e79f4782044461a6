/**
 * `npm run bench:queue-speed [-- --pages N] [--repeat N] [--workers N] [--testdata DIR] [--json FILE]`: scanned pages
 * per second as the app reads them — files imported into a project, read by the reading queue with the bundled engine,
 * each page saved — with the engine reading one page at a time (parallelism 1: what the queue did before the engine
 * said how many pages it reads at once) and with its default parallelism, in the same run, the two taking turns
 * (A, B, A, B …; each one's fastest run counts: other processes only slow a run down). Pages: the first N scanned
 * receipts of the test data (`receipts/img`; only their reading speed is measured, no field is scored). Timing
 * starts when the files are handed to the import and stops when the queue is idle: import, reading and saving.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Engine } from '../../app/model/engine.js';
import { EngineRegistry } from '../../main/engines/engineRegistry.js';
import { inspectFile } from '../../main/composition/createRectoSession.js';
import { PageImageCache } from '../../main/services/pageImageCache.js';
import { RectoSession } from '../../main/services/rectoSession.js';
import { SettingsFile } from '../../main/settings/settingsFile.js';
import { BundledEngine } from '../../native-models/bundled/index.js';
import { defaultTestdataRoot } from '../../testing/testdataPaths.js';

interface QueueRun {
  pagesAtOnce: number;
  seconds: number;
  cpuSeconds: number;
  pages: number;
}

/** Imports `files` into a new project and waits for the queue to read them all with a bundled engine of `workers` OCR workers read `pagesAtOnce` at a time. */
async function readThroughQueue(files: readonly string[], workers: number, pagesAtOnce: number): Promise<QueueRun> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'recto-bench-queue-'));
  const engine = new BundledEngine({ ocrWorkers: workers });
  // The engine as the queue sees it: its own parallelism, or one page at a time.
  const asQueued: Engine = { descriptor: engine.descriptor, parallelism: pagesAtOnce, read: (input, options) => engine.read(input, options), dispose: async () => undefined };
  const session = new RectoSession({
    engines: new EngineRegistry(new Map([['bundled', { descriptor: () => engine.descriptor, create: async () => asQueued }]])),
    settings: new SettingsFile(path.join(dir, 'data', 'settings.json')),
    images: new PageImageCache(path.join(dir, 'cache'), inspectFile),
    dataDir: path.join(dir, 'data'),
    samplesDir: path.join(dir, 'samples'),
  });
  try {
    session.settings.update({ engine: 'bundled', authorName: 'Bench' });
    await session.createProject(path.join(dir, 'bench.recto'));
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    const result = await session.importFiles(files.map((filePath) => ({ filePath })), 'bundled');
    await session.queue.idle();
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const pages = result.imported.flatMap((doc) => doc.pages);
    const failed = pages.filter((page) => session.store.documents.getPage(page.id).status !== 'done');
    if (failed.length > 0 || result.errors.length > 0) throw new Error(`${failed.length} pages not read; ${JSON.stringify(result.errors)}`);
    return { pagesAtOnce, seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, pages: pages.length };
  } finally {
    await session.dispose();
    await engine.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: { pages: { type: 'string' }, repeat: { type: 'string' }, workers: { type: 'string' }, testdata: { type: 'string' }, json: { type: 'string' } },
  });
  const folder = path.join(path.resolve(values.testdata ?? defaultTestdataRoot), 'receipts', 'img');
  if (!existsSync(folder)) {
    console.error(`bench:queue-speed: the scanned receipts are not at ${folder}; give the test data's folder with --testdata DIR`);
    return 2;
  }
  const count = Number(values.pages ?? 20);
  const repeat = Number(values.repeat ?? 2);
  const workers = values.workers === undefined ? new BundledEngine().parallelism : Number(values.workers);
  for (const [name, value] of Object.entries({ pages: count, repeat, workers })) {
    if (!Number.isInteger(value) || value < 1) {
      console.error(`bench:queue-speed: --${name}: not a positive whole number`);
      return 2;
    }
  }
  const files = readdirSync(folder).filter((f) => /\.(jpe?g|png)$/i.test(f)).sort().slice(0, count).map((f) => path.join(folder, f));
  const runs: QueueRun[] = [];
  for (let k = 0; k < repeat; k++) {
    for (const pagesAtOnce of [1, workers]) {
      const run = await readThroughQueue(files, workers, pagesAtOnce);
      console.error(`${pagesAtOnce} page(s) at once: ${run.pages} pages in ${run.seconds.toFixed(1)} s (CPU ${run.cpuSeconds.toFixed(1)} s)`);
      runs.push(run);
    }
  }
  const best = (pagesAtOnce: number): QueueRun => runs.filter((r) => r.pagesAtOnce === pagesAtOnce).reduce((a, b) => (b.seconds < a.seconds ? b : a));
  const [one, many] = [best(1), best(workers)];
  const perSecond = (run: QueueRun): number => run.pages / run.seconds;
  console.log(`Scanned receipts through the reading queue (import, read, save), ${workers} OCR worker(s), ${os.availableParallelism()} cores; fastest of ${repeat} runs each:`);
  console.log('pages at once  pages  seconds  pages/s  CPU s/page');
  for (const run of [one, many]) console.log(`${String(run.pagesAtOnce).padStart(13)}  ${String(run.pages).padStart(5)}  ${run.seconds.toFixed(1).padStart(7)}  ${perSecond(run).toFixed(3).padStart(7)}  ${(run.cpuSeconds / run.pages).toFixed(2).padStart(10)}`);
  console.log(`ratio: ${(perSecond(many) / perSecond(one)).toFixed(2)}× the pages per second of one page at a time`);
  if (values.json) {
    await writeFile(path.resolve(values.json), `${JSON.stringify({ workers, cores: os.availableParallelism(), runs, ratio: perSecond(many) / perSecond(one) }, null, 2)}\n`);
    console.log(`wrote ${path.resolve(values.json)}`);
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`bench:queue-speed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);

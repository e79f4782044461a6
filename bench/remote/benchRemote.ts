/**
 * `npm run bench:remote [-- --json FILE] [-- --pages N] [-- --pack DIR]`: reading through the remote engine against
 * Recto's own `recto serve --pack` (a reference pack unless --pack is given), in a child process so that its work is
 * not counted as the client's.
 * - pages/s through the remote engine at concurrency 1, 4 and 16 (N pages each, the sample scans in turn);
 * - the client's own overhead per page: CPU ms of this process (base64, HTTP, SSE parsing, grounding parse) per page,
 *   the server's work excluded;
 * - the baseline, in the same run: the same pages read by the local engine in this process (pages/s), and the ratio.
 * The served engine reads one page at a time (onnxruntime does not batch requests), so concurrency here buys overlap
 * of transfer and decoding, not batching; vLLM batches concurrent requests (docs/scaling.md).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import type { PageInput } from '../../app/model/engine.js';
import { RemoteEngine } from '../../native-models/remote/index.js';
import { VlmEngine } from '../../native-models/vlm/index.js';
import { packageRoot } from '../../main/util/packageRoot.js';
import { referencePackDir } from '../../testing/referencePack/referencePackCache.js';

const { values } = parseArgs({ options: { json: { type: 'string' }, pages: { type: 'string', default: '16' }, pack: { type: 'string' } } });
const PAGES = Number(values.pages);
if (!Number.isInteger(PAGES) || PAGES < 1) throw new Error(`--pages: a whole number, not ${values.pages}`);
const CONCURRENCIES = [1, 4, 16];
const root = packageRoot();
const home = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-bench-remote-'));

async function pages(): Promise<PageInput[]> {
  const samples = path.join(root, 'resources', 'samples');
  const files = fs.readdirSync(samples).filter((name) => name.endsWith('.png')).sort().map((name) => path.join(samples, name));
  const inputs: PageInput[] = [];
  for (const file of files) {
    const meta = await sharp(file).metadata();
    inputs.push({ imagePath: file, width: meta.width!, height: meta.height!, dpi: 144, textLayer: null, label: path.basename(file) });
  }
  return Array.from({ length: PAGES }, (_, i) => ({ ...inputs[i % inputs.length]!, label: `page ${i + 1}` }));
}

/** `recto serve --pack` in a child process; resolves with its origin and token once it prints its URL. */
function startServer(packDir: string): Promise<{ child: ChildProcess; origin: string; token: string }> {
  const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), path.join(root, 'main', 'cli', 'recto.ts'), 'serve', '--pack', packDir], {
    env: { ...process.env, RECTO_HOME: home },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /(http:\/\/127\.0\.0\.1:\d+)\/#token=\S+/.exec(out);
      const key = /API key \(for \/v1 only[^)]*\): (\S+)/.exec(out);
      if (match && key) resolve({ child, origin: match[1]!, token: key[1]! });
    });
    child.on('exit', (code) => reject(new Error(`recto serve exited (${code}) before it was ready:\n${out}`)));
  });
}

async function readAll(read: (page: PageInput) => Promise<unknown>, inputs: PageInput[], concurrency: number): Promise<{ seconds: number; cpuMs: number }> {
  let next = 0;
  const cpu = process.cpuUsage();
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < inputs.length) await read(inputs[next++]!);
    }),
  );
  const used = process.cpuUsage(cpu);
  return { seconds: (performance.now() - start) / 1000, cpuMs: (used.user + used.system) / 1000 };
}

const packDir = values.pack ? path.resolve(values.pack) : await referencePackDir('high');
const inputs = await pages();
const server = await startServer(packDir);
const report: { pages: number; pack: string; remote: { concurrency: number; pagesPerSecond: number; clientCpuMsPerPage: number }[]; local: { pagesPerSecond: number }; } = {
  pages: PAGES,
  pack: path.basename(packDir),
  remote: [],
  local: { pagesPerSecond: 0 },
};
try {
  // Warm-up: the server loads its pack on the first request; the client's JIT warms too.
  const warm = new RemoteEngine({ endpoints: [server.origin], apiKey: server.token, concurrency: 1 });
  await warm.read(inputs[0]!);
  for (const concurrency of CONCURRENCIES) {
    const engine = new RemoteEngine({ endpoints: [server.origin], apiKey: server.token, concurrency });
    const run = await readAll((page) => engine.read(page), inputs, concurrency);
    report.remote.push({ concurrency, pagesPerSecond: PAGES / run.seconds, clientCpuMsPerPage: run.cpuMs / PAGES });
    await engine.dispose();
  }
} finally {
  server.child.kill('SIGTERM');
}
// The baseline: the same pages, the same pack, read in this process by the local engine.
const local = new VlmEngine({ packDir });
await local.read(inputs[0]!);
const baseline = await readAll((page) => local.read(page), inputs, 1);
await local.dispose();
report.local.pagesPerSecond = PAGES / baseline.seconds;
fs.rmSync(home, { recursive: true, force: true });

const rows: [string, string][] = [['local engine, in process (baseline) pages/s', report.local.pagesPerSecond.toFixed(2)]];
for (const run of report.remote) {
  rows.push(
    [`remote, concurrency ${run.concurrency}: pages/s (× baseline)`, `${run.pagesPerSecond.toFixed(2)} (${(run.pagesPerSecond / report.local.pagesPerSecond).toFixed(2)}×)`],
    [`remote, concurrency ${run.concurrency}: client CPU ms per page`, run.clientCpuMsPerPage.toFixed(2)],
  );
}
const width = Math.max(...rows.map(([name]) => name.length));
console.log(`bench:remote — ${PAGES} pages per run, pack ${report.pack}, server: recto serve --pack (child process)`);
for (const [name, value] of rows) console.log(`${name.padEnd(width)}  ${value}`);
if (values.json) fs.writeFileSync(values.json, JSON.stringify({ ...report, ratios: report.remote.map((r) => ({ concurrency: r.concurrency, vsLocal: r.pagesPerSecond / report.local.pagesPerSecond })) }, null, 2));
process.exit(0);

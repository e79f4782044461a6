/**
 * `npx tsx bench/ui/cpuByProcess.ts [--measure page_switch] [--samples 40] [--load N] [--json FILE]`: the CPU a
 * bench:ui measure costs per sample in every process it involves — each Chromium process (renderer, GPU, network,
 * browser) and each of their threads by name, and the browser shell's server — from Linux's /proc. bench:ui's own
 * counters see the renderer's main thread only; on two busy cores a sample waits for all of this work, and most of a
 * page switch's is elsewhere: the renderer's raster and image-decode workers (`ThreadPoolForeg`), the compositor
 * (`VizCompositorTh`), the server. `--load N` runs the CPU burner (cpuBurner.ts) throughout. Needs `npm run build`.
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { openBenchPage, startBenchApp } from './benchApp.js';
import { allMeasures } from './uiMeasures.js';
import { chromiumProcesses, processCpuMs, threadCpuMs } from './processCpu.js';
import { startCpuBurner } from './cpuBurner.js';

const { values } = parseArgs({ options: { measure: { type: 'string' }, samples: { type: 'string' }, load: { type: 'string' }, json: { type: 'string' } } });
const measure = allMeasures.find((m) => m.name === (values.measure ?? 'page_switch'));
if (!measure) throw new Error(`no measure ${values.measure}; one of ${allMeasures.map((m) => m.name).join(', ')}`);
const samples = Number(values.samples ?? 40);
const WARM_UP_SAMPLES = 3;

/** CPU ms so far of every Chromium process and thread (`renderer`, `renderer ThreadPoolForeg`, …) and the server. */
function cpuNow(processes: Map<number, string>, serverPid: number): Map<string, number> {
  const totals = new Map<string, number>();
  const add = (key: string, ms: number) => totals.set(key, (totals.get(key) ?? 0) + ms);
  for (const [pid, kind] of processes) {
    add(kind, processCpuMs(pid) || 0);
    for (const [thread, ms] of threadCpuMs(pid)) add(`${kind} ${thread}`, ms);
  }
  add('server', processCpuMs(serverPid) || 0);
  return totals;
}

const app = await startBenchApp(WARM_UP_SAMPLES + samples + 2);
const { recto } = app;
const burner = values.load === undefined ? null : startCpuBurner(Number(values.load));
try {
  const page = await openBenchPage(app);
  await measure.run(page, WARM_UP_SAMPLES);
  burner?.set(true);
  // The processes as they are now (each tab's renderer, the GPU process and the network service are up by then).
  const processes = chromiumProcesses();
  const before = cpuNow(processes, recto.pid);
  const startedAt = performance.now();
  const times = await measure.run(page, samples);
  const wallPerSample = (performance.now() - startedAt) / samples;
  const after = cpuNow(processes, recto.pid);
  burner?.set(false);

  const perSample = [...after]
    .map(([key, ms]) => [key, (ms - (before.get(key) ?? 0)) / samples] as const)
    .filter(([, ms]) => ms >= 0.5)
    .sort((a, b) => b[1] - a[1]);
  const sorted = [...times].sort((a, b) => a - b);
  console.log(`${measure.label}: ${samples} samples${burner ? ` at +${values.load} busy threads` : ''}, p50 ${sorted[Math.floor(samples / 2)]!.toFixed(1)} ms, p95 ${sorted[Math.min(samples - 1, Math.floor(samples * 0.95))]!.toFixed(1)} ms, ${wallPerSample.toFixed(1)} ms of wall time per sample`);
  console.log('CPU ms per sample  process / thread');
  const processKinds = new Set([...processes.values(), 'server']);
  let total = 0;
  for (const [key, ms] of perSample) {
    const isProcess = processKinds.has(key);
    if (isProcess) total += ms;
    console.log(`${ms.toFixed(1).padStart(17)}  ${isProcess ? key : `  ${key}`}`);
  }
  console.log(`${total.toFixed(1).padStart(17)}  all processes`);
  if (values.json) fs.writeFileSync(values.json, JSON.stringify({ measure: measure.name, samples, load: burner ? Number(values.load) : 0, wallPerSampleMs: wallPerSample, cpuPerSampleMs: Object.fromEntries(perSample), totalCpuPerSampleMs: total }, null, 2));
} finally {
  await burner?.stop();
  await app.close();
}

/**
 * `npx tsx bench/ui/profileUi.ts [--measure page_switch] [--samples 30] [--save FILE.cpuprofile] [--counts]`: where the
 * renderer's main thread spends a bench:ui measure — a V8 CPU profile (CDP `Profiler`) over the samples, printed as
 * self time per function and per source file, inclusive time, and by phase of the input (profilePhases.ts).
 * `--counts`: then as many samples again with call counts (CDP precise coverage; not during the profile, whose times
 * it would change): how many times React rendered and the review screen's main components ran per sample, exactly.
 * `--trace`: then as many samples again under a Chromium trace: the main thread's time by kind of work (style,
 * layout, paint, scripts, GC, …: traceBreakdown.ts), which names what the profile shows as "(program)".
 * Build the renderer unminified for readable names: `npx vite build --minify false`.
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import type { CDPSession } from 'playwright-core';
import { openBenchPage, startBenchApp } from './benchApp.js';
import { allMeasures } from './uiMeasures.js';
import { phaseTimes, type Profile } from './profilePhases.js';
import { rendererMainThreads, selfTimeByName, type TraceEvent } from './traceBreakdown.js';

const { values } = parseArgs({ options: { measure: { type: 'string' }, samples: { type: 'string' }, top: { type: 'string' }, save: { type: 'string' }, counts: { type: 'boolean' }, trace: { type: 'boolean' } } });
const measure = allMeasures.find((m) => m.name === (values.measure ?? 'page_switch'));
if (!measure) throw new Error(`no measure ${values.measure}; one of ${allMeasures.map((m) => m.name).join(', ')}`);
const samples = Number(values.samples ?? 30);
const top = Number(values.top ?? 40);
/** What `--counts` counts: React's renders (one per render pass) and the review screen's main components. */
const countedFunctions = ['renderRootSync', 'App', 'ReviewWorkspace', 'DocumentRail', 'PageViewer', 'ElementOverlay', 'LinkedMarkdownEditor', 'CursorPanels', 'FieldsPanel', 'StatusBar'];


// Enough pages that every sample (the warm-up, the profile's, the counts') has a next page to step to.
const WARM_UP_SAMPLES = 3;
const pages = Math.max(60, WARM_UP_SAMPLES + samples * (1 + (values.counts ? 1 : 0) + (values.trace ? 1 : 0)) + 1);
const app = await startBenchApp(pages);
const { browser } = app;
try {
  const page = await openBenchPage(app);
  await measure.run(page, WARM_UP_SAMPLES);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  await cdp.send('Profiler.start');
  const requests = new Map<string, number>();
  page.on('request', (request) => {
    const key = new URL(request.url()).pathname.replace(/^\/api\/rpc\//, 'rpc ').replace(/\/pages\/.*/, '/pages/…');
    requests.set(key, (requests.get(key) ?? 0) + 1);
  });
  const times = await measure.run(page, samples);
  const { profile } = (await cdp.send('Profiler.stop')) as { profile: Profile };
  // The whole profile, for Chromium's DevTools (Performance → Load profile) or a caller-by-caller look.
  if (values.save) fs.writeFileSync(values.save, JSON.stringify(profile));
  console.log(`${measure.name}: ${samples} samples, p50 ${[...times].sort((a, b) => a - b)[Math.floor(samples / 2)]!.toFixed(1)} ms`);
  console.log('requests per sample:', [...requests].map(([k, n]) => `${k} ${(n / samples).toFixed(2)}`).join(', '));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + profile.timeDeltas[i]! / 1000));
  const byFunction = new Map<string, number>();
  const byFile = new Map<string, number>();
  for (const node of profile.nodes) {
    const ms = self.get(node.id) ?? 0;
    const file = node.callFrame.url.split('/').pop() || '(native)';
    const key = `${node.callFrame.functionName || '(anonymous)'} ${file}:${node.callFrame.lineNumber + 1}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + ms);
    byFile.set(file, (byFile.get(file) ?? 0) + ms);
  }
  const print = (title: string, map: Map<string, number>) => {
    console.log(`\n${title} (ms per sample)`);
    for (const [key, ms] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${(ms / samples).toFixed(2).padStart(8)}  ${key}`);
  };
  print('self time by function', byFunction);
  print('self time by file', byFile);
  // Inclusive time of each function (counted once per stack), to see which component or library call owns the time.
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const nodeById = new Map(profile.nodes.map((n) => [n.id, n]));
  const inclusive = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = nodeById.get(at)!.callFrame;
      const key = `${frame.functionName || '(anonymous)'} ${frame.url.split('/').pop()}:${frame.lineNumber + 1}`;
      if (!seen.has(key)) inclusive.set(key, (inclusive.get(key) ?? 0) + profile.timeDeltas[i]! / 1000);
      seen.add(key);
    }
  });
  print('inclusive time by function', inclusive);
  console.log('\nby phase (ms per sample)');
  for (const [label, ms] of phaseTimes(profile, samples)) console.log(`${ms.toFixed(2).padStart(8)}  ${label}`);
  if (values.counts) await printCallCounts(cdp, () => measure.run(page, samples));
  if (values.trace) {
    await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'blink', 'cc', 'gpu'] });
    await measure.run(page, samples);
    const { traceEvents } = JSON.parse((await browser.stopTracing()).toString('utf8')) as { traceEvents: TraceEvent[] };
    print('main thread self time by trace event', selfTimeByName(traceEvents, rendererMainThreads(traceEvents)));
  }
} finally {
  await app.close();
}

/** Calls per sample of `countedFunctions` over `run`. */
async function printCallCounts(cdp: CDPSession, run: () => Promise<unknown>): Promise<void> {
  interface Coverage { result: { functions: { functionName: string; ranges: { count: number }[] }[] }[] }
  const take = async () => {
    const { result } = (await cdp.send('Profiler.takePreciseCoverage')) as unknown as Coverage;
    const counts = new Map<string, number>();
    for (const script of result) for (const fn of script.functions) counts.set(fn.functionName, (counts.get(fn.functionName) ?? 0) + fn.ranges[0]!.count);
    return counts;
  };
  await cdp.send('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
  const before = await take();
  await run();
  const after = await take();
  await cdp.send('Profiler.stopPreciseCoverage');
  const perSample = [...after]
    .filter(([name]) => countedFunctions.includes(name))
    .map(([name, count]) => [name, (count - (before.get(name) ?? 0)) / samples] as const);
  console.log('\ncalls per sample (renderRootSync: React render passes)');
  for (const [name, count] of perSample) console.log(`${count.toFixed(2).padStart(8)}  ${name}`);
}

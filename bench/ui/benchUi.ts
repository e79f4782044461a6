/**
 * `npm run bench:ui [-- --json FILE] [-- --pages N] [-- --samples N] [-- --load N]`: the review screen's responsiveness, in the
 * browser shell driven by Playwright in Debian's Chromium, on a generated project of N (default 200) invoice pages
 * with five tables each (uiBenchProject.ts). Prints a table and writes
 * `{pages, page_switch_p95_ms, field_edit_to_rules_p95_ms, keystroke_preview_p95_ms, …}`, with a baseline measured in
 * the same run (one pages.getReview round trip) and each figure's ratio to it. Needs `npm run build` first.
 * Measures are listed in uiMeasures.ts; add one there to extend the report. `--load N` runs N busy threads beside
 * it (cpuBurner.ts) and reports every measure without and with them, alternated in one run (loadRounds.ts), with the
 * renderer's script / style / layout time per sample in each and the ratio of the p95s.
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { openBenchPage, startBenchApp } from './benchApp.js';
import { reviewRoundTrip, uiMeasures } from './uiMeasures.js';
import { startCpuBurner } from './cpuBurner.js';
import { measureUnderLoad, openMetrics, splitHeader, splitText } from './loadRounds.js';

const { values } = parseArgs({ options: { json: { type: 'string' }, pages: { type: 'string' }, samples: { type: 'string' }, load: { type: 'string' } } });
const load = values.load === undefined ? null : Number(values.load);
const samples = Number(values.samples ?? 40);
// Every page switch sample steps to the next page: enough pages for both switch measures, with and without load.
const pages = Number(values.pages ?? Math.max(200, 2 * 2 * (samples + 8) + 10));
const quantile = (xs: number[], q: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};

const startedAt = performance.now();
const app = await startBenchApp(pages);
console.error(`bench:ui: ${pages} pages generated and served in ${((performance.now() - startedAt) / 1000).toFixed(1)} s`);
try {
  const page = await openBenchPage(app);

  const result: Record<string, number> = { pages };
  if (load !== null) {
    await runUnderLoad(page, load, result, app.recto.pid);
  } else {
    const rows: [string, string, string, string, string][] = [];
    const baseline = await reviewRoundTrip.run(page, samples);
    const baselineP95 = quantile(baseline, 0.95);
    result[`${reviewRoundTrip.name}_p95_ms`] = Number(baselineP95.toFixed(2));
    rows.push([reviewRoundTrip.label, quantile(baseline, 0.5).toFixed(1), baselineP95.toFixed(1), '', '1.00']);
    for (const measure of uiMeasures) {
      // Two unrecorded samples warm up the JIT and the page's caches.
      await measure.run(page, 2);
      const times = await measure.run(page, samples);
      if (times.some((t) => t < 0)) throw new Error(`${measure.name}: the screen did not show the effect within 10 s`);
      const p95 = quantile(times, 0.95);
      result[`${measure.name}_p95_ms`] = Number(p95.toFixed(2));
      rows.push([measure.label, quantile(times, 0.5).toFixed(1), p95.toFixed(1), measure.targetMs === null ? '' : `≤ ${measure.targetMs}`, (p95 / baselineP95).toFixed(2)]);
    }
    printTable(['measure', 'p50 ms', 'p95 ms', 'target', '× baseline'], rows);
  }
  if (values.json) fs.writeFileSync(values.json, `${JSON.stringify(result, null, 2)}\n`);
} finally {
  await app.close();
}

function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((_, c) => Math.max(...[header, ...rows].map((r) => r[c]!.length)));
  for (const row of [header, ...rows]) console.log(row.map((cell, c) => cell.padEnd(widths[c]!)).join('  '));
}

/** Every measure (the getReview baseline first) without and with `cores` busy threads, alternated in rounds. */
async function runUnderLoad(page: import('playwright-core').Page, cores: number, result: Record<string, number>, serverPid: number): Promise<void> {
  const burner = startCpuBurner(cores);
  const cdp = await openMetrics(page, serverPid);
  result.load = cores;
  const rows: string[][] = [];
  try {
    for (const measure of [reviewRoundTrip, ...uiMeasures]) {
      await measure.run(page, 2);
      const { off, on } = await measureUnderLoad(page, cdp, measure, samples, burner);
      if ([...off.times, ...on.times].some((t) => t < 0)) throw new Error(`${measure.name}: the screen did not show the effect within 10 s`);
      const p95Off = quantile(off.times, 0.95);
      const p95On = quantile(on.times, 0.95);
      result[`${measure.name}_p95_ms`] = Number(p95Off.toFixed(2));
      result[`${measure.name}_loaded_p95_ms`] = Number(p95On.toFixed(2));
      const split = (c: typeof off) => splitText(c.split);
      for (const [suffix, condition] of [['', off], ['_loaded', on]] as const) {
        result[`${measure.name}${suffix}_script_ms`] = Number(condition.split.script.toFixed(2));
        result[`${measure.name}${suffix}_main_thread_cpu_ms`] = Number(condition.split.tasks.toFixed(2));
        result[`${measure.name}${suffix}_main_thread_wall_ms`] = Number(condition.split.tasksWall.toFixed(2));
        result[`${measure.name}${suffix}_server_cpu_ms`] = Number(condition.split.server.toFixed(2));
      }
      rows.push([
        measure.label,
        `${quantile(off.times, 0.5).toFixed(1)} / ${p95Off.toFixed(1)}`,
        `${quantile(on.times, 0.5).toFixed(1)} / ${p95On.toFixed(1)}`,
        (p95On / p95Off).toFixed(2),
        measure.targetMs === null ? '' : `≤ ${measure.targetMs}`,
        split(off),
        split(on),
      ]);
    }
  } finally {
    await burner.stop();
  }
  printTable(['measure', 'no load p50 / p95 ms', `load +${cores} p50 / p95 ms`, 'p95 ratio', 'target', `${splitHeader} (no load)`, '(load)'], rows);
}

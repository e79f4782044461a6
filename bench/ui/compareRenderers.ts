/**
 * `npx tsx bench/ui/compareRenderers.ts --before DIR [--load N] [--samples N] [--rounds N] [--measures a,b]`: the
 * bench:ui measures of two renderer builds side by side — DIR (a copy of an earlier `dist/renderer`) and the current
 * `dist/renderer` — in two tabs of one browser on one server and project, their samples taken in alternating rounds
 * so both builds share whatever else the machine runs (on a shared machine two separate runs are not comparable).
 * With `--load N` the CPU burner (cpuBurner.ts) runs beside both throughout. Prints p50 / p95 and the renderer main
 * thread's CPU and wall time per sample (Chromium's counters, as `bench:ui --load`) for each build.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { startBenchApp, waitForBenchPage } from './benchApp.js';
import { allMeasures, uiMeasures } from './uiMeasures.js';
import { startCpuBurner } from './cpuBurner.js';
import { emptySplit, openMetrics, readMetrics, splitHeader, splitText, type MetricSessions, type TimeSplit } from './loadRounds.js';

const { values } = parseArgs({
  options: { before: { type: 'string' }, load: { type: 'string' }, samples: { type: 'string' }, rounds: { type: 'string' }, measures: { type: 'string' }, pages: { type: 'string' } },
});
if (!values.before || !fs.existsSync(path.join(values.before, 'index.html'))) throw new Error('--before DIR: a built renderer folder (with index.html) to compare against');
const beforeDir = path.resolve(values.before);
const samples = Number(values.samples ?? 40);
const rounds = Number(values.rounds ?? 4);
const load = values.load === undefined ? 0 : Number(values.load);
// By default bench:ui's measures; those kept out of its table (page_switch_painted) only when named.
const wanted = values.measures?.split(',') ?? uiMeasures.map((m) => m.name);
const measures = allMeasures.filter((m) => wanted.includes(m.name));

const contentTypes: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.ttf': 'font/ttf', '.woff2': 'font/woff2', '.svg': 'image/svg+xml', '.json': 'application/json' };
const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;

/**
 * A tab showing the review screen from page `firstPage` on; `rendererDir` replaces the server's renderer files (the
 * API stays the server's). The two tabs work on different pages, so one's saves never make the other refetch.
 */
async function openTab(browser: Browser, url: string, rendererDir: string | null, firstPage: number, serverPid: number): Promise<{ page: Page; metrics: MetricSessions }> {
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  if (rendererDir) {
    await page.route(
      (target) => !target.pathname.startsWith('/api/') && !target.pathname.startsWith('/ws'),
      (route) => {
        const pathname = new URL(route.request().url()).pathname;
        const file = path.join(rendererDir, pathname === '/' ? 'index.html' : pathname);
        if (!file.startsWith(rendererDir) || !fs.existsSync(file)) return route.continue();
        return route.fulfill({ body: fs.readFileSync(file), contentType: contentTypes[path.extname(file)] ?? 'application/octet-stream' });
      },
    );
  }
  await page.goto(url);
  await page.locator('[data-testid="page-item"]').nth(firstPage).click();
  await waitForBenchPage(page);
  return { page, metrics: await openMetrics(page, serverPid) };
}

// Each tab steps through its half of the pages: enough that every page switch measure (warm-up too) has a next page.
const switchesPerTab = measures.filter((m) => m.name.startsWith('page_switch')).length * (samples + rounds + 2);
const pages = Number(values.pages ?? Math.max(200, 2 * switchesPerTab + 10));
const app = await startBenchApp(pages);
const { recto, browser } = app;
const burner = load > 0 ? startCpuBurner(load) : null;
burner?.set(true);
try {
  const tabs = { before: await openTab(browser, recto.url, beforeDir, 0, recto.pid), after: await openTab(browser, recto.url, null, Math.floor(pages / 2), recto.pid) };
  const rows: string[][] = [];
  for (const measure of measures) {
    const result = { before: { times: [] as number[], split: emptySplit() }, after: { times: [] as number[], split: emptySplit() } };
    for (const name of ['before', 'after'] as const) await measure.run(tabs[name].page, 2);
    for (let round = 0; round < rounds; round++) {
      for (const name of round % 2 === 0 ? (['before', 'after'] as const) : (['after', 'before'] as const)) {
        const { page, metrics } = tabs[name];
        await page.bringToFront();
        const start = await readMetrics(metrics);
        result[name].times.push(...(await measure.run(page, Math.ceil(samples / rounds))));
        const end = await readMetrics(metrics);
        for (const key of Object.keys(start) as (keyof TimeSplit)[]) result[name].split[key] += end[key] - start[key];
      }
    }
    for (const name of ['before', 'after'] as const) {
      const { times, split } = result[name];
      if (times.some((t) => t < 0)) throw new Error(`${measure.name} (${name}): the screen did not show the effect within 10 s`);
      rows.push([measure.label, name, quantile(times, 0.5).toFixed(1), quantile(times, 0.95).toFixed(1), splitText(split, times.length)]);
    }
  }
  const header = ['measure', 'build', 'p50 ms', 'p95 ms', splitHeader];
  const widths = header.map((_, c) => Math.max(...[header, ...rows].map((r) => r[c]!.length)));
  console.log(`load +${load}, ${samples} samples per build and measure in ${rounds} alternating rounds`);
  for (const row of [header, ...rows]) console.log(row.map((cell, c) => cell.padEnd(widths[c]!)).join('  '));
} finally {
  await burner?.stop();
  await app.close();
}

/**
 * `npm run bench:ui [-- --json FILE] [-- --pages N] [-- --samples N]`: the review screen's responsiveness, in the
 * browser shell driven by Playwright in Debian's Chromium, on a generated project of N (default 200) invoice pages
 * with five tables each (uiBenchProject.ts). Prints a table and writes
 * `{pages, page_switch_p95_ms, field_edit_to_rules_p95_ms, keystroke_preview_p95_ms, …}`, with a baseline measured in
 * the same run (one pages.getReview round trip) and each figure's ratio to it. Needs `npm run build` first.
 * Measures are listed in uiMeasures.ts; add one there to extend the report.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { launchChromium } from '../../e2e/support/chromium.js';
import { makeHome, startRecto } from '../../e2e/support/rectoServer.js';
import { createUiBenchProject } from './uiBenchProject.js';
import { reviewRoundTrip, uiMeasures } from './uiMeasures.js';

const { values } = parseArgs({ options: { json: { type: 'string' }, pages: { type: 'string' }, samples: { type: 'string' } } });
const pages = Number(values.pages ?? 200);
const samples = Number(values.samples ?? 40);
const quantile = (xs: number[], q: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-bench-ui-'));
const home = makeHome();
const startedAt = performance.now();
// The page images in the server's cache, as after an import (startRecto runs the server with RECTO_HOME=home).
const project = await createUiBenchProject(dir, pages, path.join(home, 'cache'));
console.error(`bench:ui: ${pages} pages generated in ${((performance.now() - startedAt) / 1000).toFixed(1)} s`);
const recto = await startRecto({ home, project });
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  await page.goto(recto.url);
  await page.getByTestId('doc-list').waitFor();
  await page.locator('[data-testid="page-item"]').first().click();
  await page.waitForFunction(() => ((window as unknown as { __rectoEditor?: { getValue(): string } }).__rectoEditor?.getValue() ?? '').includes('INV-'));
  await page.locator('.fields-panel [data-field="invoice_number"]').waitFor();

  const result: Record<string, number> = { pages };
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
  const widths = [0, 1, 2, 3, 4].map((c) => Math.max(...[['measure', 'p50 ms', 'p95 ms', 'target', '× baseline'], ...rows].map((r) => r[c]!.length)));
  for (const row of [['measure', 'p50 ms', 'p95 ms', 'target', '× baseline'], ...rows]) console.log(row.map((cell, c) => cell.padEnd(widths[c]!)).join('  '));
  if (values.json) fs.writeFileSync(values.json, `${JSON.stringify(result, null, 2)}\n`);
} finally {
  await browser.close();
  await recto.stop();
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(home, { recursive: true, force: true });
}

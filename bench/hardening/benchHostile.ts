/**
 * `npm run bench:hostile [-- --json FILE] [-- --only CASE] [-- --timeout S]`: the repros of issue 23 before and after
 * the fixes — wall time, the peak RSS of a child process that runs the one case (hostileCases.ts), and the longest
 * the event loop was held (what the server's next request would have waited). `before`
 * replays the replaced code path; a case that passes the timeout is reported as such (it is killed).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { cases, tmpWork, type Variant } from './hostileCases.js';

const { values } = parseArgs({ options: { json: { type: 'string' }, only: { type: 'string' }, timeout: { type: 'string' }, child: { type: 'string' }, variant: { type: 'string' } } });

if (values.child) {
  // Child: one case, one variant; prints its figures as JSON on the last line.
  const work = tmpWork();
  const prepared = await cases[values.child]!.prepare?.();
  // The longest the event loop was held: what a request to the server (app.info) would have waited.
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  // The monitor records the gap between its own ticks: let it take a first one before the case can block.
  await new Promise((resolve) => setTimeout(resolve, 50));
  const start = performance.now();
  try {
    const outcome = await cases[values.child]!.run(values.variant as Variant, work, prepared);
    const ms = performance.now() - start;
    // One more timer tick, so a stall at the very end (a synchronous case) is recorded before the monitor stops.
    await new Promise((resolve) => setTimeout(resolve, 50));
    loop.disable();
    console.log(JSON.stringify({ ms, peakRssMb: process.resourceUsage().maxRSS / 1024, stallMs: loop.max / 1e6, outcome }));
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  process.exit(0);
}

const timeoutS = Number(values.timeout ?? 120);
const here = fileURLToPath(import.meta.url);
const rows: { case: string; hole: string; variant: Variant; ms: number | null; peakRssMb: number | null; stallMs: number | null; outcome: string }[] = [];
const afterOnly = new Set(['v1-sliver-image', 'v1-long-prompt', 'v1-concurrent-uploads', 'attachment-ef-markers-1mib', 'attachment-ef-markers-2mib', 'attachment-objstm-bomb']);
for (const [name, { hole }] of Object.entries(cases)) {
  if (values.only && values.only !== name) continue;
  for (const variant of ['before', 'after'] as const) {
    if (variant === 'before' && afterOnly.has(name)) continue;
    const child = spawnSync(process.execPath, ['--import', 'tsx', here, '--child', name, '--variant', variant], { encoding: 'utf8', timeout: timeoutS * 1000, maxBuffer: 1 << 24 });
    const last = child.stdout?.trim().split('\n').pop() ?? '';
    let figures: { ms: number; peakRssMb: number; stallMs: number; outcome: string } | null = null;
    try {
      figures = JSON.parse(last) as { ms: number; peakRssMb: number; stallMs: number; outcome: string };
    } catch {
      figures = null;
    }
    const outcome = figures?.outcome ?? (child.error ? `killed after ${timeoutS} s` : `failed: ${(child.stderr ?? '').trim().split('\n').pop()?.slice(0, 80)}`);
    rows.push({ case: name, hole, variant, ms: figures?.ms ?? null, peakRssMb: figures?.peakRssMb ?? null, stallMs: figures?.stallMs ?? null, outcome });
    console.error(`${name} ${variant}: ${figures ? `${(figures.ms / 1000).toFixed(2)} s, ${figures.peakRssMb.toFixed(0)} MB` : outcome}`);
  }
}

console.log('| case | variant | time | peak RSS | longest event-loop stall | outcome |');
console.log('|---|---|---:|---:|---:|---|');
for (const r of rows) {
  const stall = r.stallMs === null ? '—' : `${(r.stallMs / 1000).toFixed(2)} s`;
  console.log(`| ${r.case} | ${r.variant} | ${r.ms === null ? '—' : `${(r.ms / 1000).toFixed(2)} s`} | ${r.peakRssMb === null ? '—' : `${r.peakRssMb.toFixed(0)} MB`} | ${stall} | ${r.outcome} |`);
}
if (values.json) fs.writeFileSync(path.resolve(values.json), `${JSON.stringify(rows, null, 2)}\n`);

/**
 * npx tsx bench/decode/moeLayerAB.ts [--hidden H --inter F --experts E --top-k K] [--rows 1,4,64,256] [--reps R]
 *                                   [--threads T] [--json FILE]
 *
 * One DeepSeek-V2 MoE layer (router, routed experts, shared experts; graphParts.ts `moe`) in its two forms — the fused
 * com.microsoft MoE node the packs write and the gather form of standard ops (graphParts.ts MoeForm) — with the same
 * weights, at jina-ocr-v1's size by default (hidden 1280, 64 experts of 896, top-6). For each row count T (1: a decode
 * step, 4: a K = 3 verify pass, larger: a prefill) both are run alternately; prints the fastest of `reps` for each,
 * the ratio gather ÷ fused, and the largest difference between their outputs.
 */
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { createSession, floatTensor, type TimedSession } from '../../native-models/vlm/runtime/onnxRuntime.js';
import { GraphBuilder } from '../../testing/referencePack/graphBuilder.js';
import { expertWeights, moe, type MoeForm } from '../../testing/referencePack/graphParts.js';
import { DataType } from '../../testing/referencePack/onnxSchema.js';
import { Rng } from '../../testing/referencePack/rng.js';

const { values } = parseArgs({
  options: {
    hidden: { type: 'string', default: '1280' },
    inter: { type: 'string', default: '896' },
    experts: { type: 'string', default: '64' },
    'top-k': { type: 'string', default: '6' },
    rows: { type: 'string', default: '1,4,64,256' },
    reps: { type: 'string', default: '10' },
    threads: { type: 'string', default: '2' },
    json: { type: 'string' },
  },
});
const dims = { hidden: Number(values.hidden), routedExperts: Number(values.experts), sharedExperts: 2, topK: Number(values['top-k']), expertInter: Number(values.inter) };
const ROWS = values.rows.split(',').map(Number);
const FORMS: readonly MoeForm[] = ['fused', 'gather'];

/** The layer in `form`; the same seed gives the same router, expert and shared-expert weights in both forms. */
function build(form: MoeForm): Uint8Array {
  const g = new GraphBuilder(`moe-${form}`);
  const rng = new Rng(3);
  const x = g.input('x', DataType.FLOAT, [1, 'tokens', dims.hidden]);
  const experts = expertWeights(g, 'experts', new Rng(4), dims.routedExperts, dims.hidden, dims.expertInter, 1, form);
  g.output(moe(g, x, 'mlp', rng, dims, experts, 1), 'y', DataType.FLOAT, [1, 'tokens', dims.hidden]);
  return g.serialize().model;
}

const sessions = new Map<MoeForm, TimedSession>();
for (const form of FORMS) sessions.set(form, await createSession(build(form), form, `${form} MoE layer`, { provider: 'cpu', intraOpThreads: Number(values.threads) }));
const input = new Rng(5).weights(Math.max(...ROWS) * dims.hidden, 1);
const run = async (form: MoeForm, rows: number) => {
  const out = await sessions.get(form)!.run({ x: floatTensor(input.subarray(0, rows * dims.hidden), [1, rows, dims.hidden]) });
  return out.y!.data as Float32Array;
};

const load = loadavg();
const results: { rows: number; fused_ms: number; gather_ms: number; ratio: number; max_abs_diff: number }[] = [];
for (const rows of ROWS) {
  const [a, b] = [await run('fused', rows), await run('gather', rows)];
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff = Math.max(diff, Math.abs(a[i]! - b[i]!));
  const best = new Map<MoeForm, number>(FORMS.map((f) => [f, Number.POSITIVE_INFINITY]));
  for (let rep = 0; rep < Number(values.reps); rep++) {
    for (const form of rep % 2 === 0 ? FORMS : [...FORMS].reverse()) {
      const start = performance.now();
      await run(form, rows);
      best.set(form, Math.min(best.get(form)!, performance.now() - start));
    }
  }
  results.push({ rows, fused_ms: best.get('fused')!, gather_ms: best.get('gather')!, ratio: best.get('gather')! / best.get('fused')!, max_abs_diff: diff });
}
for (const s of sessions.values()) await s.release();

console.log(`one MoE layer, hidden ${dims.hidden}, ${dims.routedExperts} experts of ${dims.expertInter}, top-${dims.topK}; CPU, ${values.threads} threads, fastest of ${values.reps}; load average ${load.map((l) => l.toFixed(2)).join(' / ')}`);
console.log('| rows T | gather ms | fused MoE node ms | gather ÷ fused | max |Δ| |');
console.log('|---|---|---|---|---|');
for (const r of results) console.log(`| ${r.rows} | ${r.gather_ms.toFixed(2)} | ${r.fused_ms.toFixed(2)} | ${r.ratio.toFixed(2)} | ${r.max_abs_diff.toExponential(1)} |`);
if (values.json) writeFileSync(values.json, JSON.stringify({ dims, threads: Number(values.threads), reps: Number(values.reps), load_average: load, results }, null, 2));

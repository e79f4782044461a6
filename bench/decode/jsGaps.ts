/**
 * npx tsx bench/decode/jsGaps.ts [--k K] [--variant high|mid|zero] [--passes N] [--json FILE]
 *
 * Where the decoding loop's own JS time goes, measured as the gaps between consecutive graph runs: from the end of one
 * `run` to the start of the next, grouped by hand-over (decoder → draft, draft → draft, draft → decoder), median over
 * every step of `passes` passes of 8 prompts × 80 tokens (after one warm-up pass) on a reference pack. The sum over a
 * step's hand-overs is the JS of one step, beside the median time inside the runs of a step. bench:decode's JS share
 * is the same quantity as a fraction of wall time; this splits it by where in the step it is spent, which is what a
 * change to the loop moves (compare two versions run alternately: the machine's drift between runs is large).
 */
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { createDecodeModels, decodeOptionsFor } from '../../native-models/vlm/decoding/decodeModels.js';
import { fastMtpDecode } from '../../native-models/vlm/decoding/fastMtpDecode.js';
import { greedyDecode } from '../../native-models/vlm/decoding/greedyDecode.js';
import { loadPack } from '../../native-models/vlm/pack/loadPack.js';
import type { TimedSession } from '../../native-models/vlm/runtime/onnxRuntime.js';
import { referencePackDir } from '../../testing/referencePack/referencePackCache.js';
import type { DraftVariant } from '../../testing/referencePack/writeReferencePack.js';
import { median } from './decodeBenchmark.js';

const { values } = parseArgs({
  options: {
    k: { type: 'string', default: '3' },
    variant: { type: 'string', default: 'high' },
    passes: { type: 'string', default: '5' },
    json: { type: 'string' },
  },
});
const k = Number(values.k);
const pack = await loadPack(await referencePackDir(values.variant as DraftVariant), { provider: 'cpu' });
const models = createDecodeModels(pack);

/** Every graph run while recording: which graph, when it started and ended (ms). */
const runs: { label: string; start: number; end: number }[] = [];
let recording = false;
function trace(session: TimedSession): void {
  // An instance-level wrapper: the benchmark times the calls; TimedSession itself is unchanged.
  const run = session.run.bind(session);
  session.run = async (...args: Parameters<TimedSession['run']>) => {
    const start = performance.now();
    const out = await run(...args);
    if (recording) runs.push({ label: session.label.replace(' graph', ''), start, end: performance.now() });
    return out;
  };
}
for (const session of [models.decoder.session, models.draft!.session, models.embedder.session]) trace(session);

const options = decodeOptionsFor(pack, { maxNewTokens: 80 });
const vocab = pack.manifest.dims.vocab;
const prompts = Array.from({ length: 8 }, (_, p) => [0, ...Array.from({ length: 12 }, (_, i) => 10 + ((p * 31 + i * 7) % (vocab - 10)))]);
for (let pass = 0; pass <= Number(values.passes); pass++) {
  recording = pass > 0; // pass 0 warms up
  for (const ids of prompts) {
    const embeds = await models.embedder.embed(ids);
    await (k === 0 ? greedyDecode(models, embeds, ids.length, options) : fastMtpDecode(models, embeds, ids.length, k, options));
    runs.push({ label: 'page end', start: Number.NaN, end: Number.NaN }); // no hand-over across pages
  }
}
await Promise.all(Object.values(pack.sessions).map((s) => s.release()));

const gaps = new Map<string, number[]>();
const inside = new Map<string, number[]>();
for (let i = 0; i < runs.length; i++) {
  const r = runs[i]!;
  if (Number.isNaN(r.start)) continue;
  (inside.get(r.label) ?? inside.set(r.label, []).get(r.label)!).push((r.end - r.start) * 1000);
  const previous = runs[i - 1];
  if (!previous || Number.isNaN(previous.end) || r.label === 'embed' || previous.label === 'embed') continue;
  const key = `${previous.label} → ${r.label}`;
  (gaps.get(key) ?? gaps.set(key, []).get(key)!).push((r.start - previous.end) * 1000);
}
// The hand-overs of one step: greedy decoder → decoder; FastMTP decoder → draft, (K − 1) × draft → draft, draft → decoder.
const stepHandOvers = k === 0 ? ['decoder → decoder'] : ['decoder → draft', ...Array<string>(k - 1).fill('draft → draft'), 'draft → decoder'];
const stepRuns = k === 0 ? ['decoder'] : [...Array<string>(k).fill('draft'), 'decoder'];
const med = (m: Map<string, number[]>, key: string) => median(m.get(key) ?? [Number.NaN]);
const jsPerStep = stepHandOvers.reduce((sum, key) => sum + med(gaps, key), 0);
const insidePerStep = stepRuns.reduce((sum, key) => sum + med(inside, key), 0);

console.log(`${values.variant} pack, K = ${k}, ${values.passes} passes × 8 prompts × 80 tokens; load average ${loadavg().map((l) => l.toFixed(2)).join(' / ')}`);
console.log('| hand-over | count | median µs |');
console.log('|---|---|---|');
for (const [key, list] of gaps) console.log(`| ${key} | ${list.length} | ${median(list).toFixed(1)} |`);
console.log(`JS of one step (sum of its hand-overs' medians): ${jsPerStep.toFixed(1)} µs; inside its runs: ${insidePerStep.toFixed(1)} µs (${((100 * jsPerStep) / (jsPerStep + insidePerStep)).toFixed(1)} %)`);
if (values.json) {
  const handOvers = Object.fromEntries([...gaps].map(([key, list]) => [key, { count: list.length, median_us: median(list) }]));
  writeFileSync(values.json, JSON.stringify({ variant: values.variant, k, passes: Number(values.passes), hand_overs: handOvers, js_per_step_us: jsPerStep, inside_runs_per_step_us: insidePerStep }, null, 2));
}

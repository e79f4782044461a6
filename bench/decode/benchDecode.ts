/**
 * npm run bench:decode [-- --real-size] [--json FILE] [--provider cpu|webgpu|cuda|dml|coreml|auto]
 *                      [--inputs N] [--tokens N] [--threads N] [--repeats N] [--packs DIR]
 *                      [--cache-form views|shared-buffer] [--moe-form fused|gather] [--skip-moe] [--draft-vocab N]
 *
 * Greedy vs FastMTP K = 1, 2, 3 on the reference packs (high / mid / zero draft agreement) or, with --real-size, on
 * the shape-faithful pack at DeepSeek-OCR's decoder dimensions (random weights, generated once into --packs), plus a
 * MoE scaling check (decoder step time vs routed experts and top-k). Prints a table; --json writes {"runs": [...]}.
 * --repeats N: measured passes per K (median reported; K order rotates between passes). The load average of the
 * machine before and after is printed and written (settings.load_average), as the figures depend on it.
 * --cache-form: the packs' KV-cache form (packContract.ts): 'views' (default; the CPU form) or 'shared-buffer' (the
 * GPU form: caches stay on the device with WebGPU). Same weights either way.
 * --moe-form (with --real-size): how the shape-faithful pack writes its routed experts (graphParts.ts MoeForm): 'fused'
 * (default; one com.microsoft MoE node per layer) or 'gather'. Same weights either way; the MoE check A/Bs both.
 * --draft-vocab N: the packs' FastMTP draft head scores only ids < N plus the added tokens and EOS (a compressed draft
 * vocabulary, draftVocabulary.ts; pack name suffix -dvN). Random weights make acceptance meaningless once the
 * vocabulary is cut, so compare step times and the `draft run` line with a run without the flag.
 * --probe: only report which GPU execution providers can run the reference decoder (JSON on stdout).
 * --bandwidth-gbs B (with --real-size): steps/s per K and context against the memory-bandwidth bound B ÷ bytes read
 * per step (bandwidth.ts), printed and written as `bandwidth` rows.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createDecodeModels } from '../../native-models/vlm/decoding/decodeModels.js';
import { loadPack } from '../../native-models/vlm/pack/loadPack.js';
import { MANIFEST_FILE } from '../../native-models/vlm/pack/manifest.js';
import { type CacheForm, cacheForms } from '../../native-models/vlm/pack/packContract.js';
import type { MoeForm } from '../../testing/referencePack/graphParts.js';
import { type PackDims, realSizeDims } from '../../testing/referencePack/referenceDims.js';
import { referencePackDir } from '../../testing/referencePack/referencePackCache.js';
import { writeReferencePack } from '../../testing/referencePack/writeReferencePack.js';
import type { ProviderPreference } from '../../native-models/vlm/runtime/onnxRuntime.js';
import { stepBytes } from './bandwidth.js';
import { type BenchRun, benchmarkPack, CONTEXTS, draftRunTime, prefillTime, stepTimeAtContext } from './decodeBenchmark.js';
import { probeProviders } from './providerProbe.js';

const { values } = parseArgs({
  options: {
    'real-size': { type: 'boolean', default: false },
    json: { type: 'string' },
    provider: { type: 'string', default: 'cpu' },
    inputs: { type: 'string' },
    tokens: { type: 'string' },
    threads: { type: 'string' },
    repeats: { type: 'string' },
    'cache-form': { type: 'string', default: 'views' },
    'moe-form': { type: 'string', default: 'fused' },
    /** Repetitions of each step-time-at-context measurement (median); default 25, real size 3. */
    'context-reps': { type: 'string' },
    packs: { type: 'string', default: join(tmpdir(), 'recto-vlm-packs') },
    'skip-moe': { type: 'boolean', default: false },
    /** Device memory bandwidth in GB/s: adds steps/s ÷ the bandwidth bound per K and context (real-size pack). */
    'bandwidth-gbs': { type: 'string' },
    probe: { type: 'boolean', default: false },
    'draft-vocab': { type: 'string' },
  },
});

if (values.probe) {
  // Which GPU providers really run the decoder here (used by gpu-check.sh); JSON on stdout.
  console.log(JSON.stringify(await probeProviders(), null, 2));
  process.exit(0);
}
const realSize = values['real-size'];
const cacheForm = values['cache-form'] as CacheForm;
if (!cacheForms.includes(cacheForm)) throw new Error(`--cache-form must be one of ${cacheForms.join(', ')}, got ${cacheForm}`);
const formSuffix = cacheForm === 'views' ? '' : `-${cacheForm}`;
const moeForm = values['moe-form'] as MoeForm;
if (moeForm !== 'fused' && moeForm !== 'gather') throw new Error(`--moe-form must be fused or gather, got ${moeForm}`);
const draftVocab = values['draft-vocab'] === undefined ? undefined : Number(values['draft-vocab']);
if (draftVocab !== undefined && !(Number.isInteger(draftVocab) && draftVocab > 0)) throw new Error(`--draft-vocab must be a positive integer, got ${values['draft-vocab']}`);
const vocabSuffix = draftVocab === undefined ? '' : `-dv${draftVocab}`;
const provider = values.provider as ProviderPreference;
const threads = values.threads ? Number(values.threads) : undefined;
const settings = {
  inputs: Number(values.inputs ?? (realSize ? 1 : 8)),
  tokens: Number(values.tokens ?? (realSize ? 24 : 96)),
  ks: [1, 2, 3],
  contextReps: Number(values['context-reps'] ?? (realSize ? 3 : 25)),
  repeats: Number(values.repeats ?? (realSize ? 1 : 5)),
};
const log = (line: string) => process.stderr.write(`${line}\n`);

async function ensurePack(name: string, dims: PackDims, draftVocabulary?: number): Promise<string> {
  const dir = join(values.packs!, name);
  if (!existsSync(join(dir, MANIFEST_FILE))) {
    log(`generating ${name} into ${dir} …`);
    mkdirSync(dir, { recursive: true });
    await writeReferencePack({ dir, variant: 'high', seed: 1, dims, cacheForm, draftVocabulary });
  }
  return dir;
}

const loadBefore = loadavg();
const runs: BenchRun[] = [];
interface MoeRow {
  routed_experts: number;
  top_k: number;
  moe_form: MoeForm;
  step_ms_ctx100: number;
  k3_step_ms_ctx100: number;
  prefill_256_ms: number;
}
const moeRows: MoeRow[] = [];
/** One draft-block run (one token) at 100 positions per pack: the cost a compressed draft vocabulary cuts. */
const draftRows: { variant: string; draft_vocabulary: number; draft_run_ms_ctx100: number; draft_run_ms_ctx100_median: number }[] = [];
const targets: [string, () => Promise<string>][] = realSize
  ? [['real-size', () => ensurePack(`real-size-v8${moeForm === 'fused' ? '' : '-gather'}${formSuffix}${vocabSuffix}`, { ...realSizeDims, moeForm }, draftVocab)]]
  : (['high', 'mid', 'zero'] as const).map((v) => [v, () => referencePackDir(v, 1, cacheForm, draftVocab)]);

for (const [variant, dir] of targets) {
  log(`${variant}: loading …`);
  const pack = await loadPack(await dir(), { provider, intraOpThreads: threads });
  for (const warning of pack.warnings) log(`  ${warning}`);
  runs.push(...(await benchmarkPack(variant, pack, settings, log)));
  const draftRun = await draftRunTime(createDecodeModels(pack), 100, settings.contextReps);
  draftRows.push({ variant, draft_vocabulary: pack.manifest.draftVocabulary ?? pack.manifest.dims.vocab, draft_run_ms_ctx100: draftRun.ms, draft_run_ms_ctx100_median: draftRun.medianMs });
  await Promise.all(Object.values(pack.sessions).map((s) => s.release()));
}

if (realSize && !values['skip-moe']) {
  // Same hidden size, 3 layers (1 dense + 2 MoE), small vocabulary: only the MoE varies.
  // Both ways of writing the routed experts (graphParts.ts MoeForm), same weights, back to back: a decode step, a
  // K = 3 step (three draft runs and a verify pass of four rows) and a prefill of 256 rows.
  for (const [experts, topK] of [[16, 6], [64, 6], [64, 2]] as const) {
    for (const moeForm of ['fused', 'gather'] as const) {
      const dims: PackDims = { ...realSizeDims, decoder: { ...realSizeDims.decoder, layers: 3, vocab: 0, routedExperts: experts, topK }, shareExpertWeights: false, moeForm };
      const pack = await loadPack(await ensurePack(`moe-e${experts}-k${topK}-${moeForm}-v8${formSuffix}`, dims), { provider, intraOpThreads: threads });
      const models = createDecodeModels(pack);
      const step = await stepTimeAtContext(models, 100, 0, 10);
      const k3 = await stepTimeAtContext(models, 100, 3, 10);
      const prefill = await prefillTime(models, 256, 3);
      moeRows.push({ routed_experts: experts, top_k: topK, moe_form: moeForm, step_ms_ctx100: step, k3_step_ms_ctx100: k3, prefill_256_ms: prefill });
      log(`  MoE E=${experts} top-${topK} ${moeForm}: ${step.toFixed(2)} ms/step, K=3 step ${k3.toFixed(2)} ms, prefill of 256 ${prefill.toFixed(1)} ms`);
      await Promise.all(Object.values(pack.sessions).map((s) => s.release()));
    }
  }
}

const loadAfter = loadavg();
const load = (l: number[]) => l.map((v) => v.toFixed(2)).join(' / ');
console.log(`load average (1 / 5 / 15 min) before: ${load(loadBefore)}, after: ${load(loadAfter)}; ${settings.repeats} measured passes per K (tok/s, speedup, JS share: medians); step@ctx: fastest of ${settings.contextReps} repetitions; cache form ${cacheForm}${realSize ? `; experts ${moeForm}` : ''}; draft vocabulary ${draftVocab === undefined ? 'full' : `ids < ${draftVocab} + added tokens`}; intra-op threads ${threads ?? 'default'}`);
const header = ['variant', 'K', 'identical', 'τ', 'accept/pos', 'tok/s', 'speedup', 'ideal τ/c', 'JS share', '(min)', 'step@100 ms', '@500', '@1000', '@2000', '2000/100', '(median)', 'B→host/step', 'B→dev/step', 'provider'];
const rows = runs.map((r) => [
  r.variant,
  String(r.k),
  r.identical_to_greedy ? 'yes' : 'NO',
  r.tau.toFixed(2),
  r.accept_per_pos.map((a) => a.toFixed(2)).join('/') || '-',
  r.tokens_per_s.toFixed(1),
  r.speedup.toFixed(2),
  r.ideal_speedup.toFixed(2),
  `${(r.overhead_fraction * 100).toFixed(1)}%`,
  `${(r.overhead_fraction_min * 100).toFixed(1)}%`,
  r.step_ms_ctx100.toFixed(2),
  r.step_ms_ctx500.toFixed(2),
  r.step_ms_ctx1000.toFixed(2),
  r.step_ms_ctx2000.toFixed(2),
  `${r.ctx_ratio_2000_100.toFixed(2)}×`,
  `${r.ctx_ratio_2000_100_median.toFixed(2)}×`,
  bytes(r.bytes_to_host_per_step),
  bytes(r.bytes_to_device_per_step),
  r.provider,
]);
function bytes(n: number): string {
  return n >= 1 << 20 ? `${(n / (1 << 20)).toFixed(1)} MB` : n >= 1024 ? `${(n / 1024).toFixed(1)} KB` : `${Math.round(n)} B`;
}
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
console.log(line(header));
console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
for (const r of rows) console.log(line(r));
for (const d of draftRows) {
  console.log(`${d.variant}: one draft run (1 token, ctx 100, head over ${d.draft_vocabulary} ids): ${d.draft_run_ms_ctx100.toFixed(2)} ms fastest, ${d.draft_run_ms_ctx100_median.toFixed(2)} ms median`);
}
if (moeRows.length > 0) {
  console.log('\nMoE decoder (hidden 1280, 1 dense + 2 MoE layers, ctx 100), fused MoE node vs gathered experts (same weights):');
  console.log('| experts | top-k | form | decode step ms | K=3 step ms | prefill 256 ms | gather ÷ fused (step / K=3 / prefill) |');
  console.log('|---|---|---|---|---|---|---|');
  for (const m of moeRows) {
    const fused = moeRows.find((f) => f.moe_form === 'fused' && f.routed_experts === m.routed_experts && f.top_k === m.top_k)!;
    const ratio = m.moe_form === 'gather' ? `${(m.step_ms_ctx100 / fused.step_ms_ctx100).toFixed(2)} / ${(m.k3_step_ms_ctx100 / fused.k3_step_ms_ctx100).toFixed(2)} / ${(m.prefill_256_ms / fused.prefill_256_ms).toFixed(2)}` : '';
    console.log(`| ${m.routed_experts} | ${m.top_k} | ${m.moe_form} | ${m.step_ms_ctx100.toFixed(2)} | ${m.k3_step_ms_ctx100.toFixed(2)} | ${m.prefill_256_ms.toFixed(1)} | ${ratio} |`);
  }
}
// Steps/s per K and context against the memory-bandwidth bound (bytes of active weights + KV cache read per step).
const bandwidthRows: { k: number; context: number; steps_per_s: number; bound_steps_per_s: number; fraction_of_bound: number }[] = [];
if (realSize) {
  const gbs = values['bandwidth-gbs'] ? Number(values['bandwidth-gbs']) : null;
  console.log(`\nSteps/s per K and context${gbs ? ` (bound: ${gbs} GB/s ÷ bytes read per step)` : ''}:`);
  for (const r of runs) {
    const cells: string[] = [];
    for (const context of CONTEXTS) {
      const ms = r[`step_ms_ctx${context}` as const];
      const stepsPerS = 1000 / ms;
      const bound = gbs ? (gbs * 1e9) / stepBytes(realSizeDims, r.k, context, draftRows[0]?.draft_vocabulary) : Number.NaN;
      bandwidthRows.push({ k: r.k, context, steps_per_s: stepsPerS, bound_steps_per_s: bound, fraction_of_bound: stepsPerS / bound });
      cells.push(`@${context}: ${stepsPerS.toFixed(2)}/s${gbs ? ` (${((100 * stepsPerS) / bound).toFixed(1)}% of ${bound.toFixed(0)}/s)` : ''}`);
    }
    console.log(`  K=${r.k}  ${cells.join('  ')}`);
  }
}
if (values.json) {
  // Rows carry exactly the issue's schema; tokens/s stays in the printed table.
  const jsonRuns = runs.map(({ tokens_per_s: _tps, ...row }) => row);
  const extra = { draft_runs: draftRows, ...(moeRows.length > 0 ? { moe_scaling: moeRows } : {}), ...(bandwidthRows.length > 0 ? { bandwidth: bandwidthRows } : {}) };
  writeFileSync(values.json, JSON.stringify({ runs: jsonRuns, ...extra, settings: { ...settings, realSize, provider, cacheForm, moeForm, draftVocab: draftVocab ?? null, load_average: { before: loadBefore, after: loadAfter } } }, null, 2));
  log(`wrote ${values.json}`);
}

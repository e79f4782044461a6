/**
 * Measurements behind `npm run bench:decode`: greedy vs FastMTP (K = 1, 2, 3) on one pack — tokens/s, τ,
 * per-position acceptance, measured and ideal speedup, JS-side share of a step, bytes moved between JS and the runtime
 * per step, and step time at several context lengths.
 */
import { createDecodeModels, decodeOptionsFor } from '../../native-models/vlm/decoding/decodeModels.js';
import { bytesMoved, type DecodeModels, type DecodeResult, runDecoder } from '../../native-models/vlm/decoding/decodeTypes.js';
import { fastMtpDecode } from '../../native-models/vlm/decoding/fastMtpDecode.js';
import { greedyDecode } from '../../native-models/vlm/decoding/greedyDecode.js';
import type { LoadedPack } from '../../native-models/vlm/pack/loadPack.js';
import { tensorNames } from '../../native-models/vlm/pack/packContract.js';
import { Rng } from '../../testing/referencePack/rng.js';
import { floatTensor } from '../../native-models/vlm/runtime/onnxRuntime.js';

/** One row of the JSON the issue specifies (greedy rows have k = 0). */
export interface BenchRun {
  variant: string;
  k: number;
  identical_to_greedy: boolean;
  tau: number;
  accept_per_pos: number[];
  tokens_per_s: number;
  speedup: number;
  ideal_speedup: number;
  overhead_fraction: number;
  step_ms_ctx100: number;
  step_ms_ctx500: number;
  step_ms_ctx1000: number;
  step_ms_ctx2000: number;
  /** step@2000 ÷ step@100: 1 when a step does not depend on how much is cached. */
  ctx_ratio_2000_100: number;
  /** Mean bytes per decoding step returned by the runtime to JS (candidates, hidden rows, …) and handed to it. */
  bytes_to_host_per_step: number;
  bytes_to_device_per_step: number;
  /** The same for one synthetic step at each context length (independent of context when caches stay in place). */
  bytes_to_host_per_step_by_ctx: Record<string, number>;
  provider: string;
}

/** Context lengths (cached positions) at which one step is timed. */
export const CONTEXTS = [100, 500, 1000, 2000] as const;

export interface BenchSettings {
  inputs: number;
  tokens: number;
  ks: number[];
  contextReps: number;
}

interface Totals {
  tokens: number;
  steps: number;
  decodeMs: number;
  decodeOrtMs: number;
  decoderOrtMs: number;
  draftOrtMs: number;
  draftCalls: number;
  bytesToHost: number;
  bytesToDevice: number;
  drafted: number[];
  accepted: number[];
  sequences: string[];
}

export async function benchmarkPack(variant: string, pack: LoadedPack, settings: BenchSettings, log: (line: string) => void): Promise<BenchRun[]> {
  const models = createDecodeModels(pack);
  const prompts = await makePrompts(models, settings.inputs);
  const options = decodeOptionsFor(pack, { maxNewTokens: settings.tokens, eosId: -1 }); // fixed length: no EOS stop

  // Warm-up: first runs allocate and pick kernels.
  await greedyDecode(models, prompts[0]!.embeds, prompts[0]!.length, { ...options, maxNewTokens: 4 });
  await fastMtpDecode(models, prompts[0]!.embeds, prompts[0]!.length, 2, { ...options, maxNewTokens: 4 });

  const greedy = await decodeAll(prompts, (p) => greedyDecode(models, p.embeds, p.length, options), 0);
  const greedyCall = greedy.decoderOrtMs / greedy.steps;
  const greedyTps = (greedy.tokens / greedy.decodeMs) * 1000;
  log(`  ${variant} greedy: ${greedyTps.toFixed(1)} tok/s`);
  const runs: BenchRun[] = [
    {
      variant,
      k: 0,
      identical_to_greedy: true,
      tau: 1,
      accept_per_pos: [],
      tokens_per_s: greedyTps,
      speedup: 1,
      ideal_speedup: 1,
      overhead_fraction: 1 - greedy.decodeOrtMs / greedy.decodeMs,
      ...(await contextFields(models, 0, settings.contextReps)),
      bytes_to_host_per_step: greedy.bytesToHost / greedy.steps,
      bytes_to_device_per_step: greedy.bytesToDevice / greedy.steps,
      provider: pack.provider,
    },
  ];
  for (const k of settings.ks) {
    const fast = await decodeAll(prompts, (p) => fastMtpDecode(models, p.embeds, p.length, k, options), k);
    const tau = 1 + fast.accepted.reduce((a, b) => a + b, 0) / fast.steps;
    // c: cost of one FastMTP step (K draft calls + one verify pass) in greedy steps, from onnxruntime call times.
    const c = ((fast.draftOrtMs / fast.draftCalls) * k + fast.decoderOrtMs / fast.steps) / greedyCall;
    const tps = (fast.tokens / fast.decodeMs) * 1000;
    runs.push({
      variant,
      k,
      identical_to_greedy: fast.sequences.every((s, i) => s === greedy.sequences[i]),
      tau,
      accept_per_pos: fast.drafted.map((d, i) => (d === 0 ? 0 : fast.accepted[i]! / d)),
      tokens_per_s: tps,
      speedup: tps / greedyTps,
      ideal_speedup: tau / c,
      overhead_fraction: 1 - fast.decodeOrtMs / fast.decodeMs,
      ...(await contextFields(models, k, settings.contextReps)),
      bytes_to_host_per_step: fast.bytesToHost / fast.steps,
      bytes_to_device_per_step: fast.bytesToDevice / fast.steps,
      provider: pack.provider,
    });
    log(`  ${variant} K=${k}: τ ${tau.toFixed(2)}, ${tps.toFixed(1)} tok/s`);
  }
  return runs;
}

async function decodeAll(prompts: Prompt[], decode: (p: Prompt) => Promise<DecodeResult>, k: number): Promise<Totals> {
  const t: Totals = { tokens: 0, steps: 0, decodeMs: 0, decodeOrtMs: 0, decoderOrtMs: 0, draftOrtMs: 0, draftCalls: 0, bytesToHost: 0, bytesToDevice: 0, drafted: new Array(k).fill(0), accepted: new Array(k).fill(0), sequences: [] };
  for (const prompt of prompts) {
    const r = await decode(prompt);
    const s = r.stats;
    t.tokens += s.tokens;
    t.steps += s.steps;
    t.decodeMs += s.decodeMs;
    t.decodeOrtMs += s.decodeOrtMs;
    t.decoderOrtMs += s.decoderOrtMs;
    t.draftOrtMs += s.draftOrtMs;
    t.draftCalls += s.draftCalls;
    t.bytesToHost += s.bytesToHost;
    t.bytesToDevice += s.bytesToDevice;
    s.draftedPerPosition.forEach((v, i) => (t.drafted[i]! += v));
    s.acceptedPerPosition.forEach((v, i) => (t.accepted[i]! += v));
    t.sequences.push(r.tokens.join(','));
  }
  return t;
}

interface Prompt {
  embeds: Float32Array;
  length: number;
}

async function makePrompts(models: DecodeModels, count: number): Promise<Prompt[]> {
  const rng = new Rng(99);
  const prompts: Prompt[] = [];
  for (let i = 0; i < count; i++) {
    const ids = [0, ...Array.from({ length: 8 + rng.int(12) }, () => 10 + rng.int(Math.min(96, models.vocab - 10)))];
    prompts.push({ embeds: await models.embedder.embed(ids), length: ids.length });
  }
  return prompts;
}

type ContextFields = Pick<BenchRun, 'step_ms_ctx100' | 'step_ms_ctx500' | 'step_ms_ctx1000' | 'step_ms_ctx2000' | 'ctx_ratio_2000_100' | 'bytes_to_host_per_step_by_ctx'>;

async function contextFields(models: DecodeModels, k: number, reps: number): Promise<ContextFields> {
  const steps = await stepsAtContexts(models, CONTEXTS, k, reps);
  const ms = (context: number) => steps.get(context)!.ms;
  return {
    step_ms_ctx100: ms(100),
    step_ms_ctx500: ms(500),
    step_ms_ctx1000: ms(1000),
    step_ms_ctx2000: ms(2000),
    ctx_ratio_2000_100: ms(2000) / ms(100),
    bytes_to_host_per_step_by_ctx: Object.fromEntries(CONTEXTS.map((c) => [String(c), steps.get(c)!.bytesToHost])),
  };
}

/**
 * One decoding step with `context` positions already cached, for each of `contexts`: median wall time and the bytes
 * it returned to JS. k = 0: one greedy decoder pass; k ≥ 1: K draft calls + one verify pass of K + 1 tokens. The
 * caches are filled once with synthetic values for the longest context; each measurement seeks to its length (a
 * length change, as after rejected drafts). Repetitions go round the contexts, so a busy machine slows all alike.
 */
export async function stepsAtContexts(models: DecodeModels, contexts: readonly number[], k: number, reps: number): Promise<Map<number, { ms: number; bytesToHost: number }>> {
  const rng = new Rng(k + 7);
  const H = models.hidden;
  const draft = models.draft!;
  const longest = Math.max(...contexts);
  models.decoder.fill(longest, k + 1, (size) => rng.weights(size, 1));
  draft.fill(longest, k, (size) => rng.weights(size, 1));
  const row = rng.weights(H, 1);
  const verifyRows = rng.weights((k + 1) * H, 1);
  const times = new Map(contexts.map((c) => [c, [] as number[]]));
  const bytes = new Map<number, number>();
  for (let rep = 0; rep <= reps; rep++) {
    for (const context of contexts) {
      models.decoder.seek(context);
      draft.seek(context);
      const before = bytesMoved(models).toHost;
      const start = performance.now();
      if (k === 0) {
        await runDecoder(models, row, 1);
      } else {
        let hidden = row;
        for (let i = 0; i < k; i++) {
          const out = await draft.forward({ [tensorNames.draft.inputsEmbeds]: floatTensor(row, [1, 1, H]), [tensorNames.draft.hiddenStates]: floatTensor(hidden, [1, 1, H]) }, 1);
          hidden = (out[tensorNames.draft.hiddenStatesOut]!.data as Float32Array).slice();
        }
        await runDecoder(models, verifyRows, k + 1);
      }
      if (rep > 0) times.get(context)!.push(performance.now() - start); // rep 0 warms up
      bytes.set(context, bytesMoved(models).toHost - before);
    }
  }
  // Steps at short contexts overwrote a few synthetic rows with others: speed does not depend on values. Leave the
  // models as an empty page.
  models.decoder.reset(0);
  draft.reset(0);
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  return new Map(contexts.map((c) => [c, { ms: median(times.get(c)!), bytesToHost: bytes.get(c)! }]));
}

/** Median wall time of one step at `context` (see stepsAtContexts). */
export async function stepTimeAtContext(models: DecodeModels, context: number, k: number, reps: number): Promise<number> {
  return (await stepsAtContexts(models, [context], k, reps)).get(context)!.ms;
}

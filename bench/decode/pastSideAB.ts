/**
 * npx tsx bench/decode/pastSideAB.ts [--layers N] [--hidden H --heads NH] [--threads N] [--reps N]
 *
 * A/B of the ways attention can read the past side of a 'views' cache ([1, P, nh, dh] fed in place;
 * testing/referencePack/graphParts.ts `PastSide`), on a stack of attention layers at the toy pack's width by default,
 * for a decode step (T = 1) and a K = 3 verify pass (T = 4) at 100 and 2,000 cached positions. Variants are
 * interleaved within each repetition so load hits them alike; the fastest repetition is reported, with the
 * 2,000 ÷ 100 ratio, and every variant's output is checked against block-diagonal's (also at P = 0).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createSession, floatTensor, type Tensor, type TimedSession } from '../../native-models/vlm/runtime/onnxRuntime.js';
import { DataType } from '../../testing/referencePack/onnxSchema.js';
import { GraphBuilder } from '../../testing/referencePack/graphBuilder.js';
import { attention, cacheGeometry, type PastSide } from '../../testing/referencePack/graphParts.js';
import { Rng } from '../../testing/referencePack/rng.js';

const { values } = parseArgs({
  options: {
    layers: { type: 'string', default: '2' },
    hidden: { type: 'string', default: '32' },
    heads: { type: 'string', default: '4' },
    threads: { type: 'string', default: '1' },
    reps: { type: 'string', default: '200' },
    variants: { type: 'string', default: 'block-diagonal,strided' },
  },
});
const LAYERS = Number(values.layers);
const H = Number(values.hidden);
const NH = Number(values.heads);
const DH = H / NH;
const CONTEXTS = [100, 2000];
const TOKENS = [1, 4];
const VARIANTS = values.variants.split(',') as PastSide[];

function build(pastSide: PastSide): Uint8Array {
  const g = new GraphBuilder(pastSide);
  const rng = new Rng(5);
  let x = g.input('x', DataType.FLOAT, [1, 'tokens', H]);
  for (let l = 0; l < LAYERS; l++) for (const kv of ['key', 'value']) g.input(`past.${l}.${kv}`, DataType.FLOAT, [1, 'past', NH, DH]);
  const geometry = cacheGeometry(g, x, 'past.0.key');
  for (let l = 0; l < LAYERS; l++) {
    const names = { pastKey: `past.${l}.key`, pastValue: `past.${l}.value`, newKey: `out.${l}.key`, newValue: `out.${l}.value` };
    x = g.op1('Add', [x, attention(g, x, `l${l}`, rng, { hidden: H, heads: NH }, geometry, names, 1, pastSide)]);
  }
  g.output(x, 'y', DataType.FLOAT, [1, 'tokens', H]);
  for (let l = 0; l < LAYERS; l++) for (const kv of ['key', 'value']) g.output(`out.${l}.${kv}`, `out.${l}.${kv}`, DataType.FLOAT, [1, 'tokens', NH, DH]);
  return g.serialize().model;
}

const capacity = Math.max(...CONTEXTS) + Math.max(...TOKENS);
const row = NH * DH;
const buffers = Array.from({ length: 2 * LAYERS }, (_, i) => new Rng(9 + i).weights(capacity * row, 1));
const input = new Rng(3).weights(Math.max(...TOKENS) * H, 1);

async function step(session: TimedSession, context: number, tokens: number): Promise<Float32Array> {
  const feeds: Record<string, Tensor> = { x: floatTensor(input.subarray(0, tokens * H), [1, tokens, H]) };
  const fetches: Record<string, Tensor | null> = { y: null };
  for (let l = 0; l < LAYERS; l++) {
    ['key', 'value'].forEach((kv, j) => {
      const buffer = buffers[2 * l + j]!;
      feeds[`past.${l}.${kv}`] = floatTensor(buffer.subarray(0, context * row), [1, context, NH, DH]);
      // New rows go to scratch: the past stays the same for every variant and repetition.
      fetches[`out.${l}.${kv}`] = floatTensor(new Float32Array(tokens * row), [1, tokens, NH, DH]);
    });
  }
  const out = await session.run(feeds, fetches);
  return out.y!.data as Float32Array;
}

const dir = mkdtempSync(join(tmpdir(), 'recto-past-side-'));
const sessions = new Map<PastSide, TimedSession>();
for (const v of VARIANTS) {
  const path = join(dir, `${v}.onnx`);
  writeFileSync(path, build(v));
  sessions.set(v, await createSession(path, path, v, { provider: 'cpu', intraOpThreads: Number(values.threads) }));
}
const cells = CONTEXTS.flatMap((context) => TOKENS.map((tokens) => ({ context, tokens })));
const best = new Map<string, number>();
for (const { context, tokens } of [...cells, { context: 0, tokens: 4 }]) {
  const reference = await step(sessions.get('block-diagonal') ?? sessions.get(VARIANTS[0]!)!, context, tokens);
  for (const v of VARIANTS) {
    const y = await step(sessions.get(v)!, context, tokens);
    const diff = Math.max(...Array.from(y, (value, i) => Math.abs(value - reference[i]!)));
    if (!(diff < 1e-4)) throw new Error(`${v} differs from the reference at P=${context}, T=${tokens}: ${diff}`);
  }
}
for (let rep = 0; rep < Number(values.reps); rep++) {
  for (const { context, tokens } of cells) {
    for (let i = 0; i < VARIANTS.length; i++) {
      const v = VARIANTS[(i + rep) % VARIANTS.length]!;
      const start = performance.now();
      await step(sessions.get(v)!, context, tokens);
      const ms = performance.now() - start;
      const key = `${v}|${context}|${tokens}`;
      best.set(key, Math.min(best.get(key) ?? Number.POSITIVE_INFINITY, ms));
    }
  }
}
console.log(`${LAYERS} attention layers, hidden ${H}, ${NH} heads, CPU ${values.threads} thread, fastest of ${values.reps}`);
console.log('| past side | T | ms @100 | ms @2000 | 2000 ÷ 100 |');
console.log('|---|---|---|---|---|');
for (const v of VARIANTS) {
  for (const tokens of TOKENS) {
    const [a, b] = CONTEXTS.map((c) => best.get(`${v}|${c}|${tokens}`)!);
    console.log(`| ${v} | ${tokens} | ${a!.toFixed(3)} | ${b!.toFixed(3)} | ${(b! / a!).toFixed(2)} |`);
  }
}
for (const s of sessions.values()) await s.release();

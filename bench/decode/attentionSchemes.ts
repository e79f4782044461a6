/**
 * npx tsx bench/decode/attentionSchemes.ts [--layers N] [--hidden H --heads NH] [--threads N] [--json FILE]
 *
 * Why the packs' caches have the form they have (docs/decoding.md): the same stack of attention layers at
 * jina-ocr-v1's width, one decode step (T = 1) at 100 and 2,000 cached positions, in three cache schemes on
 * onnxruntime-node's CPU provider:
 * - concat:     pack format 1 — past [1, nh, P, dh] in, Concat, present [1, nh, P + 1, dh] back to JS every step;
 * - gqa-shared: com.microsoft GroupQueryAttention with past_present_share_buffer — one [1, nh, capacity, dh] buffer
 *               passed as past and as the pre-allocated present, written in place by the kernel;
 * - in-place:   pack format 2 — position-major buffer, past fed as a view of the first P positions, new rows written
 *               into a pre-allocated view at offset P (testing/referencePack/graphParts.ts `attention`).
 * Prints median ms per step and the bytes returned to JS per step.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createSession, floatTensor, int32Tensor, type Tensor, type TimedSession } from '../../native-models/vlm/runtime/onnxRuntime.js';
import { DataType } from '../../testing/referencePack/onnxSchema.js';
import { GraphBuilder } from '../../testing/referencePack/graphBuilder.js';
import { attention, cacheGeometry, linear } from '../../testing/referencePack/graphParts.js';
import { Rng } from '../../testing/referencePack/rng.js';

const { values } = parseArgs({
  options: {
    layers: { type: 'string', default: '4' },
    hidden: { type: 'string', default: '1280' },
    heads: { type: 'string', default: '10' },
    threads: { type: 'string', default: '1' },
    reps: { type: 'string', default: '9' },
    json: { type: 'string' },
  },
});
const LAYERS = Number(values.layers);
const H = Number(values.hidden);
const NH = Number(values.heads);
const DH = H / NH;
const CONTEXTS = [100, 2000];
const CAPACITY = Math.max(...CONTEXTS) + 8;
type Scheme = 'concat' | 'gqa-shared' | 'in-place';

function build(scheme: Scheme): Uint8Array {
  const g = new GraphBuilder(scheme);
  const rng = new Rng(5);
  let x = g.input('x', DataType.FLOAT, [1, 'tokens', H]);
  if (scheme === 'gqa-shared') {
    g.input('seqlens_k', DataType.INT32, [1]);
    g.input('total_sequence_length', DataType.INT32, []);
  }
  const pastShape = scheme === 'in-place' ? [1, 'past', NH, DH] : [1, NH, scheme === 'concat' ? 'past' : 'capacity', DH];
  for (let l = 0; l < LAYERS; l++) {
    for (const kv of ['key', 'value']) g.input(`past.${l}.${kv}`, DataType.FLOAT, pastShape);
  }
  const geometry = scheme === 'in-place' ? cacheGeometry(g, x, 'past.0.key') : null;
  for (let l = 0; l < LAYERS; l++) {
    const names = { pastKey: `past.${l}.key`, pastValue: `past.${l}.value`, newKey: `out.${l}.key`, newValue: `out.${l}.value` };
    let y: string;
    if (scheme === 'in-place') {
      y = attention(g, x, `l${l}`, rng, { hidden: H, heads: NH }, geometry!, names, 1);
    } else {
      const q = linear(g, x, `l${l}.q`, rng, H, H);
      const k = linear(g, x, `l${l}.k`, rng, H, H);
      const v = linear(g, x, `l${l}.v`, rng, H, H);
      if (scheme === 'gqa-shared') {
        y = g.msOp('GroupQueryAttention', [q, k, v, names.pastKey, names.pastValue, 'seqlens_k', 'total_sequence_length'], { num_heads: NH, kv_num_heads: NH }, 3, [`att${l}`, names.newKey, names.newValue])[0]!;
      } else {
        const heads = (t: string) => g.op1('Transpose', [g.op1('Reshape', [t, g.ints([1, -1, NH, DH])])], { perm: [0, 2, 1, 3] });
        g.op('Concat', [names.pastKey, heads(k)], { axis: 2 }, 1, [names.newKey]);
        g.op('Concat', [names.pastValue, heads(v)], { axis: 2 }, 1, [names.newValue]);
        const scores = g.op1('Mul', [g.op1('MatMul', [heads(q), g.op1('Transpose', [names.newKey], { perm: [0, 1, 3, 2] })]), g.scalar(1 / Math.sqrt(DH))]);
        const context = g.op1('MatMul', [g.op1('Softmax', [scores], { axis: -1 }), names.newValue]);
        y = g.op1('Reshape', [g.op1('Transpose', [context], { perm: [0, 2, 1, 3] }), g.ints([1, -1, H])]);
      }
    }
    x = g.op1('Add', [x, y]);
  }
  g.output(x, 'y', DataType.FLOAT, [1, 'tokens', H]);
  const outShape = scheme === 'in-place' ? [1, 'tokens', NH, DH] : [1, NH, 'total', DH];
  for (let l = 0; l < LAYERS; l++) for (const kv of ['key', 'value']) g.output(`out.${l}.${kv}`, `out.${l}.${kv}`, DataType.FLOAT, outShape);
  return g.serialize().model;
}

/** Feeds and fetches of one step at `context` for each scheme; buffers are kept by the caller between steps. */
function step(scheme: Scheme, buffers: Float32Array[], context: number): { feeds: Record<string, Tensor>; fetches: Record<string, Tensor | null> } {
  const feeds: Record<string, Tensor> = { x: floatTensor(new Float32Array(H).fill(0.01), [1, 1, H]) };
  const fetches: Record<string, Tensor | null> = { y: null };
  const row = NH * DH;
  for (let l = 0; l < LAYERS; l++) {
    ['key', 'value'].forEach((kv, j) => {
      const buffer = buffers[2 * l + j]!;
      if (scheme === 'in-place') {
        feeds[`past.${l}.${kv}`] = floatTensor(buffer.subarray(0, context * row), [1, context, NH, DH]);
        fetches[`out.${l}.${kv}`] = floatTensor(buffer.subarray(context * row, (context + 1) * row), [1, 1, NH, DH]);
      } else if (scheme === 'gqa-shared') {
        const whole = floatTensor(buffer, [1, NH, CAPACITY, DH]);
        feeds[`past.${l}.${kv}`] = whole;
        fetches[`out.${l}.${kv}`] = whole;
      } else {
        feeds[`past.${l}.${kv}`] = floatTensor(buffer.subarray(0, context * row), [1, NH, context, DH]);
        fetches[`out.${l}.${kv}`] = null;
      }
    });
  }
  if (scheme === 'gqa-shared') {
    feeds.seqlens_k = int32Tensor([context], [1]);
    feeds.total_sequence_length = int32Tensor([context + 1], []);
  }
  return { feeds, fetches };
}

const dir = mkdtempSync(join(tmpdir(), 'recto-attention-schemes-'));
const rows: { scheme: Scheme; context: number; ms: number; bytes_to_host: number }[] = [];
for (const scheme of ['concat', 'gqa-shared', 'in-place'] as const) {
  const path = join(dir, `${scheme}.onnx`);
  writeFileSync(path, build(scheme));
  const session: TimedSession = await createSession(path, path, scheme, { provider: 'cpu', intraOpThreads: Number(values.threads) });
  const buffers = Array.from({ length: 2 * LAYERS }, () => new Rng(9).weights(CAPACITY * NH * DH, 1));
  const times = new Map(CONTEXTS.map((c) => [c, [] as number[]]));
  const bytes = new Map<number, number>();
  for (let rep = 0; rep <= Number(values.reps); rep++) {
    for (const context of CONTEXTS) {
      const { feeds, fetches } = step(scheme, buffers, context);
      const before = session.bytesToHost;
      const start = performance.now();
      await session.run(feeds, fetches);
      if (rep > 0) times.get(context)!.push(performance.now() - start);
      bytes.set(context, session.bytesToHost - before);
    }
  }
  for (const context of CONTEXTS) {
    const t = times.get(context)!.sort((a, b) => a - b);
    rows.push({ scheme, context, ms: t[Math.floor(t.length / 2)]!, bytes_to_host: bytes.get(context)! });
  }
  await session.release();
}
console.log(`${LAYERS} attention layers, hidden ${H}, ${NH} heads, one token per step, capacity ${CAPACITY} (CPU, ${values.threads} thread)`);
console.log('| scheme     | ctx  | ms/step | bytes to JS/step |');
console.log('|------------|------|---------|------------------|');
for (const r of rows) console.log(`| ${r.scheme.padEnd(10)} | ${String(r.context).padEnd(4)} | ${r.ms.toFixed(2).padStart(7)} | ${String(r.bytes_to_host).padStart(16)} |`);
if (values.json) writeFileSync(values.json, JSON.stringify({ rows, settings: { layers: LAYERS, hidden: H, heads: NH, capacity: CAPACITY } }, null, 2));

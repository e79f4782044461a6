/**
 * Building blocks of the reference graphs: RMSNorm, causal attention over an in-place KV cache, SwiGLU FFN and a
 * DeepSeek-V2 MoE FFN that computes only the top-k selected experts. Shapes in comments; T = new tokens, P = past
 * length (the valid part of the cache), H = hidden, nh = heads, dh = H / nh.
 */
import { float, type GraphBuilder } from './graphBuilder.js';
import { DataType } from './onnxSchema.js';
import type { Rng } from './rng.js';

const RMS_EPS = 1e-6;

export function rmsNorm(g: GraphBuilder, x: string, name: string, hidden: number): string {
  const weight = g.floatInit(`${name}.weight`, new Float32Array(hidden).fill(1), [hidden]);
  const meanSquare = g.op1('ReduceMean', [g.op1('Mul', [x, x])], { axes: [-1], keepdims: 1 });
  const rms = g.op1('Sqrt', [g.op1('Add', [meanSquare, g.scalar(RMS_EPS)])]);
  return g.op1('Mul', [g.op1('Div', [x, rms]), weight]);
}

export function linear(g: GraphBuilder, x: string, name: string, rng: Rng, inDim: number, outDim: number, scale = 1): string {
  const w = g.floatInit(`${name}.weight`, rng.weights(inDim * outDim, scale / Math.sqrt(inDim)), [inDim, outDim]);
  return g.op1('MatMul', [x, w]);
}

/** Scalar int64 constant. */
export function int64Scalar(g: GraphBuilder, value: number): string {
  const name = `const_s_${value}`;
  try {
    return g.int64Init(name, [value], []);
  } catch {
    return name; // already declared
  }
}

export interface CacheGeometry {
  /** Positions of the new tokens: P … P + T − 1, [T] int64. */
  positions: string;
  /** Additive causal mask among the new tokens: 0 where new query i may see new key j (j ≤ i), −1e9 elsewhere. [T, T] */
  newBias: string;
  /** T and P as 1-element int64 vectors (for explicit reshapes that stay valid when P = 0). */
  count: string;
  past: string;
}

/** Derives positions and the causal mask from the shapes of the new input ([1, T, H]) and a past view ([1, P, nh, dh]). */
export function cacheGeometry(g: GraphBuilder, newInput: string, pastKey: string): CacheGeometry {
  const pastVec = g.op1('Shape', [pastKey], { start: 1, end: 2 }); // [1]
  const countVec = g.op1('Shape', [newInput], { start: 1, end: 2 });
  const squeeze0 = (x: string) => g.op1('Squeeze', [x, g.ints([0])]);
  const past = squeeze0(pastVec);
  const count = squeeze0(countVec);
  const one = int64Scalar(g, 1);
  const positions = g.op1('Range', [past, g.op1('Add', [past, count]), one]); // [T]
  const local = g.op1('Range', [int64Scalar(g, 0), count, one]); // [T]
  const allowed = g.op1('LessOrEqual', [local, g.op1('Unsqueeze', [local, g.ints([1])])]); // [T, T]: key j ≤ query i
  const newBias = g.op1('Where', [allowed, g.scalar(0), g.scalar(-1e9)]);
  return { positions, newBias, count: countVec, past: pastVec };
}

export interface AttentionNames {
  /** [1, P, nh, dh] graph inputs: views of the cache buffers. */
  pastKey: string;
  pastValue: string;
  /** [1, T, nh, dh] graph outputs: the new positions' keys and values. */
  newKey: string;
  newValue: string;
}

/**
 * Multi-head causal self-attention over a cache that stays where it is. The past ([1, P, nh, dh], position-major) is
 * read in place, as `pastSide` says (default 'strided': per-head strided GEMMs, only the needed multiply-adds; see
 * `PastSide`), so no Transpose, Slice or Concat ever copies the cache and reads stay at exactly the valid length.
 * Scores over the past and over the T new keys are joined (small: [nh, T, P + T]) for one softmax. Writes the new
 * keys and values ([1, T, nh, dh]) to the given output names.
 */
export function attention(
  g: GraphBuilder,
  h: string,
  name: string,
  rng: Rng,
  dims: { hidden: number; heads: number },
  geometry: CacheGeometry,
  cache: AttentionNames,
  outScale: number,
  pastSide: PastSide = 'strided',
): string {
  const { hidden, heads } = dims;
  const headDim = hidden / heads;
  const bsnh = g.ints([1, -1, heads, headDim]);
  const q = g.op1('Mul', [linear(g, h, `${name}.q_proj`, rng, hidden, hidden), g.scalar(1 / Math.sqrt(headDim))]); // [1, T, H], pre-scaled
  g.op('Reshape', [linear(g, h, `${name}.k_proj`, rng, hidden, hidden), bsnh], {}, 1, [cache.newKey]); // [1, T, nh, dh]
  g.op('Reshape', [linear(g, h, `${name}.v_proj`, rng, hidden, hidden), bsnh], {}, 1, [cache.newValue]);
  const toHeads = (x: string) => g.op1('Transpose', [x], { perm: [0, 2, 1, 3] }); // [1, nh, T, dh]
  const qHeads = g.op1('Reshape', [toHeads(g.op1('Reshape', [q, bsnh])), g.ints([heads, -1, headDim])]); // [nh, T, dh]
  const kNew = g.op1('Reshape', [toHeads(cache.newKey), g.ints([heads, -1, headDim])]);
  const vNew = g.op1('Reshape', [toHeads(cache.newValue), g.ints([heads, -1, headDim])]);

  const past = pastSideScores(g, name, pastSide, { hidden, heads, headDim }, geometry, cache, q, qHeads);
  // New side: ordinary per-head attention among the T new tokens, causal.
  const scoresNew = g.op1('Add', [g.op1('MatMul', [qHeads, g.op1('Transpose', [kNew], { perm: [0, 2, 1] })]), geometry.newBias]); // [nh, T, T]
  const probs = g.op1('Softmax', [g.op1('Concat', [past.scores, scoresNew], { axis: -1 })], { axis: -1 }); // [nh, T, P + T]
  const total = g.op1('Add', [geometry.past, geometry.count]);
  const probsPast = g.op1('Slice', [probs, g.ints([0]), geometry.past, g.ints([2])]); // [nh, T, P]
  const probsNew = g.op1('Slice', [probs, geometry.past, total, g.ints([2])]); // [nh, T, T]

  const contextPast = past.mix(probsPast); // [nh, T, dh]
  const context = g.op1('Add', [contextPast, g.op1('MatMul', [probsNew, vNew])]); // [nh, T, dh]
  const merged = g.op1('Reshape', [g.op1('Transpose', [context], { perm: [1, 0, 2] }), g.ints([1, -1, hidden])]);
  return linear(g, merged, `${name}.o_proj`, rng, hidden, hidden, outScale);
}

/**
 * How attention reads the past ([1, P, nh, dh], a view of the cache buffer; never copied either way):
 * - 'strided' (the packs' form): per-head MatMuls that read the view with a stride — com.microsoft FusedMatMul with
 *   transBatchB takes B [P, nh, dh] as nh matrices [P, dh] with leading dimension nh·dh (a strided GEMM, no copy), so
 *   only the needed multiply-adds are done. Its CPU kernel divides by zero (SIGFPE) on a zero-length P, so an If runs
 *   it only when P > 0 (the first run of a page has P = 0: zero scores and a zero past context instead).
 * - 'block-diagonal': one plain MatMul against a block-diagonal query matrix Q̂ [H, nh·T] (Q̂[h'·dh + d, h·T + t] =
 *   q[t, h, d] when h' = h, else 0), keeping each head's own dh columns of P·V: standard ONNX ops only, nh× the
 *   multiply-adds. (The Python export, native-models/export/graph_export.py, writes 'strided' too.)
 * Measured against each other and against Einsum, Mul + ReduceSum and Transpose + MatMul in docs/decoding.md.
 */
export type PastSide = 'strided' | 'block-diagonal';

/** Scores over the past [nh, T, P] and the past's share of the context (probs [nh, T, P] → [nh, T, dh]). */
function pastSideScores(
  g: GraphBuilder,
  name: string,
  pastSide: PastSide,
  d: { hidden: number; heads: number; headDim: number },
  geometry: CacheGeometry,
  cache: AttentionNames,
  q: string,
  qHeads: string,
): { scores: string; mix: (probsPast: string) => string } {
  const { hidden, heads, headDim } = d;
  if (pastSide === 'block-diagonal') {
    // [P, H] views of the cache (Reshape of a graph input: no copy).
    const pastShape = g.op1('Concat', [geometry.past, g.ints([hidden])], { axis: 0 });
    // allowzero: P may be 0 (the first run of a page), and a 0 in a Reshape shape would otherwise mean "keep that dim".
    const kPast = g.op1('Reshape', [cache.pastKey, pastShape], { allowzero: 1 });
    const vPast = g.op1('Reshape', [cache.pastValue, pastShape], { allowzero: 1 });
    // Q̂ [H, nh·T]: q transposed to [H, 1, T], times the head-block indicator [H, nh, 1].
    const qT = g.op1('Unsqueeze', [g.op1('Transpose', [g.op1('Reshape', [q, g.ints([-1, hidden])])], { perm: [1, 0] }), g.ints([1])]); // [H, 1, T]
    const blockOfRow = headIndicator(g, `${name}.head_rows`, heads, headDim, [hidden, heads, 1]);
    const qHat = g.op1('Reshape', [g.op1('Mul', [qT, blockOfRow]), g.op1('Concat', [g.ints([hidden]), g.op1('Mul', [geometry.count, g.ints([heads])])], { axis: 0 })]);
    const pastScores = g.op1('Transpose', [g.op1('MatMul', [kPast, qHat])], { perm: [1, 0] }); // [nh·T, P]
    const scores = g.op1('Reshape', [pastScores, g.op1('Concat', [g.ints([heads]), geometry.count, geometry.past], { axis: 0 })], { allowzero: 1 }); // [nh, T, P]
    const ownHead = headIndicator(g, `${name}.head_diag`, heads, 1, [heads, 1, heads, 1]);
    // P·V over the past: [nh, T, P] × [P, H] → [nh, T, H]; keep head h's own dh columns (diagonal blocks).
    const mix = (probsPast: string) => {
      const mixed = g.op1('Reshape', [g.op1('MatMul', [probsPast, vPast]), g.ints([heads, -1, heads, headDim])]); // [nh, T, nh, dh]
      return g.op1('ReduceSum', [g.op1('Mul', [mixed, ownHead]), g.ints([2])], { keepdims: 0 });
    };
    return { scores, mix };
  }
  // [P, nh, dh] views (a Reshape of the [1, P, nh, dh] input: no copy).
  const pnd = g.op1('Concat', [geometry.past, g.ints([heads, headDim])], { axis: 0 });
  const kPast = g.op1('Reshape', [cache.pastKey, pnd], { allowzero: 1 });
  const vPast = g.op1('Reshape', [cache.pastValue, pnd], { allowzero: 1 });
  const noPast = g.op1('Squeeze', [g.op1('Equal', [geometry.past, g.ints([0])]), g.ints([0])]); // [] bool
  // Only the taken branch runs: the zeros are built when P = 0, the FusedMatMul when P > 0.
  const zeros = (b: GraphBuilder, last: string) => [
    b.op1('Expand', [b.op1('ConstantOfShape', [g.ints([1])]), b.op1('Concat', [g.ints([heads]), geometry.count, last], { axis: 0 })]),
  ];
  const [scores] = g.ifOp(noPast, 1, (b) => zeros(b, geometry.past), (b) => b.msOp('FusedMatMul', [qHeads, kPast], { transB: 1, transBatchB: 1 }));
  const mix = (probsPast: string) =>
    g.ifOp(noPast, 1, (b) => zeros(b, g.ints([headDim])), (b) => b.msOp('FusedMatMul', [probsPast, vPast], { transBatchB: 1 }))[0]!;
  return { scores: scores!, mix };
}

/** The valid-length inputs of a 'shared-buffer' graph and the new tokens' positions derived from them. */
export interface SharedBufferGeometry {
  /** [1] int32: P + T − 1. */
  seqlensK: string;
  /** [] int32: P + T. */
  totalSequenceLength: string;
  /** Positions of the new tokens: P … P + T − 1, [T] int64. */
  positions: string;
}

/** Positions from the valid length: P = seqlens_k + 1 − T, with T from the new input ([1, T, H]). */
export function sharedBufferGeometry(g: GraphBuilder, newInput: string, seqlensK: string, totalSequenceLength: string): SharedBufferGeometry {
  const count = g.op1('Squeeze', [g.op1('Shape', [newInput], { start: 1, end: 2 }), g.ints([0])]);
  const total = g.op1('Cast', [totalSequenceLength], { to: DataType.INT64 });
  const past = g.op1('Sub', [total, count]);
  const positions = g.op1('Range', [past, total, int64Scalar(g, 1)]);
  return { seqlensK, totalSequenceLength, positions };
}

/**
 * The same attention as `attention` (same weights drawn in the same order) over a 'shared-buffer' cache: onnxruntime's
 * com.microsoft GroupQueryAttention with past [1, nh, capacity, dh] and present bound to the same buffer, so the
 * kernel writes the T new rows in place and reads the seqlens_k + 1 valid positions.
 */
export function sharedBufferAttention(
  g: GraphBuilder,
  h: string,
  name: string,
  rng: Rng,
  dims: { hidden: number; heads: number },
  geometry: SharedBufferGeometry,
  cache: { pastKey: string; pastValue: string; presentKey: string; presentValue: string },
  outScale: number,
): string {
  const { hidden, heads } = dims;
  const q = linear(g, h, `${name}.q_proj`, rng, hidden, hidden);
  const k = linear(g, h, `${name}.k_proj`, rng, hidden, hidden);
  const v = linear(g, h, `${name}.v_proj`, rng, hidden, hidden);
  const [context] = g.msOp(
    'GroupQueryAttention',
    [q, k, v, cache.pastKey, cache.pastValue, geometry.seqlensK, geometry.totalSequenceLength],
    { num_heads: heads, kv_num_heads: heads },
    3,
    [`${name}.context`, cache.presentKey, cache.presentValue],
  );
  return linear(g, context!, `${name}.o_proj`, rng, hidden, hidden, outScale);
}

/** 0/1 constant: entry (r, c) is 1 when row r (in blocks of `rowsPerHead`) belongs to head c. Shaped `shape`. */
function headIndicator(g: GraphBuilder, name: string, heads: number, rowsPerHead: number, shape: number[]): string {
  const values = new Float32Array(heads * rowsPerHead * heads);
  for (let r = 0; r < heads * rowsPerHead; r++) values[r * heads + Math.floor(r / rowsPerHead)] = 1;
  return g.floatInit(name, values, shape);
}

/** SwiGLU FFN: down(silu(gate(x)) · up(x)). */
export function swiGlu(g: GraphBuilder, x: string, name: string, rng: Rng, hidden: number, inter: number, outScale: number): string {
  const gate = linear(g, x, `${name}.gate_proj`, rng, hidden, inter);
  const up = linear(g, x, `${name}.up_proj`, rng, hidden, inter);
  const act = g.op1('Mul', [g.op1('Mul', [gate, g.op1('Sigmoid', [gate])]), up]);
  return linear(g, act, `${name}.down_proj`, rng, inter, hidden, outScale);
}

/**
 * How the routed experts are written (both compute the same function; measured in docs/decoding.md):
 * - 'fused': one com.microsoft MoE node per layer. onnxruntime routes each token to its top-k experts and reads only
 *   those experts' weights where they lie. SwiGLU is the op's 'swiglu' activation with alpha 1 and beta 0
 *   (g·σ(g)·(u + 0) = SiLU(g)·u), gate and up rows interleaved in fc1 [E, 2F, H] (swiglu_fusion 1; the CPU kernel has
 *   no separate fc3), down as fc2 [E, H, F]. The router's logits go in; the op takes the softmax over all experts and
 *   keeps the top-k weights as they are (normalize_routing_weights 0: DeepSeek-V2's norm_topk_prob is false).
 * - 'gather': standard ops only. The weights of every expert some token picked are gathered (U of them) and every
 *   token runs through all U with its router weight (0 where it did not pick the expert): a copy of the picked
 *   experts' weights per layer per run, and U·T instead of k·T expert rows (a prefill runs every token through every
 *   expert).
 */
export type MoeForm = 'fused' | 'gather';

export type ExpertWeights =
  | { form: 'fused'; fc1: string /* [E, 2F, H] */; fc2: string /* [E, H, F] */ }
  | { form: 'gather'; gate: string /* [E, H, F] */; up: string /* [E, H, F] */; down: string /* [E, F, H] */ };

/** Routed expert weights in `form`; the same random draws either way, so both forms of a pack compute the same. */
export function expertWeights(g: GraphBuilder, name: string, rng: Rng, experts: number, hidden: number, inter: number, outScale: number, form: MoeForm): ExpertWeights {
  const gate = rng.weights(experts * hidden * inter, 1 / Math.sqrt(hidden)); // [E, H, F]: x · gate
  const up = rng.weights(experts * hidden * inter, 1 / Math.sqrt(hidden));
  const down = rng.weights(experts * inter * hidden, outScale / Math.sqrt(inter)); // [E, F, H]
  if (form === 'gather') {
    return {
      form,
      gate: g.floatInit(`${name}.gate`, gate, [experts, hidden, inter]),
      up: g.floatInit(`${name}.up`, up, [experts, hidden, inter]),
      down: g.floatInit(`${name}.down`, down, [experts, inter, hidden]),
    };
  }
  // Per expert, transposed to the op's [out, in] rows: fc1 row 2f = gate column f, row 2f + 1 = up column f.
  const fc1 = new Float32Array(experts * 2 * inter * hidden);
  const fc2 = new Float32Array(experts * hidden * inter);
  for (let e = 0; e < experts; e++) {
    for (let h = 0; h < hidden; h++) {
      const from = (e * hidden + h) * inter;
      for (let f = 0; f < inter; f++) {
        fc1[(e * 2 * inter + 2 * f) * hidden + h] = gate[from + f]!;
        fc1[(e * 2 * inter + 2 * f + 1) * hidden + h] = up[from + f]!;
      }
    }
    for (let f = 0; f < inter; f++) {
      const from = (e * inter + f) * hidden;
      for (let h = 0; h < hidden; h++) fc2[(e * hidden + h) * inter + f] = down[from + h]!;
    }
  }
  return { form, fc1: g.floatInit(`${name}.fc1`, fc1, [experts, 2 * inter, hidden]), fc2: g.floatInit(`${name}.fc2`, fc2, [experts, hidden, inter]) };
}

/**
 * DeepSeek-V2 MoE FFN: softmax router, greedy top-k (weights not renormalised, scaling 1), routed experts plus shared
 * experts; the routed part in the form of `experts` (see MoeForm).
 */
export function moe(
  g: GraphBuilder,
  x: string,
  name: string,
  rng: Rng,
  dims: { hidden: number; routedExperts: number; sharedExperts: number; topK: number; expertInter: number },
  experts: ExpertWeights,
  outScale: number,
): string {
  const { hidden, routedExperts, sharedExperts, topK, expertInter } = dims;
  const logits = g.op1('Reshape', [linear(g, x, `${name}.gate`, rng, hidden, routedExperts), g.ints([-1, routedExperts])]); // [T, E]
  const routed = experts.form === 'fused' ? fusedExperts(g, x, logits, experts, hidden, topK) : gatheredExperts(g, x, logits, experts, hidden, topK);
  const shared = swiGlu(g, x, `${name}.shared_experts`, rng, hidden, expertInter * sharedExperts, outScale);
  return g.op1('Add', [g.op1('Reshape', [routed, g.ints([1, -1, hidden])]), shared]);
}

/** [T, H]: one com.microsoft MoE node (see MoeForm). */
function fusedExperts(g: GraphBuilder, x: string, logits: string, experts: Extract<ExpertWeights, { form: 'fused' }>, hidden: number, topK: number): string {
  const tokens = g.op1('Reshape', [x, g.ints([-1, hidden])]); // [T, H]
  const attributes = { k: topK, activation_type: 'swiglu', swiglu_fusion: 1, activation_alpha: float(1), activation_beta: float(0), normalize_routing_weights: 0 };
  return g.msOp('MoE', [tokens, logits, experts.fc1, '', experts.fc2], attributes)[0]!;
}

/** [T, H]: the picked experts' weights gathered, every token through each of them (see MoeForm). */
function gatheredExperts(g: GraphBuilder, x: string, logits: string, experts: Extract<ExpertWeights, { form: 'gather' }>, hidden: number, topK: number): string {
  const scores = g.op1('Softmax', [logits], { axis: -1 });
  const [topWeights, topIndices] = g.op('TopK', [scores, g.ints([topK])], { axis: -1, largest: 1, sorted: 1 }, 2) as [string, string]; // [T, k]
  // Router weight of every (token, expert) pair, 0 where the expert was not picked. [T, E]
  const routing = g.op1('ScatterElements', [g.op1('Mul', [scores, g.scalar(0)]), topIndices, topWeights], { axis: 1 });
  const picked = g.op1('Greater', [g.op1('ReduceSum', [routing, g.ints([0])], { keepdims: 0 }), g.scalar(0)]); // [E] bool
  const union = g.op1('Reshape', [g.op1('NonZero', [picked]), g.ints([-1])]); // [U]
  const gateW = g.op1('Gather', [experts.gate, union], { axis: 0 }); // [U, H, F]
  const upW = g.op1('Gather', [experts.up, union], { axis: 0 });
  const downW = g.op1('Gather', [experts.down, union], { axis: 0 }); // [U, F, H]
  const tokens = g.op1('Reshape', [x, g.ints([1, -1, hidden])]); // [1, T, H]
  const gate = g.op1('MatMul', [tokens, gateW]); // [U, T, F]
  const up = g.op1('MatMul', [tokens, upW]);
  const act = g.op1('Mul', [g.op1('Mul', [gate, g.op1('Sigmoid', [gate])]), up]);
  const perExpert = g.op1('MatMul', [act, downW]); // [U, T, H]
  const weights = g.op1('Unsqueeze', [g.op1('Transpose', [g.op1('Gather', [routing, union], { axis: 1 })], { perm: [1, 0] }), g.ints([2])]); // [U, T, 1]
  return g.op1('ReduceSum', [g.op1('Mul', [perExpert, weights]), g.ints([0])], { keepdims: 0 }); // [T, H]
}

export { float };

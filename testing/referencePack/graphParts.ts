/**
 * Building blocks of the reference graphs: RMSNorm, causal attention over a past/present KV cache, SwiGLU FFN and a
 * DeepSeek-V2 MoE FFN that computes only the top-k selected experts. Shapes in comments; T = new tokens, P = past
 * length, S = P + T, H = hidden, nh = heads, dh = H / nh.
 */
import { float, type GraphBuilder } from './graphBuilder.js';
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
  /** Positions of the new tokens: P … S − 1, [T] int64. */
  positions: string;
  /** Additive causal mask over the whole cache: 0 where query i may see key j (j ≤ P + i), −1e9 elsewhere. [T, S] */
  bias: string;
}

/** Derives positions and the causal mask from the shapes of the new input ([1, T, H]) and a past tensor ([1, nh, P, dh]). */
export function cacheGeometry(g: GraphBuilder, newInput: string, pastKey: string): CacheGeometry {
  const squeeze0 = (x: string) => g.op1('Squeeze', [x, g.ints([0])]);
  const past = squeeze0(g.op1('Shape', [pastKey], { start: 2, end: 3 }));
  const count = squeeze0(g.op1('Shape', [newInput], { start: 1, end: 2 }));
  const total = g.op1('Add', [past, count]);
  const one = int64Scalar(g, 1);
  const positions = g.op1('Range', [past, total, one]); // [T]
  const keys = g.op1('Range', [int64Scalar(g, 0), total, one]); // [S]
  const allowed = g.op1('LessOrEqual', [keys, g.op1('Unsqueeze', [positions, g.ints([1])])]); // [T, S]
  const bias = g.op1('Where', [allowed, g.scalar(0), g.scalar(-1e9)]);
  return { positions, bias };
}

export interface AttentionNames {
  pastKey: string;
  pastValue: string;
  presentKey: string;
  presentValue: string;
}

/** Multi-head causal self-attention; writes the present cache ([1, nh, S, dh]) to the given output names. */
export function attention(
  g: GraphBuilder,
  h: string,
  name: string,
  rng: Rng,
  dims: { hidden: number; heads: number },
  bias: string,
  cache: AttentionNames,
  outScale: number,
): string {
  const { hidden, heads } = dims;
  const headDim = hidden / heads;
  const split = g.ints([1, -1, heads, headDim]);
  const toHeads = (x: string) => g.op1('Transpose', [g.op1('Reshape', [x, split])], { perm: [0, 2, 1, 3] }); // [1, nh, T, dh]
  const q = toHeads(linear(g, h, `${name}.q_proj`, rng, hidden, hidden));
  const k = toHeads(linear(g, h, `${name}.k_proj`, rng, hidden, hidden));
  const v = toHeads(linear(g, h, `${name}.v_proj`, rng, hidden, hidden));
  g.op('Concat', [cache.pastKey, k], { axis: 2 }, 1, [cache.presentKey]); // [1, nh, S, dh]
  g.op('Concat', [cache.pastValue, v], { axis: 2 }, 1, [cache.presentValue]);
  const keysT = g.op1('Transpose', [cache.presentKey], { perm: [0, 1, 3, 2] }); // [1, nh, dh, S]
  const scores = g.op1('Add', [g.op1('Mul', [g.op1('MatMul', [q, keysT]), g.scalar(1 / Math.sqrt(headDim))]), bias]);
  const probs = g.op1('Softmax', [scores], { axis: -1 }); // [1, nh, T, S]
  const context = g.op1('MatMul', [probs, cache.presentValue]); // [1, nh, T, dh]
  const merged = g.op1('Reshape', [g.op1('Transpose', [context], { perm: [0, 2, 1, 3] }), g.ints([1, -1, hidden])]);
  return linear(g, merged, `${name}.o_proj`, rng, hidden, hidden, outScale);
}

/** SwiGLU FFN: down(silu(gate(x)) · up(x)). */
export function swiGlu(g: GraphBuilder, x: string, name: string, rng: Rng, hidden: number, inter: number, outScale: number): string {
  const gate = linear(g, x, `${name}.gate_proj`, rng, hidden, inter);
  const up = linear(g, x, `${name}.up_proj`, rng, hidden, inter);
  const act = g.op1('Mul', [g.op1('Mul', [gate, g.op1('Sigmoid', [gate])]), up]);
  return linear(g, act, `${name}.down_proj`, rng, inter, hidden, outScale);
}

export interface ExpertWeights {
  gate: string; // [E, H, F]
  up: string; // [E, H, F]
  down: string; // [E, F, H]
}

export function expertWeights(g: GraphBuilder, name: string, rng: Rng, experts: number, hidden: number, inter: number, outScale: number): ExpertWeights {
  return {
    gate: g.floatInit(`${name}.gate`, rng.weights(experts * hidden * inter, 1 / Math.sqrt(hidden)), [experts, hidden, inter]),
    up: g.floatInit(`${name}.up`, rng.weights(experts * hidden * inter, 1 / Math.sqrt(hidden)), [experts, hidden, inter]),
    down: g.floatInit(`${name}.down`, rng.weights(experts * inter * hidden, outScale / Math.sqrt(inter)), [experts, inter, hidden]),
  };
}

/**
 * DeepSeek-V2 MoE FFN: softmax router, greedy top-k (weights not renormalised, scaling 1), routed experts plus shared
 * experts. Only experts selected by at least one of the T tokens are touched: their weights are gathered once
 * (U ≤ min(E, T·k) experts) and every token is run through them with its router weight (0 where it did not pick the
 * expert). Bytes read per step follow k at decode (U = k) and the union of the drafts' choices in a verify pass — not
 * the expert count. A long prefill reads each expert once (U → E) at U·T rather than k·T multiply-adds.
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
  const routed = g.op1('ReduceSum', [g.op1('Mul', [perExpert, weights]), g.ints([0])], { keepdims: 0 }); // [T, H]
  const shared = swiGlu(g, x, `${name}.shared_experts`, rng, hidden, expertInter * sharedExperts, outScale);
  return g.op1('Add', [g.op1('Reshape', [routed, g.ints([1, -1, hidden])]), shared]);
}

export { float };

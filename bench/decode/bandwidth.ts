/**
 * Bytes a decoding step must read from device memory, for the memory-bandwidth bound of gpu-check.sh: a decode step
 * of a model this size is bandwidth-bound, so steps/s can at best reach bandwidth ÷ bytes read per step. Counts the
 * weights a step touches (FP32, as in the packs) and the KV cache it reads; activations are negligible.
 */
import type { PackDims } from '../../testing/referencePack/referenceDims.js';

const FLOAT_BYTES = 4;

/** Expected number of distinct experts picked by `tokens` tokens each choosing `topK` of `experts` (independent routers). */
export function expectedExpertUnion(experts: number, topK: number, tokens: number): number {
  return experts * (1 - Math.pow(1 - topK / experts, tokens));
}

/** One decoder pass over `tokens` new positions with `context` positions cached. */
export function decoderPassBytes(dims: PackDims, tokens: number, context: number): number {
  const d = dims.decoder;
  const attention = 4 * d.hidden * d.hidden;
  const dense = 3 * d.hidden * d.denseInter;
  const expert = 3 * d.hidden * d.expertInter;
  const moe = d.hidden * d.routedExperts + (expectedExpertUnion(d.routedExperts, d.topK, tokens) + d.sharedExperts) * expert;
  const weights = d.layers * attention + d.denseLayers * dense + (d.layers - d.denseLayers) * moe + d.hidden * d.vocab;
  const cache = 2 * d.layers * (context + tokens) * d.hidden;
  return (weights + cache) * FLOAT_BYTES;
}

/**
 * One draft-block call (one layer with a SwiGLU of 2 × expertInter, the eh projection and the head) on one token.
 * `draftHeadRows`: ids the draft head scores (a compressed draft vocabulary); the full vocabulary when absent.
 */
export function draftCallBytes(dims: PackDims, context: number, draftHeadRows = dims.decoder.vocab): number {
  const d = dims.decoder;
  const weights = 2 * d.hidden * d.hidden + 4 * d.hidden * d.hidden + 3 * d.hidden * 2 * d.expertInter + d.hidden * draftHeadRows;
  return (weights + 2 * (context + 1) * d.hidden) * FLOAT_BYTES;
}

/** A greedy step (k = 0) or a FastMTP step (K draft calls + one verify pass of K + 1 tokens). */
export function stepBytes(dims: PackDims, k: number, context: number, draftHeadRows = dims.decoder.vocab): number {
  if (k === 0) return decoderPassBytes(dims, 1, context);
  return k * draftCallBytes(dims, context, draftHeadRows) + decoderPassBytes(dims, k + 1, context);
}

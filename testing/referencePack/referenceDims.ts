/** Dimensions of the generated packs: the toy reference pack and the shape-faithful one. */
import type { MoeForm } from './graphParts.js';

export interface DecoderDims {
  vocab: number;
  hidden: number;
  layers: number;
  heads: number;
  /** DeepSeek-V2 `first_k_dense_replace`: the first layers use a dense SwiGLU FFN instead of the MoE. */
  denseLayers: number;
  denseInter: number;
  routedExperts: number;
  sharedExperts: number;
  topK: number;
  expertInter: number;
  /** Rows of the learned position table (the real model uses RoPE; positions only need to exist here). */
  maxPositions: number;
}

export interface VisionDims {
  /** Pixels per side of one visual token: 16 px patches × 4 (DeepSeek-OCR's 16× token compression) = 64. */
  tokenPixels: number;
}

export interface PackDims {
  decoder: DecoderDims;
  vision: VisionDims;
  /** Scale of every residual branch of the decoder: small → the next token depends mostly on the current one. */
  residualScale: number;
  /** Scale of the draft block's own residual branches. */
  draftResidualScale: number;
  /** Routed expert weights shared by all MoE layers (shape-faithful pack: bytes read per step unchanged, file smaller). */
  shareExpertWeights: boolean;
  /** How the routed experts are written (graphParts.ts MoeForm). */
  moeForm: MoeForm;
}

/** The toy pack used in tests: fast on a CPU, same graph structure as the real thing. */
export const toyDims: PackDims = {
  decoder: {
    vocab: 0, // set from the tokenizer
    hidden: 32,
    layers: 2,
    heads: 4,
    denseLayers: 1,
    denseInter: 48,
    routedExperts: 8,
    sharedExperts: 2,
    topK: 2,
    expertInter: 16,
    maxPositions: 4096,
  },
  vision: { tokenPixels: 64 },
  residualScale: 0.02,
  draftResidualScale: 0.01,
  shareExpertWeights: false,
  moeForm: 'fused',
};

/**
 * DeepSeek-OCR's language model (DeepSeek3B-MoE, `language_config` of deepseek-ai/DeepSeek-OCR config.json):
 * hidden 1280, 12 layers, 10 heads (MHA, no MLA), first_k_dense_replace 1 with intermediate 6848, 64 routed + 2 shared
 * experts of intermediate 896, top-6 greedy routing with softmax scores, vocabulary 129,280.
 */
export const realSizeDims: PackDims = {
  decoder: {
    vocab: 129280,
    hidden: 1280,
    layers: 12,
    heads: 10,
    denseLayers: 1,
    denseInter: 6848,
    routedExperts: 64,
    sharedExperts: 2,
    topK: 6,
    expertInter: 896,
    maxPositions: 4096,
  },
  vision: { tokenPixels: 64 },
  // Weight values do not change the speed; small residual branches give the 'high' draft a realistic acceptance.
  residualScale: 0.02,
  draftResidualScale: 0.01,
  shareExpertWeights: true,
  moeForm: 'fused',
};

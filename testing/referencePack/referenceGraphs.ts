/**
 * The four graphs of a pack, at any size: vision encoder, token embedding, decoder with KV cache and MoE FFN, and the
 * FastMTP draft block. Tensor names are the pack contract (see packContract.ts).
 */
import { DataType } from './onnxSchema.js';
import { GraphBuilder } from './graphBuilder.js';
import { attention, cacheGeometry, expertWeights, type ExpertWeights, linear, moe, rmsNorm, sharedBufferAttention, sharedBufferGeometry, swiGlu } from './graphParts.js';
import { type CacheForm, type CacheNames, decoderCacheNames, draftCacheNames, sharedBufferInputs, tensorNames } from '../../native-models/vlm/pack/packContract.js';
import type { PackDims } from './referenceDims.js';
import type { Rng } from './rng.js';

/** pixel_values [N, 3, S, S] → image_features [N, S/64, S/64, H]; image_newline [H], view_separator [H]. */
export function buildVisionGraph(dims: PackDims, rng: Rng): GraphBuilder {
  const { hidden } = dims.decoder;
  const p = dims.vision.tokenPixels;
  const g = new GraphBuilder('vision_encoder');
  const pixels = g.input(tensorNames.vision.pixelValues, DataType.FLOAT, ['views', 3, 'size', 'size']);
  const kernel = g.floatInit('patch_embed.weight', rng.weights(hidden * 3 * p * p, 1 / Math.sqrt(3 * p * p)), [hidden, 3, p, p]);
  const patches = g.op1('Conv', [pixels, kernel], { kernel_shape: [p, p], strides: [p, p] }); // [N, H, q, q]
  const grid = g.op1('Transpose', [patches], { perm: [0, 2, 3, 1] }); // [N, q, q, H]
  const projected = linear(g, grid, 'projector', rng, hidden, hidden);
  g.output(projected, tensorNames.vision.imageFeatures, DataType.FLOAT, ['views', 'rows', 'cols', hidden]);
  const newline = g.floatInit('image_newline', rng.weights(hidden, 1), [hidden]);
  const separator = g.floatInit('view_separator', rng.weights(hidden, 1), [hidden]);
  g.output(newline, tensorNames.vision.imageNewline, DataType.FLOAT, [hidden]);
  g.output(separator, tensorNames.vision.viewSeparator, DataType.FLOAT, [hidden]);
  return g;
}

/** input_ids [1, T] int64 → inputs_embeds [1, T, H]. Returns the table too: the decoder-side lm_head is built from it. */
export function buildEmbeddingGraph(dims: PackDims, table: Float32Array): GraphBuilder {
  const { vocab, hidden } = dims.decoder;
  const g = new GraphBuilder('token_embedding');
  const ids = g.input(tensorNames.embed.inputIds, DataType.INT64, [1, 'tokens']);
  const weight = g.floatInit('embed_tokens.weight', table, [vocab, hidden]);
  g.output(g.op1('Gather', [weight, ids], { axis: 0 }), tensorNames.embed.inputsEmbeds, DataType.FLOAT, [1, 'tokens', hidden]);
  return g;
}

/**
 * The C largest logits of each row and their token ids ([1, T, C] float32 / int32), sorted, lower id first on ties —
 * all the host needs for argmax under the no-repeat rule (see packContract.ts).
 */
function candidateOutputs(g: GraphBuilder, logits: string, candidates: number, names: { candidateLogits: string; candidateIds: string }, vocabulary?: string): void {
  const [values, indices] = g.op('TopK', [logits, g.ints([candidates])], { axis: -1, largest: 1, sorted: 1 }, 2) as [string, string];
  g.output(values, names.candidateLogits, DataType.FLOAT, [1, 'tokens', candidates]);
  // Over a compressed vocabulary the TopK indices are positions in the sorted id list: a Gather makes them real ids
  // (and keeps "lower id first" on ties, as the list is ascending).
  const ids = vocabulary ? g.op1('Gather', [vocabulary, indices], { axis: 0 }) : g.op1('Cast', [indices], { to: DataType.INT32 });
  g.output(ids, names.candidateIds, DataType.INT32, [1, 'tokens', candidates]);
}

/** Name of the draft graph's int32 [Vd] initializer listing the ids its head scores (sorted ascending). */
export const DRAFT_VOCABULARY_INITIALIZER = 'draft_vocabulary';

/**
 * The cache side of a decoder or draft graph in either form (packContract.ts): declares the cache inputs (and the
 * valid-length inputs of 'shared-buffer'), and returns the positions of the new tokens and an attention builder.
 */
function cacheSide(g: GraphBuilder, form: CacheForm, embeds: string, caches: readonly CacheNames[], heads: number, headDim: number) {
  if (form === 'views') {
    for (const c of caches) {
      g.input(c.pastKey, DataType.FLOAT, [1, 'past', heads, headDim]);
      g.input(c.pastValue, DataType.FLOAT, [1, 'past', heads, headDim]);
    }
    const geometry = cacheGeometry(g, embeds, caches[0]!.pastKey);
    return {
      positions: geometry.positions,
      attention: (h: string, name: string, rng: Rng, dims: { hidden: number; heads: number }, c: CacheNames, scale: number) => attention(g, h, name, rng, dims, geometry, c, scale),
      outputs: () => {
        for (const c of caches) {
          g.output(c.newKey, c.newKey, DataType.FLOAT, [1, 'tokens', heads, headDim]);
          g.output(c.newValue, c.newValue, DataType.FLOAT, [1, 'tokens', heads, headDim]);
        }
      },
    };
  }
  const seqlensK = g.input(sharedBufferInputs.seqlensK, DataType.INT32, [1]);
  const total = g.input(sharedBufferInputs.totalSequenceLength, DataType.INT32, []);
  for (const c of caches) {
    g.input(c.pastKey, DataType.FLOAT, [1, heads, 'capacity', headDim]);
    g.input(c.pastValue, DataType.FLOAT, [1, heads, 'capacity', headDim]);
  }
  const geometry = sharedBufferGeometry(g, embeds, seqlensK, total);
  return {
    positions: geometry.positions,
    attention: (h: string, name: string, rng: Rng, dims: { hidden: number; heads: number }, c: CacheNames, scale: number) => sharedBufferAttention(g, h, name, rng, dims, geometry, c, scale),
    outputs: () => {
      for (const c of caches) {
        g.output(c.presentKey, c.presentKey, DataType.FLOAT, [1, heads, 'capacity', headDim]);
        g.output(c.presentValue, c.presentValue, DataType.FLOAT, [1, heads, 'capacity', headDim]);
      }
    },
  };
}

/**
 * inputs_embeds [1, T, H], past.{i}.key/value [1, P, nh, dh] (views of the runtime's cache buffers) →
 * candidate_logits / candidate_ids [1, T, C], last_hidden_state [1, T, H] (after the final norm: what the draft block
 * consumes), new.{i}.key/value [1, T, nh, dh] (written in place by the runtime's pre-allocated output views).
 */
export function buildDecoderGraph(dims: PackDims, rng: Rng, lmHead: Float32Array, candidates: number, form: CacheForm = 'views'): GraphBuilder {
  const d = dims.decoder;
  const headDim = d.hidden / d.heads;
  const g = new GraphBuilder('decoder');
  const embeds = g.input(tensorNames.decoder.inputsEmbeds, DataType.FLOAT, [1, 'tokens', d.hidden]);
  const caches = decoderCacheNames(d.layers);
  const side = cacheSide(g, form, embeds, caches, d.heads, headDim);
  const { positions } = side;
  const positionTable = g.floatInit('position_embeddings', rng.weights(d.maxPositions * d.hidden, dims.residualScale), [d.maxPositions, d.hidden]);
  let x = g.op1('Add', [embeds, g.op1('Gather', [positionTable, positions], { axis: 0 })]); // [1, T, H]
  let shared: ExpertWeights | null = null;
  for (let layer = 0; layer < d.layers; layer++) {
    const name = `layers.${layer}`;
    const attn = side.attention(rmsNorm(g, x, `${name}.input_layernorm`, d.hidden), `${name}.self_attn`, rng, d, caches[layer]!, dims.residualScale);
    x = g.op1('Add', [x, attn]);
    const h = rmsNorm(g, x, `${name}.post_attention_layernorm`, d.hidden);
    let ffn: string;
    if (layer < d.denseLayers) {
      ffn = swiGlu(g, h, `${name}.mlp`, rng, d.hidden, d.denseInter, dims.residualScale);
    } else {
      const experts: ExpertWeights = dims.shareExpertWeights && shared ? shared : expertWeights(g, `${name}.mlp.experts`, rng, d.routedExperts, d.hidden, d.expertInter, dims.residualScale, dims.moeForm);
      shared = experts;
      ffn = moe(g, h, `${name}.mlp`, rng, d, experts, dims.residualScale);
    }
    x = g.op1('Add', [x, ffn]);
  }
  const last = rmsNorm(g, x, 'norm', d.hidden);
  const head = g.floatInit('lm_head.weight', lmHead, [d.hidden, d.vocab]);
  candidateOutputs(g, g.op1('MatMul', [last, head]), candidates, tensorNames.decoder);
  g.output(last, tensorNames.decoder.lastHiddenState, DataType.FLOAT, [1, 'tokens', d.hidden]);
  side.outputs();
  return g;
}

export interface DraftWeights {
  /** [2H, H]: projection of concat(norm(hidden), norm(embedding)). */
  projection: Float32Array;
  /** [H, V], or [H, Vd] over `vocabulary`. */
  lmHead: Float32Array;
  /** The ids the head scores (sorted ascending; FastMTP's compressed draft vocabulary); absent: every id. */
  vocabulary?: Int32Array;
}

/**
 * The FastMTP draft block (one transformer layer after DeepSeek-V3's MTP module):
 * inputs_embeds [1, T, H] (embedding of the token at each position), hidden_states [1, S, H] with hidden_rows [T]
 * (the decoder's last hidden state of the previous position, or the block's own output when applied recursively: an
 * output of an earlier run, fed as it came, and the rows of it to use), past.0.key/value →
 * candidate_logits / candidate_ids [1, T, C], hidden_states_out [1, T, H], new.0.key/value (same cache scheme as the
 * decoder). With `weights.vocabulary` the head is [H, Vd] over those ids (FastMTP's compressed draft vocabulary): TopK
 * over Vd logits, then a Gather of the id list, so candidate ids stay real ids.
 */
export function buildDraftGraph(dims: PackDims, rng: Rng, weights: DraftWeights, candidates: number, form: CacheForm = 'views'): GraphBuilder {
  const d = dims.decoder;
  const headDim = d.hidden / d.heads;
  const g = new GraphBuilder('draft_block');
  const embeds = g.input(tensorNames.draft.inputsEmbeds, DataType.FLOAT, [1, 'tokens', d.hidden]);
  const source = g.input(tensorNames.draft.hiddenStates, DataType.FLOAT, [1, 'source', d.hidden]);
  const hiddenRows = g.input(tensorNames.draft.hiddenRows, DataType.INT64, ['tokens']);
  const hidden = g.op1('Gather', [source, hiddenRows], { axis: 1 }); // [1, T, H], picked here so no row crosses to the host
  const [cache] = draftCacheNames();
  const side = cacheSide(g, form, embeds, [cache!], d.heads, headDim);
  const joined = g.op1('Concat', [rmsNorm(g, hidden, 'hnorm', d.hidden), rmsNorm(g, embeds, 'enorm', d.hidden)], { axis: -1 });
  const projection = g.floatInit('eh_proj.weight', weights.projection, [2 * d.hidden, d.hidden]);
  let x = g.op1('MatMul', [joined, projection]); // [1, T, H]
  const attn = side.attention(rmsNorm(g, x, 'block.input_layernorm', d.hidden), 'block.self_attn', rng, d, cache!, dims.draftResidualScale);
  x = g.op1('Add', [x, attn]);
  const ffn = swiGlu(g, rmsNorm(g, x, 'block.post_attention_layernorm', d.hidden), 'block.mlp', rng, d.hidden, d.expertInter * 2, dims.draftResidualScale);
  x = g.op1('Add', [x, ffn]);
  const vocabulary = weights.vocabulary;
  if (vocabulary && vocabulary.length < candidates) throw new Error(`draft vocabulary of ${vocabulary.length} ids < ${candidates} candidates per row`);
  const head = g.floatInit('shared_head.weight', weights.lmHead, [d.hidden, vocabulary?.length ?? d.vocab]);
  const list = vocabulary ? g.int32Init(DRAFT_VOCABULARY_INITIALIZER, vocabulary) : undefined;
  candidateOutputs(g, g.op1('MatMul', [rmsNorm(g, x, 'shared_head.norm', d.hidden), head]), candidates, tensorNames.draft, list);
  g.output(x, tensorNames.draft.hiddenStatesOut, DataType.FLOAT, [1, 'tokens', d.hidden]);
  side.outputs();
  return g;
}

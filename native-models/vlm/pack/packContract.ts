/**
 * The model-pack contract: file roles and tensor names every pack (reference or exported) must provide. The export
 * script (native-models/export/export_jina_ocr.py) writes the same names.
 *
 * KV caches (decoder and draft block), pack format 2 — the caches never leave the runtime's buffers between steps:
 * - The runtime owns one fixed-capacity buffer per cache, laid out position-major ([capacity, heads, headDim], BSNH),
 *   allocated once per page. `past.{i}.key/value` [1, P, nh, dh] is fed as a zero-copy view of the first P positions:
 *   the valid length P is the input's length, and cutting back rejected drafts is feeding a shorter view (no copy).
 * - The graph reads the past where it lies (no Concat, no Transpose, no Slice of the cache) and writes only the T new
 *   positions to `new.{i}.key/value` [1, T, nh, dh]; the runtime passes a pre-allocated view of the same buffer at
 *   offset P as that output, so the rows land in place.
 * - Position ids of the new tokens are P … P + T − 1 (from the past's length).
 *
 * Cache form 'shared-buffer' (manifest `cacheForm`; for GPU providers, where a buffer cannot be viewed at an offset
 * from JS): each cache is one [1, nh, capacity, dh] buffer (BNSH) that the runtime passes both as `past.{i}.key/value`
 * and as the pre-allocated output `present.{i}.key/value`, so onnxruntime's GroupQueryAttention writes the T new rows
 * in place (its past/present shared buffer). The valid length is a graph input: `seqlens_k` [1] int32 = P + T − 1 and
 * `total_sequence_length` [] int32 = P + T; cutting back is lowering it. With `preferredOutputLocation: 'gpu-buffer'`
 * on WebGPU the buffers stay on the device between runs.
 *
 * Only candidates reach the host: `candidate_logits` / `candidate_ids` [1, T, C] are the C largest logits of each row
 * (TopK, sorted, lower index first on ties) with C > the most tokens the no-repeat rule can ban (window − n + 1), so
 * argmax under that rule is exact. The decoding loops fetch `candidate_ids` only (the order is all a pick needs);
 * `candidate_logits` stays an output for parity checks and tests. The draft graph's head may score only a fixed list
 * of ids (FastMTP's compressed draft vocabulary; manifest `draftVocabulary` = its length, ≥ C): TopK over those logits,
 * then a Gather of the sorted int32 list `draft_vocabulary`, so its `candidate_ids` are real ids all the same.
 *
 * Hidden states stay where the provider keeps them (pack format 3): `last_hidden_state` [1, T, H] (decoder) and
 * `hidden_states_out` [1, T, H] (draft block) feed the draft block's next run as `hidden_states` [1, S, H] unchanged,
 * and `hidden_rows` [n] int64 says which rows of it to use (Gather on axis 1 inside the draft graph: the accepted
 * prefix of a verify pass, or the last row of the block's own output). So the rows are never picked on the host, and
 * on WebGPU both outputs are device tensors (`preferredOutputLocation: 'gpu-buffer'`) that never cross.
 */
export const tensorNames = {
  vision: {
    pixelValues: 'pixel_values', // [views, 3, size, size] float32, normalised (x − 0.5) / 0.5
    imageFeatures: 'image_features', // [views, rows, cols, H]
    imageNewline: 'image_newline', // [H]
    viewSeparator: 'view_separator', // [H]
  },
  embed: { inputIds: 'input_ids', inputsEmbeds: 'inputs_embeds' },
  decoder: { inputsEmbeds: 'inputs_embeds', candidateLogits: 'candidate_logits', candidateIds: 'candidate_ids', lastHiddenState: 'last_hidden_state' },
  draft: {
    inputsEmbeds: 'inputs_embeds',
    hiddenStates: 'hidden_states', // [1, S, H]: a decoder's or the block's own hidden-state output, as it came
    hiddenRows: 'hidden_rows', // [n] int64: the rows of hidden_states to use, n = the T of inputs_embeds
    candidateLogits: 'candidate_logits',
    candidateIds: 'candidate_ids',
    hiddenStatesOut: 'hidden_states_out',
  },
} as const;

/** How a pack's graphs hold the KV caches (see above); packs without the manifest field use 'views'. */
export type CacheForm = 'views' | 'shared-buffer';
export const cacheForms: readonly CacheForm[] = ['views', 'shared-buffer'];

/** The valid-length inputs of 'shared-buffer' graphs (onnxruntime GroupQueryAttention's names). */
export const sharedBufferInputs = { seqlensK: 'seqlens_k', totalSequenceLength: 'total_sequence_length' } as const;

export interface CacheNames {
  /** views: [1, P, nh, dh], view of the cache buffer's first P positions; shared-buffer: [1, nh, capacity, dh]. */
  pastKey: string;
  pastValue: string;
  /** views: [1, T, nh, dh], the new positions, written into the cache buffer at offset P. */
  newKey: string;
  newValue: string;
  /** shared-buffer: [1, nh, capacity, dh], the same buffer as the past, new rows written in place. */
  presentKey: string;
  presentValue: string;
}

export function decoderCacheNames(layers: number): CacheNames[] {
  return Array.from({ length: layers }, (_, i) => ({
    pastKey: `past.${i}.key`,
    pastValue: `past.${i}.value`,
    newKey: `new.${i}.key`,
    newValue: `new.${i}.value`,
    presentKey: `present.${i}.key`,
    presentValue: `present.${i}.value`,
  }));
}

/** The cache outputs of a graph in `form`: new rows (views) or the whole shared buffers (shared-buffer). */
export function cacheOutputNames(names: readonly CacheNames[], form: CacheForm): string[] {
  return names.flatMap((c) => (form === 'views' ? [c.newKey, c.newValue] : [c.presentKey, c.presentValue]));
}

/**
 * Candidates per row a pack must return so that argmax under the no-repeat n-gram rule is exact: that rule bans at
 * most one token per n-gram start in its window (window − n + 1 tokens), so one more candidate is never banned.
 */
export function minimumCandidates(noRepeat: { ngramSize: number; windowSize: number }): number {
  return noRepeat.windowSize - noRepeat.ngramSize + 2;
}

/** Outputs a provider with device memory keeps there (WebGPU `gpu-buffer`): what only feeds the next run. */
export function deviceOutputNames(role: GraphRole, layers: number, form: CacheForm): string[] {
  const caches = (names: CacheNames[]) => (form === 'shared-buffer' ? cacheOutputNames(names, form) : []);
  if (role === 'decoder') return [tensorNames.decoder.lastHiddenState, ...caches(decoderCacheNames(layers))];
  if (role === 'draft') return [tensorNames.draft.hiddenStatesOut, ...caches(draftCacheNames())];
  return [];
}

/** The draft block has one layer, so one cache. */
export function draftCacheNames(): CacheNames[] {
  return decoderCacheNames(1);
}

export type GraphRole = 'vision' | 'embed' | 'decoder' | 'draft';
export const graphRoles: readonly GraphRole[] = ['vision', 'embed', 'decoder', 'draft'];

/** Input and output names each graph must declare (cache names depend on the layer count). */
export function expectedTensorNames(role: GraphRole, layers: number, form: CacheForm = 'views'): { inputs: string[]; outputs: string[] } {
  const lengths = form === 'views' ? [] : [sharedBufferInputs.seqlensK, sharedBufferInputs.totalSequenceLength];
  const cache = (names: CacheNames[]) => ({
    inputs: [...lengths, ...names.flatMap((c) => [c.pastKey, c.pastValue])],
    outputs: cacheOutputNames(names, form),
  });
  switch (role) {
    case 'vision':
      return { inputs: [tensorNames.vision.pixelValues], outputs: [tensorNames.vision.imageFeatures, tensorNames.vision.imageNewline, tensorNames.vision.viewSeparator] };
    case 'embed':
      return { inputs: [tensorNames.embed.inputIds], outputs: [tensorNames.embed.inputsEmbeds] };
    case 'decoder': {
      const c = cache(decoderCacheNames(layers));
      const d = tensorNames.decoder;
      return { inputs: [d.inputsEmbeds, ...c.inputs], outputs: [d.candidateLogits, d.candidateIds, d.lastHiddenState, ...c.outputs] };
    }
    case 'draft': {
      const c = cache(draftCacheNames());
      return {
        inputs: [tensorNames.draft.inputsEmbeds, tensorNames.draft.hiddenStates, tensorNames.draft.hiddenRows, ...c.inputs],
        outputs: [tensorNames.draft.candidateLogits, tensorNames.draft.candidateIds, tensorNames.draft.hiddenStatesOut, ...c.outputs],
      };
    }
  }
}

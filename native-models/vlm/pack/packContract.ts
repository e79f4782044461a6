/**
 * The model-pack contract: file roles and tensor names every pack (reference or exported) must provide. The export
 * script (native-models/export/export_jina_ocr.py) writes the same names.
 */
export const tensorNames = {
  vision: {
    pixelValues: 'pixel_values', // [views, 3, size, size] float32, normalised (x − 0.5) / 0.5
    imageFeatures: 'image_features', // [views, rows, cols, H]
    imageNewline: 'image_newline', // [H]
    viewSeparator: 'view_separator', // [H]
  },
  embed: { inputIds: 'input_ids', inputsEmbeds: 'inputs_embeds' },
  decoder: { inputsEmbeds: 'inputs_embeds', logits: 'logits', lastHiddenState: 'last_hidden_state' },
  draft: { inputsEmbeds: 'inputs_embeds', hiddenStates: 'hidden_states', logits: 'logits', hiddenStatesOut: 'hidden_states_out' },
} as const;

export interface CacheNames {
  pastKey: string;
  pastValue: string;
  presentKey: string;
  presentValue: string;
}

export function decoderCacheNames(layers: number): CacheNames[] {
  return Array.from({ length: layers }, (_, i) => ({
    pastKey: `past.${i}.key`,
    pastValue: `past.${i}.value`,
    presentKey: `present.${i}.key`,
    presentValue: `present.${i}.value`,
  }));
}

/** The draft block has one layer, so one cache. */
export function draftCacheNames(): CacheNames[] {
  return decoderCacheNames(1);
}

export type GraphRole = 'vision' | 'embed' | 'decoder' | 'draft';
export const graphRoles: readonly GraphRole[] = ['vision', 'embed', 'decoder', 'draft'];

/** Input and output names each graph must declare (cache names depend on the layer count). */
export function expectedTensorNames(role: GraphRole, layers: number): { inputs: string[]; outputs: string[] } {
  const cache = (names: CacheNames[]) => ({
    inputs: names.flatMap((c) => [c.pastKey, c.pastValue]),
    outputs: names.flatMap((c) => [c.presentKey, c.presentValue]),
  });
  switch (role) {
    case 'vision':
      return { inputs: [tensorNames.vision.pixelValues], outputs: [tensorNames.vision.imageFeatures, tensorNames.vision.imageNewline, tensorNames.vision.viewSeparator] };
    case 'embed':
      return { inputs: [tensorNames.embed.inputIds], outputs: [tensorNames.embed.inputsEmbeds] };
    case 'decoder': {
      const c = cache(decoderCacheNames(layers));
      return { inputs: [tensorNames.decoder.inputsEmbeds, ...c.inputs], outputs: [tensorNames.decoder.logits, tensorNames.decoder.lastHiddenState, ...c.outputs] };
    }
    case 'draft': {
      const c = cache(draftCacheNames());
      return {
        inputs: [tensorNames.draft.inputsEmbeds, tensorNames.draft.hiddenStates, ...c.inputs],
        outputs: [tensorNames.draft.logits, tensorNames.draft.hiddenStatesOut, ...c.outputs],
      };
    }
  }
}

/** Wires a loaded pack's sessions into the models both decoding loops use. */
import type { LoadedPack } from '../pack/loadPack.js';
import { decoderCacheNames, draftCacheNames, tensorNames } from '../pack/packContract.js';
import { CachedModel, TokenEmbedder } from './cachedModel.js';
import type { DecodeModels, DecodeOptions } from './decodeTypes.js';
import { NoRepeatNgramProcessor } from './logitsProcessors.js';
import { SharedBufferCache } from './sharedBufferCache.js';

export function createDecodeModels(pack: LoadedPack): DecodeModels {
  const { dims, cacheForm } = pack.manifest;
  const shape = { heads: dims.heads, headDim: dims.headDim };
  const Model = cacheForm === 'shared-buffer' ? SharedBufferCache : CachedModel;
  return {
    embedder: new TokenEmbedder(pack.sessions.embed, dims.hidden, tensorNames.embed),
    decoder: new Model(pack.sessions.decoder, decoderCacheNames(dims.layers), shape),
    draft: new Model(pack.sessions.draft, draftCacheNames(), shape),
    hidden: dims.hidden,
    vocab: dims.vocab,
  };
}

/** Decoding options from the manifest: EOS, max tokens and DeepSeek-OCR's no-repeat n-gram rule. */
export function decodeOptionsFor(pack: LoadedPack, overrides: Partial<DecodeOptions> = {}): DecodeOptions {
  const { manifest } = pack;
  return {
    maxNewTokens: manifest.maxNewTokens,
    eosId: manifest.specialTokens.eos,
    processors: [new NoRepeatNgramProcessor(manifest.noRepeatNgram)],
    ...overrides,
  };
}

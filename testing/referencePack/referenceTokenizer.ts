/**
 * The reference pack's tokenizer.json: DeepSeek-OCR's special and grounding tokens plus one token per printable ASCII
 * character and newline, as a Hugging Face BPE model without merges (so every character is one token).
 */
export const referenceSpecialTokens = {
  bos: '<｜begin▁of▁sentence｜>',
  eos: '<｜end▁of▁sentence｜>',
  image: '<image>',
  grounding: '<|grounding|>',
  refOpen: '<|ref|>',
  refClose: '<|/ref|>',
  detOpen: '<|det|>',
  detClose: '<|/det|>',
  td: '<td>',
  tdClose: '</td>',
} as const;

export interface ReferenceTokenizer {
  json: object;
  vocabSize: number;
  ids: { bos: number; eos: number; image: number; td: number; tdClose: number };
}

export function buildReferenceTokenizer(): ReferenceTokenizer {
  const added = Object.values(referenceSpecialTokens);
  const special = new Set<string>([referenceSpecialTokens.bos, referenceSpecialTokens.eos, referenceSpecialTokens.image]);
  const vocab: Record<string, number> = {};
  added.forEach((token, id) => (vocab[token] = id));
  const chars = ['\n', ...Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i))];
  chars.forEach((char, i) => (vocab[char] = added.length + i));
  const json = {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: added.map((content, id) => ({
      id,
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: special.has(content),
    })),
    normalizer: null,
    pre_tokenizer: null,
    post_processor: null,
    decoder: { type: 'Fuse' },
    model: {
      type: 'BPE',
      dropout: null,
      unk_token: null,
      continuing_subword_prefix: null,
      end_of_word_suffix: null,
      fuse_unk: false,
      byte_fallback: false,
      ignore_merges: false,
      vocab,
      merges: [],
    },
  };
  const id = (token: string) => vocab[token]!;
  return {
    json,
    vocabSize: added.length + chars.length,
    ids: {
      bos: id(referenceSpecialTokens.bos),
      eos: id(referenceSpecialTokens.eos),
      image: id(referenceSpecialTokens.image),
      td: id(referenceSpecialTokens.td),
      tdClose: id(referenceSpecialTokens.tdClose),
    },
  };
}

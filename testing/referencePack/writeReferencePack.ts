/**
 * Generates a model pack from a seed: the reference packs of the tests (variants whose draft agrees with the decoder
 * on ≥ 90 %, ~50 % and ~0 % of positions) and, on demand, the shape-faithful pack at DeepSeek-OCR's decoder size.
 */
import { closeSync, mkdirSync, openSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { GraphBuilder } from './graphBuilder.js';
import { MANIFEST_FILE, type PackFileEntry, type PackManifest, sha256File } from '../../native-models/vlm/pack/manifest.js';
import { type CacheForm, expectedTensorNames, type GraphRole, minimumCandidates } from '../../native-models/vlm/pack/packContract.js';
import { type PackDims, toyDims } from './referenceDims.js';
import { buildDecoderGraph, buildDraftGraph, buildEmbeddingGraph, buildVisionGraph, type DraftWeights } from './referenceGraphs.js';
import { draftVocabularyIds, headColumns } from './draftVocabulary.js';
import { buildReferenceTokenizer } from './referenceTokenizer.js';
import { Rng } from './rng.js';

/** How the draft block relates to the decoder: its agreement rate is what the variant is named after. */
export type DraftVariant = 'high' | 'mid' | 'zero';

export interface ReferencePackOptions {
  dir: string;
  variant: DraftVariant;
  seed?: number;
  dims?: PackDims;
  draftDepth?: number;
  /** How the decoder and draft graphs hold their caches (packContract.ts); default 'views'. */
  cacheForm?: CacheForm;
  /**
   * FastMTP's compressed draft vocabulary: the draft head scores only ids < this cut plus the tokenizer's added tokens
   * and EOS (draftVocabulary.ts), and the manifest says how many (`draftVocabulary`). An id list instead of a cut:
   * exactly those ids (tests: a list that is not a prefix of the vocabulary). Absent: the full vocabulary.
   */
  draftVocabulary?: number | readonly number[];
}

/**
 * How strongly the toy decoder's output depends on context (its residual branches' scale). The high variant keeps the
 * next token mostly a function of the current one, so an embedding-only draft agrees ≥ 90 %; mid and zero make the
 * decoder strongly context-dependent, so a cache or position bug changes its output (the lossless test then fails).
 */
export const TOY_RESIDUAL_SCALE: Record<DraftVariant, number> = { high: 0.02, mid: 0.25, zero: 1 };

export const REFERENCE_PROMPT = '<image>\n<|grounding|>Convert the document to markdown.';

export async function writeReferencePack(options: ReferencePackOptions): Promise<PackManifest> {
  const seed = options.seed ?? 1;
  const cacheForm = options.cacheForm ?? 'views';
  const tokenizer = buildReferenceTokenizer();
  const base = options.dims ?? { ...toyDims, residualScale: TOY_RESIDUAL_SCALE[options.variant] };
  const dims: PackDims = { ...base, decoder: { ...base.decoder, vocab: base.decoder.vocab || tokenizer.vocabSize } };
  const d = dims.decoder;
  mkdirSync(options.dir, { recursive: true });
  // One stream per graph, so a graph's weights do not depend on which other graphs are built.
  const rng = (offset: number) => new Rng(seed * 1000 + offset);

  const embedTable = rng(1).weights(d.vocab * d.hidden, 1);
  const lmHead = rng(2).weights(d.hidden * d.vocab, 1 / Math.sqrt(d.hidden));
  const files: PackFileEntry[] = [];
  const write = async (role: GraphRole, graph: GraphBuilder) => {
    const path = `${role}.onnx`;
    const dataPath = `${role}.onnx.data`;
    const { model, externalData } = graph.serialize({ externalFileName: dataPath, externalThreshold: 1 << 20, docString: `${role} of a Recto ${options.variant} pack, seed ${seed}` });
    writeFileSync(join(options.dir, path), model);
    files.push(await entry(options.dir, role, path));
    if (externalData) {
      const fd = openSync(join(options.dir, dataPath), 'w');
      try {
        for (const chunk of externalData) writeSync(fd, chunk);
      } finally {
        closeSync(fd);
      }
      files.push(await entry(options.dir, 'data', dataPath));
    }
  };

  await write('vision', buildVisionGraph(dims, rng(3)));
  await write('embed', buildEmbeddingGraph(dims, embedTable));
  const noRepeatNgram = { ngramSize: 3, windowSize: 30, exemptTokenIds: [tokenizer.ids.td, tokenizer.ids.tdClose] };
  const candidates = minimumCandidates(noRepeatNgram);
  await write('decoder', buildDecoderGraph(dims, rng(4), lmHead, candidates, cacheForm));
  const fullDraft = draftWeights(options.variant, d.hidden, d.vocab, lmHead, rng(6));
  const chosen = options.draftVocabulary;
  const vocabulary = chosen === undefined ? undefined : typeof chosen === 'number' ? referenceDraftVocabulary(d.vocab, chosen) : Int32Array.from(new Set(chosen)).sort();
  if (vocabulary?.some((id) => id < 0 || id >= d.vocab)) throw new Error(`draft vocabulary: ids must lie in 0 … ${d.vocab - 1}`);
  const draft: DraftWeights = vocabulary ? { ...fullDraft, lmHead: headColumns(fullDraft.lmHead, d.hidden, d.vocab, vocabulary), vocabulary } : fullDraft;
  await write('draft', buildDraftGraph(dims, rng(5), draft, candidates, cacheForm));
  writeFileSync(join(options.dir, 'tokenizer.json'), JSON.stringify(tokenizer.json));
  files.push(await entry(options.dir, 'tokenizer', 'tokenizer.json'));

  const manifest: PackManifest = {
    format: 'recto-vlm-pack',
    formatVersion: 3,
    name: `recto-reference-${options.variant}`,
    version: `seed-${seed}`,
    licence: 'MIT (generated random weights; no trained model)',
    description: `Generated reference pack (${options.variant} draft agreement), hidden ${d.hidden}, ${d.layers} layers, ${d.routedExperts} routed + ${d.sharedExperts} shared experts, top-${d.topK}. Its text is nonsense by design.`,
    files,
    tensors: {
      vision: expectedTensorNames('vision', d.layers),
      embed: expectedTensorNames('embed', d.layers),
      decoder: expectedTensorNames('decoder', d.layers, cacheForm),
      draft: expectedTensorNames('draft', d.layers, cacheForm),
    },
    dims: { vocab: d.vocab, hidden: d.hidden, layers: d.layers, heads: d.heads, headDim: d.hidden / d.heads },
    specialTokens: { bos: tokenizer.ids.bos, eos: tokenizer.ids.eos, image: tokenizer.ids.image },
    prompt: REFERENCE_PROMPT,
    defaultImageMode: 'base',
    draftDepth: options.draftDepth ?? 3,
    noRepeatNgram,
    cacheForm,
    candidates,
    ...(vocabulary ? { draftVocabulary: vocabulary.length } : {}),
    maxNewTokens: 64,
    maxPositions: d.maxPositions,
  };
  writeFileSync(join(options.dir, MANIFEST_FILE), JSON.stringify(manifest, null, 2));
  return manifest;
}

/** The ids a reference pack's compressed draft head scores: ids < `cut`, the reference tokenizer's added tokens, EOS. */
export function referenceDraftVocabulary(vocab: number, cut: number): Int32Array {
  const tokenizer = buildReferenceTokenizer();
  const added = (tokenizer.json as { added_tokens: { id: number }[] }).added_tokens.map((t) => t.id);
  return draftVocabularyIds(vocab, cut, added, tokenizer.ids.eos);
}

/**
 * high, mid: the draft sees only the token embedding and uses the decoder's own head, so it predicts what the decoder
 *            would predict without context; it agrees where context does not move the decoder (≥ 90 % with the high
 *            variant's small residual scale, about half with mid's — see TOY_RESIDUAL_SCALE);
 * zero:      independent random projection and head → agreement at chance level (1 / vocab).
 */
function draftWeights(variant: DraftVariant, hidden: number, vocab: number, lmHead: Float32Array, rng: Rng): DraftWeights {
  if (variant === 'zero') {
    return { projection: rng.weights(2 * hidden * hidden, 1 / Math.sqrt(2 * hidden)), lmHead: rng.weights(hidden * vocab, 1 / Math.sqrt(hidden)) };
  }
  const projection = new Float32Array(2 * hidden * hidden); // rows 0..H-1 read the hidden state (zero), H..2H-1 the embedding
  for (let i = 0; i < hidden; i++) projection[(hidden + i) * hidden + i] = 1;
  return { projection, lmHead };
}

async function entry(dir: string, role: PackFileEntry['role'], path: string): Promise<PackFileEntry> {
  const full = join(dir, path);
  return { role, path, sha256: await sha256File(full), bytes: statSync(full).size };
}

/** Shared types of the greedy and FastMTP loops. */
import type { CachedModel, TokenEmbedder } from './cachedModel.js';
import type { LogitsProcessor } from './logitsProcessors.js';
import { floatTensor, type Tensor } from '../runtime/onnxRuntime.js';
import { tensorNames } from '../pack/packContract.js';

export interface DecodeModels {
  embedder: TokenEmbedder;
  decoder: CachedModel;
  /** Needed by FastMTP only. */
  draft: CachedModel | null;
  hidden: number;
  vocab: number;
}

export interface DecodeOptions {
  maxNewTokens: number;
  eosId: number;
  processors: readonly LogitsProcessor[];
  /** Called with each committed token, in order. */
  onToken?: (token: number) => void;
  /** Polled between steps; true ends decoding early (cancellation). */
  shouldStop?: () => boolean;
  /** Called after every step with the live counters (for streamed statistics); must not keep the object. */
  onStep?: (stats: Readonly<DecodeStats>, committedTokens: number) => void;
}

/** Plain counters, as vLLM's spec-decode metrics; rates are derived. */
export interface DecodeStats {
  /** Committed tokens (EOS excluded). */
  tokens: number;
  /** Decoder passes after the prefill (greedy: one per token; FastMTP: one verify pass per step). */
  steps: number;
  draftCalls: number;
  /** Per draft position i: steps where position i was drafted, and where it was accepted. */
  draftedPerPosition: number[];
  acceptedPerPosition: number[];
  prefillMs: number;
  /** Wall time of the steps after the prefill. */
  decodeMs: number;
  /** Time inside onnxruntime during the steps (decoder, draft and embedding runs). */
  decodeOrtMs: number;
  decoderOrtMs: number;
  draftOrtMs: number;
}

export interface DecodeResult {
  tokens: number[];
  hitMaxTokens: boolean;
  cancelled: boolean;
  stats: DecodeStats;
}

export function emptyStats(k: number): DecodeStats {
  return {
    tokens: 0,
    steps: 0,
    draftCalls: 0,
    draftedPerPosition: new Array(k).fill(0),
    acceptedPerPosition: new Array(k).fill(0),
    prefillMs: 0,
    decodeMs: 0,
    decodeOrtMs: 0,
    decoderOrtMs: 0,
    draftOrtMs: 0,
  };
}

/** τ: mean tokens committed per verify step, bonus included (1 + accepted / steps). */
export function meanAcceptedLength(stats: DecodeStats): number {
  if (stats.steps === 0) return 0;
  return 1 + stats.acceptedPerPosition.reduce((a, b) => a + b, 0) / stats.steps;
}

export function acceptanceRates(stats: DecodeStats): number[] {
  return stats.draftedPerPosition.map((drafted, i) => (drafted === 0 ? 0 : stats.acceptedPerPosition[i]! / drafted));
}

/** Row `row` of a [1, T, W] tensor. */
export function rowOf(tensor: Tensor, row: number): Float32Array {
  const width = tensor.dims[2]!;
  return (tensor.data as Float32Array).subarray(row * width, (row + 1) * width);
}

export async function runDecoder(models: DecodeModels, embeds: Float32Array, count: number): Promise<{ logits: Tensor; hidden: Tensor }> {
  const out = await models.decoder.forward({ [tensorNames.decoder.inputsEmbeds]: floatTensor(embeds, [1, count, models.hidden]) });
  return { logits: out[tensorNames.decoder.logits]!, hidden: out[tensorNames.decoder.lastHiddenState]! };
}

/**
 * Commits tokens in order with the stop rules both loops share: EOS ends the page (not committed), max tokens ends it
 * and flags probable repetition. Returns false once decoding is over.
 */
export class Committer {
  readonly tokens: number[] = [];
  done = false;
  hitMaxTokens = false;

  constructor(private readonly options: DecodeOptions) {}

  commit(token: number): boolean {
    if (this.done) return false;
    if (token === this.options.eosId) {
      this.done = true;
      return false;
    }
    this.tokens.push(token);
    this.options.onToken?.(token);
    if (this.tokens.length >= this.options.maxNewTokens) {
      this.done = true;
      this.hitMaxTokens = true;
      return false;
    }
    return true;
  }
}

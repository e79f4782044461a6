/** Shared types of the greedy and FastMTP loops. */
import type { KvCacheModel, TokenEmbedder } from './cachedModel.js';
import type { LogitsProcessor } from './logitsProcessors.js';

export interface DecodeModels {
  embedder: TokenEmbedder;
  decoder: KvCacheModel;
  /** Needed by FastMTP only. */
  draft: KvCacheModel | null;
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
  /** Bytes handed to the runtime / returned by it during the steps (all graphs), resident cache views excluded. */
  bytesToDevice: number;
  bytesToHost: number;
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
    bytesToDevice: 0,
    bytesToHost: 0,
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

/** Bytes moved so far by the sessions decoding uses: take one reading before the steps and subtract it after. */
export function bytesMoved(models: DecodeModels): { toDevice: number; toHost: number } {
  const sessions = [models.decoder.session, models.embedder.session, ...(models.draft ? [models.draft.session] : [])];
  return {
    toDevice: sessions.reduce((sum, s) => sum + s.bytesToDevice, 0),
    toHost: sessions.reduce((sum, s) => sum + s.bytesToHost, 0),
  };
}

/**
 * Cache positions a page can reach: the prompt, every committed token, and the speculative rows of the last verify
 * pass (K + 1). Reserved once per page, so decoding never reallocates or copies a cache.
 */
export function pageCapacity(promptLength: number, options: DecodeOptions, k: number): number {
  return promptLength + options.maxNewTokens + k + 1;
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

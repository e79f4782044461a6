/**
 * THE property: FastMTP's output is token-for-token the greedy output, for every draft depth, on generated inputs,
 * on packs whose draft agrees with the decoder almost always, about half the time, and almost never.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPack, type LoadedPack } from '../pack/loadPack.js';
import { referencePackDir } from '../../../testing/referencePack/referencePackCache.js';
import { Rng } from '../../../testing/referencePack/rng.js';
import type { DraftVariant } from '../../../testing/referencePack/writeReferencePack.js';
import { CachedModel } from './cachedModel.js';
import { createDecodeModels, decodeOptionsFor } from './decodeModels.js';
import type { DecodeModels, DecodeStats } from './decodeTypes.js';
import { fastMtpDecode } from './fastMtpDecode.js';
import { greedyDecode } from './greedyDecode.js';

const INPUTS = 50;
const KS = [1, 2, 3];

/** A prompt: BOS, a run of "visual" rows (random vectors, as image features are not token embeddings), text tokens. */
async function generatedPrompt(models: DecodeModels, rng: Rng): Promise<{ embeds: Float32Array; length: number }> {
  const H = models.hidden;
  const visual = rng.int(3) === 0 ? 0 : 1 + rng.int(12);
  const text = Array.from({ length: 2 + rng.int(10) }, () => 10 + rng.int(models.vocab - 10));
  const bos = await models.embedder.embed([0]);
  const textRows = await models.embedder.embed(text);
  const length = 1 + visual + text.length;
  const embeds = new Float32Array(length * H);
  embeds.set(bos, 0);
  embeds.set(rng.weights(visual * H, 1), H);
  embeds.set(textRows, (1 + visual) * H);
  return { embeds, length };
}

interface VariantResult {
  mismatches: string[];
  /** Per K: pooled counters over all inputs. */
  pooled: Map<number, { steps: number; drafted: number[]; accepted: number[]; tokens: number; bonusSteps: number }>;
}

async function runVariant(pack: LoadedPack): Promise<VariantResult> {
  const models = createDecodeModels(pack);
  const rng = new Rng(2024);
  const mismatches: string[] = [];
  const pooled: VariantResult['pooled'] = new Map(KS.map((k) => [k, { steps: 0, drafted: new Array(k).fill(0), accepted: new Array(k).fill(0), tokens: 0, bonusSteps: 0 }]));
  for (let input = 0; input < INPUTS; input++) {
    const { embeds, length } = await generatedPrompt(models, rng);
    const options = decodeOptionsFor(pack, { maxNewTokens: 24 + rng.int(24) });
    const greedy = await greedyDecode(models, embeds, length, options);
    for (const k of KS) {
      const fast = await fastMtpDecode(models, embeds, length, k, options);
      if (fast.tokens.join(',') !== greedy.tokens.join(',') || fast.hitMaxTokens !== greedy.hitMaxTokens) {
        mismatches.push(`input ${input}, K=${k}: greedy [${greedy.tokens}] fastmtp [${fast.tokens}]`);
      }
      accumulate(pooled.get(k)!, fast.stats);
    }
  }
  return { mismatches, pooled };
}

function accumulate(into: VariantResult['pooled'] extends Map<number, infer V> ? V : never, stats: DecodeStats): void {
  into.steps += stats.steps;
  into.tokens += stats.tokens;
  stats.draftedPerPosition.forEach((v, i) => (into.drafted[i]! += v));
  stats.acceptedPerPosition.forEach((v, i) => (into.accepted[i]! += v));
  into.bonusSteps += stats.steps; // every verify step commits its bonus token unless decoding ended inside it
}

const rate = (p: { drafted: number[]; accepted: number[] }, i: number) => p.accepted[i]! / p.drafted[i]!;
/** Agreement of draft i given that drafts 0 … i − 1 were accepted. */
const conditionalRate = (p: { drafted: number[]; accepted: number[] }, i: number) =>
  i === 0 ? rate(p, 0) : p.accepted[i]! / p.accepted[i - 1]!;

describe.each<[DraftVariant]>([['high'], ['mid'], ['zero']])('FastMTP on the %s-agreement reference pack', (variant) => {
  let pack: LoadedPack;
  let result: VariantResult;

  beforeAll(async () => {
    pack = await loadPack(await referencePackDir(variant), { provider: 'cpu', intraOpThreads: 1 });
    result = await runVariant(pack);
  }, 300_000);

  afterAll(async () => {
    await Promise.all(Object.values(pack?.sessions ?? {}).map((s) => s.release()));
  });

  it(`is token-for-token identical to greedy on ${INPUTS} inputs for K = ${KS.join(', ')}`, () => {
    expect(result.mismatches).toEqual([]);
  });

  it('counts steps, drafts and committed tokens consistently (the bonus token is committed every step)', () => {
    for (const [k, p] of result.pooled) {
      const accepted = p.accepted.reduce((a, b) => a + b, 0);
      // Each input commits: its first token + per step (accepted + bonus), less what EOS / max tokens cut off in the
      // last step (at most K + 1 per input).
      expect(p.tokens).toBeLessThanOrEqual(INPUTS + p.steps + accepted);
      expect(p.tokens).toBeGreaterThanOrEqual(INPUTS + p.steps + accepted - INPUTS * (k + 1));
      for (let i = 1; i < k; i++) expect(p.accepted[i]!).toBeLessThanOrEqual(p.accepted[i - 1]!);
    }
  });

  it('shows the acceptance this variant was built for', () => {
    for (const [k, p] of result.pooled) {
      const first = rate(p, 0);
      if (variant === 'high') {
        expect(first).toBeGreaterThanOrEqual(0.9);
        for (let i = 1; i < k; i++) expect(conditionalRate(p, i)).toBeGreaterThanOrEqual(0.85);
        // τ well above 1: accepted drafts plus the bonus token per step
        expect(p.tokens / p.steps).toBeGreaterThan(1 + 0.8 * k * 0.8);
      } else if (variant === 'mid') {
        expect(first).toBeGreaterThan(0.3);
        expect(first).toBeLessThan(0.75);
      } else {
        expect(first).toBeLessThan(0.1);
        // with (almost) nothing accepted, steps ≈ tokens: each step's one committed token is the bonus token
        expect(p.tokens / p.steps).toBeLessThan(1.2);
        expect(p.tokens / p.steps).toBeGreaterThan(0.9);
      }
    }
  });
});

describe('the lossless check can fail', () => {
  it('detects a KV cache cut back one position short (a stale rejected draft left in the cache)', async () => {
    const pack = await loadPack(await referencePackDir('mid'), { provider: 'cpu', intraOpThreads: 1 });
    const models = createDecodeModels(pack);
    const truncate = CachedModel.prototype.truncate;
    CachedModel.prototype.truncate = function (this: CachedModel, length: number) {
      truncate.call(this, Math.min(length + 1, this.length));
    };
    try {
      const rng = new Rng(7);
      let differing = 0;
      for (let input = 0; input < 8; input++) {
        const { embeds, length } = await generatedPrompt(models, rng);
        const options = decodeOptionsFor(pack, { maxNewTokens: 30 });
        const greedy = await greedyDecode(models, embeds, length, options);
        const fast = await fastMtpDecode(models, embeds, length, 2, options);
        if (fast.tokens.join(',') !== greedy.tokens.join(',')) differing++;
      }
      expect(differing).toBeGreaterThan(0);
    } finally {
      CachedModel.prototype.truncate = truncate;
      await Promise.all(Object.values(pack.sessions).map((s) => s.release()));
    }
  }, 120_000);
});

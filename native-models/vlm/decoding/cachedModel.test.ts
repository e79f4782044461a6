/**
 * The in-place KV cache: positions decoded one run at a time (past read from the buffer, new rows written into it)
 * give the same candidates as one pass over the whole sequence, and cutting back is only a length change.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPack, type LoadedPack } from '../pack/loadPack.js';
import { referencePackDir } from '../../../testing/referencePack/referencePackCache.js';
import { Rng } from '../../../testing/referencePack/rng.js';
import { createDecodeModels } from './decodeModels.js';
import type { DecodeModels } from './decodeTypes.js';
import { runDecoder } from './graphRuns.js';
import { tensorNames } from '../pack/packContract.js';
import { floatTensor } from '../runtime/onnxRuntime.js';

let pack: LoadedPack;
let models: DecodeModels;

beforeAll(async () => {
  // mid: the decoder depends strongly on context, so a cache that is read wrong changes the candidates.
  pack = await loadPack(await referencePackDir('mid'), { provider: 'cpu', intraOpThreads: 1 });
  models = createDecodeModels(pack);
}, 120_000);

afterAll(async () => {
  await Promise.all(Object.values(pack?.sessions ?? {}).map((s) => s.release()));
});

function rows(models: DecodeModels, count: number, seed: number): Float32Array {
  return new Rng(seed).weights(count * models.hidden, 1);
}

const logitsOnly = [tensorNames.decoder.candidateLogits];

/** Top candidate logits of every row of one run (the loops fetch only the ids; the graph returns both). */
async function topLogits(embeds: Float32Array, count: number, on: DecodeModels = models): Promise<number[][]> {
  const out = await on.decoder.forward({ [tensorNames.decoder.inputsEmbeds]: floatTensor(embeds, [1, count, on.hidden]) }, count, logitsOnly);
  const logits = out[tensorNames.decoder.candidateLogits]!;
  const width = logits.dims[2]!;
  const data = logits.data as Float32Array;
  return Array.from({ length: count }, (_, r) => Array.from(data.subarray(r * width, r * width + 5)));
}

describe('CachedModel (caches read and written in place)', () => {
  it('decoding in pieces equals one pass over the whole sequence', async () => {
    const n = 12;
    const embeds = rows(models, n, 3);
    const H = models.hidden;
    models.decoder.reset(n);
    const whole = await topLogits(embeds, n);
    models.decoder.reset(n);
    const pieces: number[][] = [];
    for (const [from, to] of [[0, 5], [5, 6], [6, 10], [10, 12]] as const) {
      pieces.push(...(await topLogits(embeds.subarray(from * H, to * H), to - from)));
    }
    expect(models.decoder.length).toBe(n);
    for (let r = 0; r < n; r++) for (let c = 0; c < 5; c++) expect(pieces[r]![c]!).toBeCloseTo(whole[r]![c]!, 4);
  });

  it('cutting back forgets the rejected positions: after truncate, new rows see only the kept past', async () => {
    const kept = rows(models, 6, 5);
    const rejected = rows(models, 3, 6);
    const next = rows(models, 2, 7);
    models.decoder.reset(16);
    await runDecoder(models, kept, 6);
    await runDecoder(models, rejected, 3);
    models.decoder.truncate(6);
    const afterCut = await topLogits(next, 2);
    models.decoder.reset(16);
    await runDecoder(models, kept, 6);
    const clean = await topLogits(next, 2);
    for (let r = 0; r < 2; r++) for (let c = 0; c < 5; c++) expect(afterCut[r]![c]!).toBeCloseTo(clean[r]![c]!, 5);
    expect(models.decoder.grows).toBe(0);
  });

  it('a page that outgrows its reserved capacity moves to a larger buffer (counted) and decodes the same', async () => {
    const n = 9;
    const embeds = rows(models, n, 4);
    const H = models.hidden;
    models.decoder.reset(n);
    const whole = await topLogits(embeds, n);
    const fresh = createDecodeModels(pack);
    fresh.decoder.reset(2);
    const pieces: number[][] = [];
    for (const [from, to] of [[0, 3], [3, 4], [4, 9]] as const) {
      pieces.push(...(await topLogits(embeds.subarray(from * H, to * H), to - from, fresh)));
    }
    expect(fresh.decoder.grows).toBeGreaterThan(0);
    for (let r = 0; r < n; r++) for (let c = 0; c < 5; c++) expect(pieces[r]![c]!).toBeCloseTo(whole[r]![c]!, 4);
  });

  it('returns the pack’s number of candidates, sorted, and never the full logits', async () => {
    models.decoder.reset(4);
    const { candidates, hidden } = await runDecoder(models, rows(models, 2, 9), 2);
    expect(candidates.width).toBe(pack.manifest.candidates);
    expect(hidden).toBeNull(); // greedy decoding does not fetch the hidden states
    models.decoder.reset(4);
    const out = await models.decoder.forward({ [tensorNames.decoder.inputsEmbeds]: floatTensor(rows(models, 2, 9), [1, 2, models.hidden]) }, 2, [tensorNames.decoder.candidateLogits, tensorNames.decoder.candidateIds]);
    expect(Object.keys(out).filter((name) => !name.startsWith('new.')).sort()).toEqual([tensorNames.decoder.candidateIds, tensorNames.decoder.candidateLogits]); // no hidden states
    const width = pack.manifest.candidates;
    const row = (out[tensorNames.decoder.candidateLogits]!.data as Float32Array).subarray(width, 2 * width);
    for (let i = 1; i < row.length; i++) expect(row[i]!).toBeLessThanOrEqual(row[i - 1]!);
    expect(Array.from((out[tensorNames.decoder.candidateIds]!.data as Int32Array).subarray(width, 2 * width))).toEqual(Array.from(candidates.row(1).ids));
  });
});

/**
 * FastMTP with a compressed draft vocabulary (the draft head scores a fixed sorted id list, `draft_vocabulary`, and
 * maps its TopK indices back to real ids in the graph): still token-for-token greedy, every draft inside the list, and
 * the draft's candidates those of the full-vocabulary draft with the ids outside the list left out.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPack, type LoadedPack } from '../pack/loadPack.js';
import { tensorNames } from '../pack/packContract.js';
import { draftVocabularyIds } from '../../../testing/referencePack/draftVocabulary.js';
import { referencePackDir } from '../../../testing/referencePack/referencePackCache.js';
import { Rng } from '../../../testing/referencePack/rng.js';
import { type DraftVariant, referenceDraftVocabulary, writeReferencePack } from '../../../testing/referencePack/writeReferencePack.js';
import { createDecodeModels, decodeOptionsFor } from './decodeModels.js';
import type { DecodeModels } from './decodeTypes.js';
import { fastMtpDecode } from './fastMtpDecode.js';
import { RowIndices, runDecoder, runDraft } from './graphRuns.js';
import { greedyDecode } from './greedyDecode.js';

/** Ids < 48 of the reference tokenizer's 106: about half, so greedy often picks a token the draft cannot propose. */
const CUT = 48;
/**
 * A list that is not a prefix of the vocabulary (the added tokens 0–9, then every third id), so a graph that forgot to
 * map TopK's positions back to ids would return wrong ids (with a prefix list positions and ids coincide).
 */
const SPREAD = [...Array.from({ length: 10 }, (_, i) => i), ...Array.from({ length: 32 }, (_, i) => 10 + 3 * i)];
const INPUTS = 12;
const KS = [1, 2, 3];

const release = (pack: LoadedPack | undefined) => Promise.all(Object.values(pack?.sessions ?? {}).map((s) => s.release()));

describe('the draft vocabulary selection rule', () => {
  it('keeps ids below the cut, every added token and EOS, sorted, inside the vocabulary', () => {
    expect([...draftVocabularyIds(20, 5, [18, 7, 3, 25], 12)]).toEqual([0, 1, 2, 3, 4, 7, 12, 18]);
    expect([...draftVocabularyIds(4, 10, [], 1)]).toEqual([0, 1, 2, 3]);
    expect(() => draftVocabularyIds(20, 0, [], 1)).toThrow(/positive integer/);
  });
});

/** Text prompts of random in-vocabulary tokens after BOS. */
async function prompts(models: DecodeModels, rng: Rng): Promise<{ embeds: Float32Array; length: number }[]> {
  const out = [];
  for (let i = 0; i < INPUTS; i++) {
    const ids = [0, ...Array.from({ length: 2 + rng.int(12) }, () => 10 + rng.int(models.vocab - 10))];
    out.push({ embeds: await models.embedder.embed(ids), length: ids.length });
  }
  return out;
}

describe.each<[DraftVariant, string, number | number[]]>([
  ['high', 'ids < 48', CUT],
  ['mid', 'ids < 48', CUT],
  ['high', 'every third id', SPREAD],
])('FastMTP with a compressed draft vocabulary (%s pack, %s)', (variant, _label, vocabulary) => {
  let pack: LoadedPack;
  let full: LoadedPack;
  let subset: Set<number>;
  let dir: string;

  beforeAll(async () => {
    if (typeof vocabulary === 'number') {
      dir = await referencePackDir(variant, 1, 'views', vocabulary);
    } else {
      dir = mkdtempSync(join(tmpdir(), 'recto-draft-vocabulary-'));
      await writeReferencePack({ dir, variant, draftVocabulary: vocabulary });
    }
    pack = await loadPack(dir, { provider: 'cpu', intraOpThreads: 1 });
    full = await loadPack(await referencePackDir(variant), { provider: 'cpu', intraOpThreads: 1 });
    subset = new Set(typeof vocabulary === 'number' ? referenceDraftVocabulary(pack.manifest.dims.vocab, vocabulary) : vocabulary);
  }, 120_000);
  afterAll(async () => {
    await release(pack);
    await release(full);
    if (typeof vocabulary !== 'number') rmSync(dir, { recursive: true, force: true });
  });

  it('states how many ids its draft head scores', () => {
    expect(pack.manifest.draftVocabulary).toBe(subset.size); // ids < 48: the tokenizer's added tokens are ids 0–9
    expect(full.manifest.draftVocabulary).toBeUndefined();
  });

  it('decodes exactly greedy\'s tokens for K = 1–3, and every draft candidate lies in the subset', async () => {
    const models = createDecodeModels(pack);
    const draft = models.draft!;
    const forward = draft.forward.bind(draft);
    const outside: number[] = [];
    let draftIds = 0;
    draft.forward = async (inputs, count, outputs) => {
      const out = await forward(inputs, count, outputs);
      for (const id of out[tensorNames.draft.candidateIds]!.data as Int32Array) {
        draftIds++;
        if (!subset.has(id)) outside.push(id);
      }
      return out;
    };
    const options = decodeOptionsFor(pack, { maxNewTokens: 32 });
    let drafted = 0;
    let accepted = 0;
    let greedyOutside = 0;
    for (const [input, prompt] of (await prompts(models, new Rng(31))).entries()) {
      const greedy = await greedyDecode(models, prompt.embeds, prompt.length, options);
      greedyOutside += greedy.tokens.filter((t) => !subset.has(t)).length;
      for (const k of KS) {
        const fast = await fastMtpDecode(models, prompt.embeds, prompt.length, k, options);
        expect(fast.tokens, `input ${input}, K = ${k}`).toEqual(greedy.tokens);
        drafted += fast.stats.draftedPerPosition.reduce((a, b) => a + b, 0);
        accepted += fast.stats.acceptedPerPosition.reduce((a, b) => a + b, 0);
      }
    }
    expect(draftIds).toBeGreaterThan(0);
    expect(outside).toEqual([]);
    // Both paths ran: greedy chose tokens the draft cannot propose (rejected there), and in-subset drafts were accepted.
    expect(greedyOutside).toBeGreaterThan(0);
    expect(accepted).toBeGreaterThan(0);
    expect(accepted).toBeLessThan(drafted);
  }, 120_000);

  it('ranks as the full-vocabulary draft does with the ids outside the subset left out (same weights)', async () => {
    const [a, b] = [createDecodeModels(pack), createDecodeModels(full)];
    const rng = new Rng(5);
    const ids = [0, ...Array.from({ length: 20 }, () => 10 + rng.int(a.vocab - 10))];
    const n = ids.length;
    const rows = async (models: DecodeModels, name: 'compressed' | 'full') => {
      models.decoder.reset(n);
      models.draft!.reset(n);
      const hidden = (await runDecoder(models, await models.embedder.embed(ids), n, true)).hidden!;
      const out = await runDraft(models, await models.embedder.embed(ids.slice(1)), { tensor: hidden, rows: new RowIndices().range(0, n - 1) });
      expect(out.candidates.rows, name).toBe(n - 1);
      return Array.from({ length: n - 1 }, (_, row) => [...out.candidates.row(row).ids]);
    };
    const compressed = await rows(a, 'compressed');
    const whole = await rows(b, 'full');
    let compared = 0;
    for (const [row, list] of compressed.entries()) {
      // The full draft's C best restricted to the subset are a prefix of the compressed draft's C best.
      const restricted = whole[row]!.filter((id) => subset.has(id));
      expect(list.slice(0, restricted.length), `row ${row}`).toEqual(restricted);
      compared += restricted.length;
    }
    expect(compared).toBeGreaterThan(n); // not vacuous: several ids per row on average
  });
});

/**
 * FastMTP's compressed draft vocabulary: which token ids the draft head scores. The same rule as the export's
 * `draft_vocabulary_ids` (native-models/export/pack_manifest.py; native-models/export/README.md).
 *
 * BPE tokenizers (DeepSeek's included) number their merged tokens in merge order, and merges are made most frequent
 * pair first, so low ids approximate the most common pieces: the first `cut` ids, plus every added token (specials,
 * `<td>`, grounding tokens: numbered after the merges, yet emitted on every page) and EOS. A draft outside the list is
 * never proposed; the decoder's verification keeps the committed text greedy's either way, so the cut only moves
 * acceptance, never the output.
 */
export function draftVocabularyIds(vocab: number, cut: number, addedIds: Iterable<number>, eos: number): Int32Array {
  if (!Number.isInteger(cut) || cut < 1) throw new Error(`draft vocabulary cut must be a positive integer, got ${cut}`);
  const ids = new Set<number>();
  for (let id = 0; id < Math.min(cut, vocab); id++) ids.add(id);
  for (const id of [...addedIds, eos]) if (id >= 0 && id < vocab) ids.add(id);
  return Int32Array.from([...ids].sort((a, b) => a - b));
}

/** Columns `ids` of a row-major [hidden, vocab] head: the draft head over the compressed vocabulary, [hidden, ids]. */
export function headColumns(head: Float32Array, hidden: number, vocab: number, ids: Int32Array): Float32Array {
  const out = new Float32Array(hidden * ids.length);
  for (let h = 0; h < hidden; h++) {
    const row = h * vocab;
    const to = h * ids.length;
    for (let j = 0; j < ids.length; j++) out[to + j] = head[row + ids[j]!]!;
  }
  return out;
}

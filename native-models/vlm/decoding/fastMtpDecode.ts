/**
 * The FastMTP loop. One step, after llama.cpp's speculative-simple:
 *   draft K tokens (the draft block applied recursively) → batch [newest, d_1 … d_K] → one decoder pass →
 *   accept the longest matching prefix + the bonus token → commit → cut both KV caches back → stop check.
 * The committed sequence is exactly greedyDecode's: every committed token is the decoder's own processed argmax
 * given exactly the greedy context.
 */
import { bytesMoved, Committer, type DecodeModels, type DecodeOptions, type DecodeResult, emptyStats, pageCapacity } from './decodeTypes.js';
import { type HiddenRows, releaseHidden, RowIndices, runDecoder, runDraft } from './graphRuns.js';
import { pickCandidate } from './logitsProcessors.js';
import { verifyDrafts } from './verifier.js';

/**
 * @param promptEmbeds [promptLength × H]
 * @param k            draft depth K ≥ 1
 */
export async function fastMtpDecode(
  models: DecodeModels,
  promptEmbeds: Float32Array,
  promptLength: number,
  k: number,
  options: DecodeOptions,
): Promise<DecodeResult> {
  const draft = models.draft;
  if (!draft) throw new Error('FastMTP needs the pack’s draft block');
  if (!Number.isInteger(k) || k < 1) throw new Error(`FastMTP draft depth must be an integer ≥ 1, got ${k}`);
  const H = models.hidden;
  const { processors } = options;
  const stats = emptyStats(k);
  const committer = new Committer(options);

  // Prefill the decoder; its last row gives the first token (the "newest" token, not yet in the decoder cache).
  let start = performance.now();
  models.decoder.reset(pageCapacity(promptLength, options, k));
  draft.reset(pageCapacity(promptLength, options, k));
  const prefill = await runDecoder(models, promptEmbeds, promptLength, true);
  let newest = pickCandidate(prefill.candidates.row(promptLength - 1), [], processors);
  // The draft block sees pairs (decoder hidden state at position i − 1, embedding of token i); these are the pairs
  // not yet in its cache: prompt tokens 1 … P − 1 and the newest token. Hidden rows are picked by the draft graph
  // from the decoder's output as it came (on a GPU it never leaves the device); embeddings are [n × H] host rows.
  const rows = new RowIndices();
  let catchUpHidden: HiddenRows | null = { tensor: prefill.hidden!, rows: rows.range(0, promptLength) };
  let catchUpEmbeds = concatRows(promptEmbeds.subarray(H, promptLength * H), await models.embedder.embed([newest]));
  stats.prefillMs = performance.now() - start;

  start = performance.now();
  const ort0 = { decoder: models.decoder.session.ortMs, draft: draft.session.ortMs, embed: models.embedder.session.ortMs };
  const bytes0 = bytesMoved(models);
  let cancelled = false;
  let going = committer.commit(newest);
  // The committed tokens followed by this step's drafts, the context each pick sees: one array kept in step with the
  // committed tokens and cut back after each step, rather than a new [...context, ...drafts] copy per pick.
  const generated: number[] = [];
  while (going) {
    if (options.shouldStop?.()) {
      cancelled = true;
      break;
    }
    const committedCount = keepInStep(generated, committer.tokens); // includes `newest`

    // 1. Draft K tokens: first on the catch-up pairs, then recursively on the block's own hidden state and draft.
    let out = await runDraft(models, catchUpEmbeds, catchUpHidden!);
    releaseHidden(catchUpHidden!.tensor);
    catchUpHidden = null;
    const draftCommitted = draft.length; // entries for committed positions only; later ones are speculative
    const drafts: number[] = [];
    for (let i = 0; ; i++) {
      const last = out.candidates.rows - 1;
      const draftToken = pickCandidate(out.candidates.row(last), generated, processors);
      drafts.push(draftToken);
      generated.push(draftToken);
      if (i === k - 1) break;
      const previous = out.hidden;
      out = await runDraft(models, models.embedder.row(draftToken) ?? (await models.embedder.embed([draftToken])), { tensor: previous, rows: rows.range(last, 1) });
      releaseHidden(previous);
    }
    releaseHidden(out.hidden);
    stats.draftCalls += k;

    // 2. Verify: the decoder scores [newest, d_1 … d_K] in one pass; a_i is its choice after d_1 … d_i.
    const decoderBase = models.decoder.length;
    const verifyIds = [newest, ...drafts];
    const verifyEmbeds = models.embedder.knownRows(verifyIds) ?? (await models.embedder.embed(verifyIds));
    const verify = await runDecoder(models, verifyEmbeds, k + 1, true);
    // a_i sees the committed tokens and d_1 … d_i: from i = K down, cutting `generated` back one draft at a time.
    const targets = new Array<number>(k + 1);
    for (let i = k; i >= 0; i--) {
      generated.length = committedCount + i;
      targets[i] = pickCandidate(verify.candidates.row(i), generated, processors);
    }
    const { accepted, bonus } = verifyDrafts(drafts, targets);
    const m = accepted.length;
    stats.steps++;
    for (let i = 0; i < k; i++) {
      stats.draftedPerPosition[i]!++;
      if (i < m) stats.acceptedPerPosition[i]!++;
    }

    // 3. Commit the accepted drafts, then the bonus token, under the same stop rules as the greedy loop.
    for (const token of [...accepted, bonus]) {
      going = committer.commit(token);
      if (!going) break;
    }
    options.onStep?.(stats, committer.tokens.length);
    if (!going) {
      releaseHidden(verify.hidden);
      break;
    }

    // 4. Cut both caches back (a length change, no copy): the decoder keeps newest + accepted; the draft drops its
    //    speculative entries. The next run overwrites the rejected rows in place.
    models.decoder.truncate(decoderBase + 1 + m);
    draft.truncate(draftCommitted);

    // 5. Next catch-up pairs: decoder hidden rows 0 … m with embeddings of d_1 … d_m and the bonus token.
    catchUpHidden = { tensor: verify.hidden!, rows: rows.range(0, m + 1) };
    catchUpEmbeds = concatRows(verifyEmbeds.subarray(H, (m + 1) * H), models.embedder.row(bonus) ?? (await models.embedder.embed([bonus])));
    newest = bonus;
  }
  if (catchUpHidden) releaseHidden(catchUpHidden.tensor); // decoding ended before the draft block read it
  stats.decodeMs = performance.now() - start;
  stats.decoderOrtMs = models.decoder.session.ortMs - ort0.decoder;
  stats.draftOrtMs = draft.session.ortMs - ort0.draft;
  stats.decodeOrtMs = stats.decoderOrtMs + stats.draftOrtMs + (models.embedder.session.ortMs - ort0.embed);
  const bytes = bytesMoved(models);
  stats.bytesToDevice = bytes.toDevice - bytes0.toDevice;
  stats.bytesToHost = bytes.toHost - bytes0.toHost;
  stats.tokens = committer.tokens.length;
  return { tokens: committer.tokens, hitMaxTokens: committer.hitMaxTokens, cancelled, stats };
}

/** Makes `generated` equal to `committed` (it may hold drafts past a shorter common prefix); returns the length. */
function keepInStep(generated: number[], committed: readonly number[]): number {
  generated.length = Math.min(generated.length, committed.length);
  for (let i = generated.length; i < committed.length; i++) generated.push(committed[i]!);
  return committed.length;
}

function concatRows(a: Float32Array, b: Float32Array): Float32Array {
  const out = new Float32Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

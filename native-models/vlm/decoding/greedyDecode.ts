/** The plain greedy loop: prefill, then one decoder pass per token. FastMTP must reproduce its output exactly. */
import { Committer, type DecodeModels, type DecodeOptions, type DecodeResult, bytesMoved, emptyStats, pageCapacity } from './decodeTypes.js';
import { runDecoder } from './graphRuns.js';
import { pickCandidate } from './logitsProcessors.js';

/** @param promptEmbeds [promptLength × H], the prompt with its visual tokens already in place. */
export async function greedyDecode(models: DecodeModels, promptEmbeds: Float32Array, promptLength: number, options: DecodeOptions): Promise<DecodeResult> {
  const stats = emptyStats(0);
  const committer = new Committer(options);
  const ortStart = () => models.decoder.session.ortMs + models.embedder.session.ortMs;

  // Prefill: the whole prompt in one pass; its last row gives the first token.
  let start = performance.now();
  models.decoder.reset(pageCapacity(promptLength, options, 0));
  const prefill = await runDecoder(models, promptEmbeds, promptLength);
  let next = pickCandidate(prefill.candidates.row(promptLength - 1), committer.tokens, options.processors);
  stats.prefillMs = performance.now() - start;

  start = performance.now();
  const ort0 = ortStart();
  const decoderOrt0 = models.decoder.session.ortMs;
  const bytes0 = bytesMoved(models);
  let cancelled = false;
  while (committer.commit(next)) {
    if (options.shouldStop?.()) {
      cancelled = true;
      break;
    }
    const step = await runDecoder(models, models.embedder.row(next) ?? (await models.embedder.embed([next])), 1);
    next = pickCandidate(step.candidates.row(0), committer.tokens, options.processors);
    stats.steps++;
    options.onStep?.(stats, committer.tokens.length);
  }
  stats.decodeMs = performance.now() - start;
  stats.decodeOrtMs = ortStart() - ort0;
  stats.decoderOrtMs = models.decoder.session.ortMs - decoderOrt0;
  const bytes = bytesMoved(models);
  stats.bytesToDevice = bytes.toDevice - bytes0.toDevice;
  stats.bytesToHost = bytes.toHost - bytes0.toHost;
  stats.tokens = committer.tokens.length;
  return { tokens: committer.tokens, hitMaxTokens: committer.hitMaxTokens, cancelled, stats };
}

/**
 * Which GPU execution providers actually work here: each is asked to load the reference decoder and run one step
 * (a provider that fails to load is reported, not replaced by CPU). WebGPU gets the 'shared-buffer' pack, whose
 * caches can stay on the device, and reports whether they did, and whether FastMTP equals greedy there (the hidden
 * states going from the decoder's session to the draft block's). Used by gpu-check.sh to pick the providers.
 */
import { createDecodeModels, decodeOptionsFor } from '../../native-models/vlm/decoding/decodeModels.js';
import type { DecodeModels } from '../../native-models/vlm/decoding/decodeTypes.js';
import { fastMtpDecode } from '../../native-models/vlm/decoding/fastMtpDecode.js';
import { greedyDecode } from '../../native-models/vlm/decoding/greedyDecode.js';
import { runDecoder } from '../../native-models/vlm/decoding/graphRuns.js';
import { loadPack, type LoadedPack } from '../../native-models/vlm/pack/loadPack.js';
import { referencePackDir } from '../../testing/referencePack/referencePackCache.js';
import { SharedBufferCache } from '../../native-models/vlm/decoding/sharedBufferCache.js';
import { type ProviderId, supportedProviders } from '../../native-models/vlm/runtime/onnxRuntime.js';

export interface ProbeResult {
  provider: ProviderId;
  listed: boolean;
  bundled: boolean;
  ok: boolean;
  detail: string;
}

/**
 * FastMTP K = 3 against greedy on this provider, 24 tokens from a short prompt: the whole loop, with the hidden
 * states handed from the decoder's session to the draft block's (device tensors on WebGPU) — one line for the probe.
 */
async function fastMtpAgainstGreedy(pack: LoadedPack, models: DecodeModels): Promise<string> {
  const options = decodeOptionsFor(pack, { maxNewTokens: 24 });
  const ids = [pack.manifest.specialTokens.bos, 11, 12, 13, 14];
  const embeds = await models.embedder.embed(ids);
  const greedy = await greedyDecode(models, embeds, ids.length, options);
  const fast = await fastMtpDecode(models, embeds, ids.length, 3, options);
  const same = fast.tokens.length === greedy.tokens.length && fast.tokens.every((t, i) => t === greedy.tokens[i]);
  const perStep = Math.round(fast.stats.bytesToHost / Math.max(1, fast.stats.steps));
  return `FastMTP K=3 ${same ? 'identical to' : 'DIFFERENT FROM'} greedy (${fast.tokens.length} tokens), ${perStep} B to the host per step`;
}

export async function probeProviders(candidates: ProviderId[] = ['cuda', 'webgpu', 'tensorrt', 'dml', 'coreml']): Promise<ProbeResult[]> {
  const listed = supportedProviders();
  const results: ProbeResult[] = [];
  for (const provider of candidates) {
    const entry = listed.find((p) => p.name === provider);
    const base = { provider, listed: Boolean(entry), bundled: entry?.bundled ?? false };
    if (!entry) {
      results.push({ ...base, ok: false, detail: 'not offered by this onnxruntime-node build' });
      continue;
    }
    try {
      const pack = await loadPack(await referencePackDir('high', 1, provider === 'webgpu' ? 'shared-buffer' : 'views'), { provider });
      const models = createDecodeModels(pack);
      models.decoder.reset(1);
      const out = await runDecoder(models, new Float32Array(pack.manifest.dims.hidden), 1);
      const ok = pack.provider === provider && out.candidates.width === pack.manifest.candidates;
      const onDevice = models.decoder instanceof SharedBufferCache && models.decoder.residentOnDevice;
      const lossless = ok ? await fastMtpAgainstGreedy(pack, models) : '';
      const detail = ok ? `decoder step ran; KV caches ${onDevice ? 'stay on the device' : 'are host buffers (copied to the device each run)'}; ${lossless}` : pack.warnings.join('; ') || `ran on ${pack.provider}`;
      results.push({ ...base, ok, detail });
      await Promise.all(Object.values(pack.sessions).map((s) => s.release()));
    } catch (error) {
      results.push({ ...base, ok: false, detail: (error as Error).message.split('\n')[0]! });
    }
  }
  return results;
}


/**
 * Which GPU execution providers actually work here: each is asked to load the reference decoder and run one step
 * (a provider that fails to load is reported, not replaced by CPU). WebGPU gets the 'shared-buffer' pack, whose
 * caches can stay on the device, and reports whether they did. Used by gpu-check.sh to pick the providers.
 */
import { createDecodeModels } from '../../native-models/vlm/decoding/decodeModels.js';
import { runDecoder } from '../../native-models/vlm/decoding/graphRuns.js';
import { loadPack } from '../../native-models/vlm/pack/loadPack.js';
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
      const detail = ok ? `decoder step ran; KV caches ${onDevice ? 'stay on the device' : 'are host buffers (copied to the device each run)'}` : pack.warnings.join('; ') || `ran on ${pack.provider}`;
      results.push({ ...base, ok, detail });
      await Promise.all(Object.values(pack.sessions).map((s) => s.release()));
    } catch (error) {
      results.push({ ...base, ok: false, detail: (error as Error).message.split('\n')[0]! });
    }
  }
  return results;
}


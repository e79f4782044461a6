/**
 * Which GPU execution providers actually work here: each is asked, without fallback, to load the reference
 * decoder and run one step. Used by gpu-check.sh to pick the provider for the benchmark.
 */
import { createDecodeModels } from '../../native-models/vlm/decoding/decodeModels.js';
import { runDecoder } from '../../native-models/vlm/decoding/decodeTypes.js';
import { loadPack } from '../../native-models/vlm/pack/loadPack.js';
import { referencePackDir } from '../../testing/referencePack/referencePackCache.js';
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
  const dir = await referencePackDir('high');
  const results: ProbeResult[] = [];
  for (const provider of candidates) {
    const entry = listed.find((p) => p.name === provider);
    const base = { provider, listed: Boolean(entry), bundled: entry?.bundled ?? false };
    if (!entry) {
      results.push({ ...base, ok: false, detail: 'not offered by this onnxruntime-node build' });
      continue;
    }
    try {
      const pack = await loadPack(dir, { provider });
      const models = createDecodeModels(pack);
      models.decoder.reset(1);
      const out = await runDecoder(models, new Float32Array(pack.manifest.dims.hidden), 1);
      const ok = pack.provider === provider && out.candidates.width === pack.manifest.candidates;
      results.push({ ...base, ok, detail: ok ? 'decoder step ran' : pack.warnings.join('; ') || `ran on ${pack.provider}` });
      await Promise.all(Object.values(pack.sessions).map((s) => s.release()));
    } catch (error) {
      results.push({ ...base, ok: false, detail: (error as Error).message.split('\n')[0]! });
    }
  }
  return results;
}


/** The benchmark's rows have the fields and its FastMTP runs reproduce greedy (no timing is asserted). */
import { describe, expect, it } from 'vitest';
import { loadPack } from '../../native-models/vlm/pack/loadPack.js';
import { referencePackDir } from '../../testing/referencePack/referencePackCache.js';
import { benchmarkPack } from './decodeBenchmark.js';

describe('benchmarkPack', () => {
  it('produces one greedy row (k = 0) and one row per K with the issue’s fields', async () => {
    const pack = await loadPack(await referencePackDir('high'), { provider: 'cpu', intraOpThreads: 1 });
    const runs = await benchmarkPack('high', pack, { inputs: 2, tokens: 12, ks: [1, 2], contextReps: 1 }, () => undefined);
    await Promise.all(Object.values(pack.sessions).map((s) => s.release()));
    expect(runs.map((r) => r.k)).toEqual([0, 1, 2]);
    for (const r of runs) {
      expect(Object.keys(r).sort()).toEqual(
        [
          'accept_per_pos',
          'bytes_to_device_per_step',
          'bytes_to_host_per_step',
          'bytes_to_host_per_step_by_ctx',
          'ctx_ratio_2000_100',
          'ctx_ratio_2000_100_median',
          'identical_to_greedy',
          'ideal_speedup',
          'k',
          'overhead_fraction',
          'overhead_fraction_min',
          'provider',
          'speedup',
          'step_ms_ctx100',
          'step_ms_ctx1000',
          'step_ms_ctx2000',
          'step_ms_ctx500',
          'tau',
          'tokens_per_s',
          'variant',
        ].sort(),
      );
      // Caches stay in the runtime: what a step returns to JS does not grow with the context.
      const byCtx = Object.values(r.bytes_to_host_per_step_by_ctx);
      expect(new Set(byCtx).size).toBe(1);
      expect(r.bytes_to_host_per_step).toBeGreaterThan(0);
      expect(r.identical_to_greedy).toBe(true);
      expect(r.provider).toBe('cpu');
      expect(r.accept_per_pos).toHaveLength(r.k);
      expect(r.overhead_fraction).toBeGreaterThanOrEqual(0);
      expect(r.overhead_fraction).toBeLessThan(1);
    }
    expect(runs[2]!.tau).toBeGreaterThan(1.5); // high-agreement pack
  }, 120_000);
});

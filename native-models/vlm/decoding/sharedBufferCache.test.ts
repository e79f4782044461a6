/**
 * The 'shared-buffer' cache form (the GPU form, packContract.ts): on CPU it decodes exactly as the 'views' form of the
 * same weights and stays lossless under FastMTP; on a device provider its caches are uploaded once and then fed back
 * and bound as outputs without crossing to the host (checked against a recording session, as no GPU is needed to
 * check the wiring; on a machine where WebGPU loads, the last test runs the real thing).
 */
import * as ort from 'onnxruntime-node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { join } from 'node:path';
import { deviceOutputsOf, loadPack, type LoadedPack, verifyPackFiles } from '../pack/loadPack.js';
import { type CacheNames, decoderCacheNames, type GraphRole, graphRoles, tensorNames } from '../pack/packContract.js';
import { referencePackDir } from '../../../testing/referencePack/referencePackCache.js';
import { Rng } from '../../../testing/referencePack/rng.js';
import { SimulatedDevice } from '../../../testing/referencePack/simulatedDevice.js';
import { sessionOptionsFor, TimedSession } from '../runtime/onnxRuntime.js';
import { createDecodeModels, decodeOptionsFor } from './decodeModels.js';
import type { DecodeModels } from './decodeTypes.js';
import { fastMtpDecode } from './fastMtpDecode.js';
import { greedyDecode } from './greedyDecode.js';
import { SharedBufferCache } from './sharedBufferCache.js';

const release = (pack: LoadedPack | undefined) => Promise.all(Object.values(pack?.sessions ?? {}).map((s) => s.release()));

describe('shared-buffer caches on the CPU provider', () => {
  let views: LoadedPack;
  let shared: LoadedPack;
  beforeAll(async () => {
    // mid: the decoder depends strongly on context, so a cache read or cut wrongly changes the tokens.
    views = await loadPack(await referencePackDir('mid'), { provider: 'cpu', intraOpThreads: 1 });
    shared = await loadPack(await referencePackDir('mid', 1, 'shared-buffer'), { provider: 'cpu', intraOpThreads: 1 });
  }, 120_000);
  afterAll(async () => {
    await release(views);
    await release(shared);
  });

  async function prompt(models: DecodeModels, rng: Rng): Promise<{ embeds: Float32Array; length: number }> {
    const ids = [0, ...Array.from({ length: 3 + rng.int(12) }, () => 10 + rng.int(models.vocab - 10))];
    return { embeds: await models.embedder.embed(ids), length: ids.length };
  }

  it('decodes the same tokens as the views form of the same weights, and FastMTP equals greedy on it', async () => {
    expect(shared.manifest.cacheForm).toBe('shared-buffer');
    const a = createDecodeModels(views);
    const b = createDecodeModels(shared);
    expect(b.decoder).toBeInstanceOf(SharedBufferCache);
    const rng = new Rng(77);
    for (let input = 0; input < 8; input++) {
      const { embeds, length } = await prompt(a, rng);
      const options = decodeOptionsFor(views, { maxNewTokens: 20 + rng.int(20) });
      const reference = await greedyDecode(a, embeds, length, options);
      const greedy = await greedyDecode(b, embeds, length, options);
      expect(greedy.tokens).toEqual(reference.tokens);
      for (const k of [1, 2, 3]) {
        const fast = await fastMtpDecode(b, embeds, length, k, options);
        expect(fast.tokens, `input ${input}, K=${k}`).toEqual(greedy.tokens);
      }
    }
  }, 120_000);
});

/** A session that records what each run was given and answers like onnxruntime-node on WebGPU. */
function recordingSession(caches: readonly CacheNames[], shape: { heads: number; headDim: number }) {
  const calls: { feeds: Record<string, ort.Tensor>; fetches: Record<string, ort.Tensor | null> }[] = [];
  const disposed: ort.Tensor[] = [];
  const fake = {
    inputNames: [],
    outputNames: [],
    run: vi.fn(async (feeds: Record<string, ort.Tensor>, fetches: Record<string, ort.Tensor | null>) => {
      calls.push({ feeds: { ...feeds }, fetches: { ...fetches } });
      const out: Record<string, ort.Tensor> = { candidate_ids: new ort.Tensor('int32', new Int32Array(2), [1, 1, 2]) };
      for (const [name, fetch] of Object.entries(fetches)) {
        if (!name.startsWith('present.')) continue;
        // A null fetch is allocated by the runtime on the device; a bound one comes back as itself.
        const dims = (feeds[name.replace('present.', 'past.')] as ort.Tensor).dims;
        const tensor: ort.Tensor =
          fetch ?? ort.Tensor.fromGpuBuffer({} as never, { dataType: 'float32', dims, dispose: () => void disposed.push(tensor) });
        out[name] = tensor;
      }
      return out;
    }),
  };
  const session = new TimedSession(fake as unknown as ort.InferenceSession, 'webgpu', 'decoder graph');
  const model = new SharedBufferCache(session, caches, shape);
  return { session, model, calls, disposed };
}

describe('shared-buffer caches on a device provider (wiring)', () => {
  const caches = decoderCacheNames(2);
  const shape = { heads: 2, headDim: 4 };
  const ids = ['candidate_ids'];
  const row = (count: number) => ({ inputs_embeds: new ort.Tensor('float32', new Float32Array(count * 8), [1, count, 8]) });
  const lengths = (call: { feeds: Record<string, ort.Tensor> }) => [Number(call.feeds.seqlens_k!.data[0]), Number(call.feeds.total_sequence_length!.data[0])];

  it('uploads once, then feeds the device tensors back as past and binds them as present; cutting back only changes the length', async () => {
    const { session, model, calls, disposed } = recordingSession(caches, shape);
    model.reset(16);
    await model.forward(row(5), 5, ids); // prefill
    const first = calls[0]!;
    expect(lengths(first)).toEqual([4, 5]);
    for (const c of caches) {
      expect(first.feeds[c.pastKey]!.location).toBe('cpu'); // the upload of the (zero) host buffer
      expect(first.feeds[c.pastKey]!.dims).toEqual([1, 2, 16, 4]);
      expect(first.fetches[c.presentKey]).toBeNull(); // allocated on the device by the runtime
    }
    expect(model.residentOnDevice).toBe(true);
    const uploaded = session.bytesToDevice;
    expect(uploaded).toBe(4 * caches.length * 2 * 2 * 16 * 4 + 5 * 8 * 4 + 8); // caches + embeddings + two int32 lengths

    await model.forward(row(4), 4, ids); // a verify pass of 4 rows
    model.truncate(6); // 2 of them rejected
    await model.forward(row(1), 1, ids);
    for (const call of calls.slice(1)) {
      for (const c of caches) {
        const past = call.feeds[c.pastKey]!;
        expect(past.location).toBe('gpu-buffer');
        expect(call.fetches[c.presentKey]).toBe(past); // the same buffer in and out: written in place
      }
    }
    expect(calls.slice(1).map(lengths)).toEqual([
      [8, 9],
      [6, 7],
    ]);
    // After the upload only the embeddings and the lengths went to the runtime: no cache bytes.
    expect(session.bytesToDevice - uploaded).toBe((4 + 1) * 8 * 4 + 2 * 8);
    expect(disposed).toHaveLength(0);

    // A later page that fits reuses the device buffers; one that does not frees them and uploads again.
    model.reset(16);
    await model.forward(row(2), 2, ids);
    expect(calls.at(-1)!.feeds[caches[0]!.pastKey]!.location).toBe('gpu-buffer');
    model.reset(32);
    expect(disposed).toHaveLength(2 * caches.length);
    await model.forward(row(2), 2, ids);
    expect(calls.at(-1)!.feeds[caches[0]!.pastKey]!.dims).toEqual([1, 2, 32, 4]);
    expect(calls.at(-1)!.fetches[caches[0]!.presentKey]).toBeNull();
  });

  it('refuses to outgrow its capacity on the device (a page reserves it up front) instead of reading past the buffer', async () => {
    const { model } = recordingSession(caches, shape);
    model.reset(4);
    await model.forward(row(3), 3, ids);
    await expect(model.forward(row(2), 2, ids)).rejects.toThrow(/KV cache full on the device/);
  });

  it('marks the present caches as gpu-buffer outputs on WebGPU only', () => {
    const deviceOutputs = ['present.0.key', 'present.0.value'];
    expect(sessionOptionsFor('webgpu', { deviceOutputs }).preferredOutputLocation).toEqual({ 'present.0.key': 'gpu-buffer', 'present.0.value': 'gpu-buffer' });
    expect(sessionOptionsFor('cpu', { deviceOutputs }).preferredOutputLocation).toBeUndefined();
    expect(sessionOptionsFor('cuda', { deviceOutputs }).preferredOutputLocation).toBeUndefined();
  });
});

/** The pack's graphs as real CPU sessions behind a simulated WebGPU device (testing/referencePack/simulatedDevice.ts). */
async function simulatedModels(dir: string, device: SimulatedDevice): Promise<{ models: DecodeModels; release: () => Promise<void> }> {
  const { manifest } = await verifyPackFiles(dir);
  const real: ort.InferenceSession[] = [];
  const sessions = {} as Record<GraphRole, TimedSession>;
  for (const role of graphRoles) {
    const session = await ort.InferenceSession.create(join(dir, manifest.files.find((f) => f.role === role)!.path), { intraOpNumThreads: 1 });
    real.push(session);
    sessions[role] = device.session(session, `${role} graph`, deviceOutputsOf(role, manifest));
  }
  const models = createDecodeModels({ manifest, sessions } as unknown as LoadedPack);
  return { models, release: async () => void (await Promise.all(real.map((s) => s.release()))) };
}

describe('FastMTP on a GPU (simulated: real CPU sessions answering as onnxruntime-node on WebGPU)', () => {
  it('keeps hidden states and caches on the device: only candidate ids cross, nothing leaks, and the tokens are greedy’s', async () => {
    const dir = await referencePackDir('mid', 1, 'shared-buffer');
    const views = await loadPack(await referencePackDir('mid'), { provider: 'cpu', intraOpThreads: 1 });
    const device = new SimulatedDevice();
    const { models, release: releaseDevice } = await simulatedModels(dir, device);
    try {
      const reference = createDecodeModels(views);
      const layers = views.manifest.dims.layers;
      const rng = new Rng(31);
      for (let input = 0; input < 3; input++) {
        const ids = [0, ...Array.from({ length: 4 + rng.int(8) }, () => 10 + rng.int(models.vocab - 10))];
        const embeds = await reference.embedder.embed(ids);
        const options = decodeOptionsFor(views, { maxNewTokens: 16 + rng.int(16) });
        const greedy = await greedyDecode(reference, embeds, ids.length, options);
        for (const k of [0, 1, 2, 3]) {
          device.runs.length = 0;
          const result = k === 0 ? await greedyDecode(models, embeds, ids.length, options) : await fastMtpDecode(models, embeds, ids.length, k, options);
          expect(result.tokens, `input ${input}, K=${k}`).toEqual(greedy.tokens);
          const graphRuns = device.runs.filter((r) => r.label !== 'embed graph');
          expect(graphRuns.length).toBeGreaterThan(0);
          for (const run of graphRuns) expect(run.toHost, `${run.label}, K=${k}`).toEqual([tensorNames.decoder.candidateIds]);
          const draftRuns = graphRuns.filter((r) => r.label === 'draft graph');
          expect(draftRuns.length).toBe(k === 0 ? 0 : result.stats.draftCalls);
          for (const run of draftRuns) expect(run.inputs[tensorNames.draft.hiddenStates]).toBe('gpu-buffer');
          // The draft block's caches are uploaded by its first run on the device (or a page that needs more room).
          expect(draftRuns.filter((r) => r.inputs['past.0.key'] !== 'gpu-buffer').length).toBeLessThanOrEqual(1);
          // Every hidden-state tensor was freed once read: what is left on the device is the caches.
          expect(device.live, `K=${k}`).toBe(2 * layers + (k === 0 && input === 0 ? 0 : 2));
        }
      }
    } finally {
      await releaseDevice();
      await release(views);
    }
  }, 120_000);
});

describe('shared-buffer pack on WebGPU', () => {
  it('keeps the caches on the device where WebGPU loads, and says so and runs on CPU where it does not', async () => {
    const pack = await loadPack(await referencePackDir('high', 1, 'shared-buffer'), { provider: 'webgpu', intraOpThreads: 1 });
    try {
      const models = createDecodeModels(pack);
      const options = decodeOptionsFor(pack, { maxNewTokens: 12 });
      const ids = [0, 11, 12, 13];
      const embeds = await models.embedder.embed(ids);
      const result = await greedyDecode(models, embeds, ids.length, options);
      if (pack.provider === 'webgpu') {
        expect((models.decoder as SharedBufferCache).residentOnDevice).toBe(true);
        // Candidate ids only: nothing that grows with the cache, no hidden states.
        expect(result.stats.bytesToHost / result.stats.steps).toBeLessThan(64 * 1024);
        const fast = await fastMtpDecode(models, embeds, ids.length, 3, options);
        expect(fast.tokens).toEqual(result.tokens);
        expect(fast.stats.bytesToHost / fast.stats.steps).toBeLessThan(64 * 1024);
      } else {
        console.log(`SKIPPED: WebGPU not available here — ${pack.warnings.join('; ')}`);
        expect(pack.provider).toBe('cpu');
        expect(pack.warnings.join('\n')).toMatch(/execution provider webgpu could not load/);
        expect(result.tokens.length).toBeGreaterThan(0);
      }
    } finally {
      await release(pack);
    }
  }, 120_000);
});

/**
 * The Python export run for real: native-models/export/testing/export_tiny_pack.py builds a tiny DeepSeek-OCR-shaped
 * torch model (random weights, jina-ocr-v1's module layout) and exports it with the same code the real weights go
 * through (graph_export.py), in both cache forms. Here each pack is loaded as the app loads one (hashes, contract),
 * its graphs are checked to read the caches in place, greedy decoding is compared token for token with PyTorch's own
 * greedy on the same prompts, and FastMTP K = 1–3 with greedy on the exported pack; the routed experts are checked to be
 * one com.microsoft MoE node per layer (or, exported with `--moe-form gather`, the gather form, decoding the same).
 * Needs a Python with torch and onnx (RECTO_PYTHON, else /usr/bin/python3, else python3); without one it skips.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelProto } from '../../testing/referencePack/onnxSchema.js';
import { createDecodeModels, decodeOptionsFor } from '../vlm/decoding/decodeModels.js';
import { Candidates, RowIndices, runDecoder } from '../vlm/decoding/graphRuns.js';
import { fastMtpDecode } from '../vlm/decoding/fastMtpDecode.js';
import { greedyDecode } from '../vlm/decoding/greedyDecode.js';
import { loadPack, type LoadedPack } from '../vlm/pack/loadPack.js';
import { type CacheForm, cacheForms, tensorNames } from '../vlm/pack/packContract.js';
import { floatTensor } from '../vlm/runtime/onnxRuntime.js';

const APT_COMMAND = 'apt-get install -y --no-install-recommends python3-torch python3-onnx python3-numpy';
const SCRIPT = resolve(import.meta.dirname, 'testing/export_tiny_pack.py');
const PROMPTS = 6;
/** The tiny model's MoE layout (tiny_deepseek_ocr.py): decoder layers 1 and 2 and the draft block are MoE layers. */
const TINY_MOE = { experts: 8, topK: 2, inter: 32, layers: { decoder: 2, draft: 1 } };
type MoeForm = 'fused' | 'gather';
const TOKENS = 24;

/** The first of RECTO_PYTHON, /usr/bin/python3, python3 that imports torch and onnx. */
function findPython(): string | null {
  for (const candidate of [process.env.RECTO_PYTHON, '/usr/bin/python3', 'python3']) {
    if (candidate && spawnSync(candidate, ['-c', 'import torch.onnx, onnx, numpy'], { stdio: 'ignore' }).status === 0) return candidate;
  }
  return null;
}

const python = findPython();
if (!python) console.warn(`SKIPPED: export round trip — no Python with torch and onnx (RECTO_PYTHON, /usr/bin/python3, python3); install with: ${APT_COMMAND}`);

interface Reference {
  eos: number;
  prompts: number[][];
  greedy: number[][];
  margins: number[][];
  /** subset*: the compressed draft vocabulary's ids and the PyTorch head's top-1 among them. */
  draft: { ids: number[]; top: number[]; topLogit: number[]; margins: number[]; subset: number[]; subsetTop: number[]; subsetTopLogit: number[] };
  vision: { size: number; features: number[]; newline: number[]; separator: number[] };
}

interface OnnxNode {
  input: string[];
  output: string[];
  op_type: string;
  domain: string;
  attribute: { name: string; i?: number | { toNumber(): number }; g?: OnnxGraph }[];
}
interface OnnxGraph {
  node: OnnxNode[];
}

/**
 * Every node that reads a cache input's data, with the If branch it sits in: the cache inputs and whatever a free view
 * op (Reshape, Squeeze, Unsqueeze, Identity) makes of them, followed into the If subgraphs that use them by name.
 * Shape reads only the dims and is left out.
 */
function cacheReaders(graph: OnnxGraph, cache: Set<string>, within = ''): { op: string; node: OnnxNode; within: string }[] {
  const VIEWS = new Set(['Reshape', 'Squeeze', 'Unsqueeze', 'Identity']);
  const readers: { op: string; node: OnnxNode; within: string }[] = [];
  for (const node of graph.node) {
    for (const attribute of node.attribute) {
      if (attribute.g) readers.push(...cacheReaders(attribute.g, cache, `${node.op_type}.${attribute.name}`));
    }
    if (node.op_type === 'Shape' || !node.input.some((name) => cache.has(name))) continue;
    if (VIEWS.has(node.op_type) && cache.has(node.input[0]!)) node.output.forEach((name) => cache.add(name));
    else readers.push({ op: node.op_type, node, within });
  }
  return readers;
}

const intAttribute = (node: OnnxNode, name: string) => {
  const value = node.attribute.find((a) => a.name === name)?.i;
  return value === undefined ? undefined : Number(typeof value === 'number' ? value : value.toNumber());
};

describe.skipIf(!python)('Python export of a tiny DeepSeek-OCR-shaped model (export_tiny_pack.py)', () => {
  let out: string;
  let reference: Reference;

  beforeAll(() => {
    out = mkdtempSync(join(tmpdir(), 'recto-export-'));
    const run = spawnSync(python!, [SCRIPT, out, '--prompts', String(PROMPTS), '--tokens', String(TOKENS)], {
      encoding: 'utf8',
      timeout: 240_000,
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' }, // no __pycache__ left in the source tree
    });
    if (run.status !== 0) throw new Error(`${SCRIPT} failed (status ${run.status}):\n${(run.stderr ?? '').slice(-4000)}`);
    reference = JSON.parse(readFileSync(join(out, 'reference.json'), 'utf8')) as Reference;
  }, 240_000);
  afterAll(() => {
    if (out) rmSync(out, { recursive: true, force: true });
  });

  it('gives each DeepSeek gate variant its MoE form and folds the scaling factor where the gate applies it (test_moe_ops.py)', () => {
    const run = spawnSync(python!, ['-m', 'unittest', 'test_moe_ops.py'], {
      cwd: import.meta.dirname,
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
    });
    expect(run.status, (run.stderr ?? '').slice(-4000)).toBe(0);
  }, 120_000);

  // Both cache forms with the routed experts fused (the default), the gather form (`--moe-form gather`) once, and the
  // draft head over a compressed vocabulary (`--draft-vocab 150`: ids < 150, the added tokens 297–299 and EOS) once.
  const packs: [string, CacheForm, MoeForm][] = [
    ...cacheForms.map((form): [string, CacheForm, MoeForm] => [form, form, 'fused']),
    ['views-gather', 'views', 'gather'],
    ['views-draft-vocabulary', 'views', 'fused'],
  ];
  describe.each(packs)('pack %s (cache form %s, experts %s)', (folder, form, moeForm) => {
    const compressed = folder === 'views-draft-vocabulary';
    let pack: LoadedPack;
    beforeAll(async () => {
      pack = await loadPack(join(out, folder), { provider: 'cpu', intraOpThreads: 1 });
    });
    afterAll(async () => {
      await Promise.all(Object.values(pack?.sessions ?? {}).map((s) => s.release()));
    });

    it('loads with its hashes and the pack contract checked, and states its cache form', () => {
      expect(pack.manifest.cacheForm).toBe(form);
      expect(pack.manifest.candidates).toBe(pack.manifest.noRepeatNgram.windowSize - pack.manifest.noRepeatNgram.ngramSize + 2);
      expect(pack.manifest.dims).toMatchObject({ hidden: 64, layers: 3, heads: 4, headDim: 16, vocab: 300 });
      expect(pack.manifest.draftVocabulary).toBe(compressed ? reference.draft.subset.length : undefined);
    });

    it('maps the draft head\'s TopK positions back to token ids through its draft_vocabulary list, when compressed', () => {
      const bytes = readFileSync(join(out, folder, 'draft.onnx'));
      const model = ModelProto.toObject(ModelProto.decode(bytes), { longs: Number, defaults: true }) as {
        graph: OnnxGraph & { initializer: { name: string; dims: number[]; data_type: number; raw_data: Uint8Array }[] };
      };
      const producer = model.graph.node.find((n) => n.output.includes(tensorNames.draft.candidateIds))!;
      const list = model.graph.initializer.find((t) => t.name === 'draft_vocabulary');
      if (!compressed) {
        expect(list).toBeUndefined();
        return;
      }
      // candidate_ids = Gather(draft_vocabulary, TopK's indices); the list is the sorted subset, int32 [Vd].
      expect([producer.op_type, producer.input[0]]).toEqual(['Gather', 'draft_vocabulary']);
      expect(model.graph.node.find((n) => n.output.includes(producer.input[1]!))?.op_type).toBe('TopK');
      expect([list!.data_type, list!.dims]).toEqual([6, [reference.draft.subset.length]]); // int32 [Vd]
      expect(Array.from(new Int32Array(Uint8Array.from(list!.raw_data).buffer))).toEqual(reference.draft.subset);
      expect(reference.draft.subset.some((id, i) => id !== i)).toBe(true); // not a prefix: positions ≠ ids
    });

    it('reads the caches in place: no Concat, Transpose, Slice or other copy of a cache input', () => {
      for (const role of ['decoder', 'draft'] as const) {
        const bytes = readFileSync(join(out, folder, `${role}.onnx`));
        const model = ModelProto.toObject(ModelProto.decode(bytes), { longs: Number, defaults: true }) as { graph: OnnxGraph & { input: { name: string }[] } };
        const cache = new Set(model.graph.input.map((i) => i.name).filter((name) => name.startsWith('past.')));
        const layers = role === 'decoder' ? pack.manifest.dims.layers : 1;
        expect(cache.size).toBe(2 * layers);
        const readers = cacheReaders(model.graph, cache);
        if (form === 'views') {
          // Each past view is read by one strided FusedMatMul (transBatchB), inside the If that skips it when P = 0.
          expect(readers.map((r) => `${r.op} in ${r.within}`)).toEqual(new Array(2 * layers).fill('FusedMatMul in If.else_branch'));
          for (const r of readers) expect(intAttribute(r.node, 'transBatchB')).toBe(1);
        } else {
          // Each layer's two buffers go to one GroupQueryAttention, which writes the new rows in place.
          expect(readers.map((r) => r.op)).toEqual(new Array(layers).fill('GroupQueryAttention'));
          for (const r of readers) {
            expect(intAttribute(r.node, 'num_heads')).toBe(pack.manifest.dims.heads);
            expect(intAttribute(r.node, 'kv_num_heads')).toBe(pack.manifest.dims.heads);
            expect(intAttribute(r.node, 'do_rotary') ?? 0).toBe(0); // RoPE is applied before, with the model's own code
          }
        }
      }
    });

    it('writes the routed experts as one com.microsoft MoE node per MoE layer, or in the gather form when asked', () => {
      for (const role of ['decoder', 'draft'] as const) {
        const bytes = readFileSync(join(out, folder, `${role}.onnx`));
        const model = ModelProto.toObject(ModelProto.decode(bytes), { longs: Number, defaults: true }) as {
          graph: OnnxGraph & { initializer: { name: string; dims: number[] }[] };
        };
        const moe = model.graph.node.filter((n) => n.op_type === 'MoE' && n.domain === 'com.microsoft');
        // Gathers whose data is a stack of expert weights: a [E, ·, ·] initializer with E the routed expert count.
        const stacks = new Set(model.graph.initializer.filter((t) => t.dims.length === 3 && t.dims[0] === TINY_MOE.experts).map((t) => t.name));
        const expertGathers = model.graph.node.filter((n) => n.op_type === 'Gather' && stacks.has(n.input[0]!));
        const moeLayers = TINY_MOE.layers[role];
        if (moeForm === 'fused') {
          expect(moe).toHaveLength(moeLayers);
          expect(expertGathers).toHaveLength(0);
          // fc1 [E, 2F, H] (gate and up rows interleaved), no fc1 bias, fc2 [E, H, F]; the draft block's gate renormalises.
          const dims = (name: string) => model.graph.initializer.find((t) => t.name === name)?.dims;
          for (const node of moe) {
            expect(node.input.map((name, i) => (i === 0 || i === 1 ? 'x' : name === '' ? '' : dims(name)))).toEqual(
              ['x', 'x', [TINY_MOE.experts, 2 * TINY_MOE.inter, 64], '', [TINY_MOE.experts, 64, TINY_MOE.inter]]);
            expect(intAttribute(node, 'k')).toBe(TINY_MOE.topK);
            expect(intAttribute(node, 'swiglu_fusion')).toBe(1);
            expect(intAttribute(node, 'normalize_routing_weights')).toBe(role === 'draft' ? 1 : 0);
          }
        } else {
          expect(moe).toHaveLength(0);
          expect(expertGathers).toHaveLength(3 * moeLayers); // gate, up and down stacks of each layer
        }
      }
    });

    it('picks its hidden-state rows in the draft graph (pack format 3): one Gather on axis 1 by hidden_rows', () => {
      expect(pack.manifest.formatVersion).toBe(3);
      const bytes = readFileSync(join(out, folder, 'draft.onnx'));
      const model = ModelProto.toObject(ModelProto.decode(bytes), { longs: Number, defaults: true }) as { graph: OnnxGraph };
      const readers = cacheReaders(model.graph, new Set([tensorNames.draft.hiddenStates]));
      expect(readers.map((r) => [r.op, intAttribute(r.node, 'axis'), r.node.input[1]])).toEqual([['Gather', 1, tensorNames.draft.hiddenRows]]);
    });

    it('encodes a page as PyTorch does (SAM and CLIP stand-ins, projector, newline and separator rows)', async () => {
      const { size, features, newline, separator } = reference.vision;
      const pixels = Float32Array.from({ length: 3 * size * size }, (_, i) => 0.5 * Math.sin(i));
      const out = await pack.sessions.vision.run({ [tensorNames.vision.pixelValues]: floatTensor(pixels, [1, 3, size, size]) });
      const side = size / 64;
      expect(out[tensorNames.vision.imageFeatures]!.dims).toEqual([1, side, side, pack.manifest.dims.hidden]);
      const close = (actual: ArrayLike<number>, wanted: number[]) => {
        expect(actual.length).toBe(wanted.length);
        expect(Math.max(...wanted.map((w, i) => Math.abs(actual[i]! - w)))).toBeLessThan(1e-4);
      };
      close(out[tensorNames.vision.imageFeatures]!.data as Float32Array, features);
      close(out[tensorNames.vision.imageNewline]!.data as Float32Array, newline);
      close(out[tensorNames.vision.viewSeparator]!.data as Float32Array, separator);
    });

    it('runs the FastMTP head as PyTorch does, whole or in two pieces through its cache', async () => {
      const models = createDecodeModels(pack);
      // With a compressed draft vocabulary: PyTorch's head restricted to the subset's ids.
      const { ids } = reference.draft;
      const top = compressed ? reference.draft.subsetTop : reference.draft.top;
      const topLogit = compressed ? reference.draft.subsetTopLogit : reference.draft.topLogit;
      const H = models.hidden;
      const n = ids.length;
      models.decoder.reset(n);
      const decoded = await runDecoder(models, await models.embedder.embed(ids), n, true);
      const hidden = decoded.hidden!; // [1, n, H], the decoder's last hidden states, fed to the draft graph as they came
      const embeds = await models.embedder.embed(ids.slice(1));
      const draft = models.draft!;
      const indices = new RowIndices();
      const outputs = [tensorNames.draft.candidateIds, tensorNames.draft.candidateLogits];
      // Pairs (hidden state at i − 1, embedding of token i), i = 1 … n − 1: all at once, then split at `cut`; the
      // draft graph picks rows from … to − 1 of the whole hidden-state tensor itself (hidden_rows).
      const run = async (from: number, to: number) => {
        const count = to - from;
        const feeds = {
          [tensorNames.draft.inputsEmbeds]: floatTensor(embeds.subarray(from * H, to * H), [1, count, H]),
          [tensorNames.draft.hiddenStates]: hidden,
          [tensorNames.draft.hiddenRows]: indices.range(from, count),
        };
        const out = await draft.forward(feeds, count, outputs);
        const candidates = new Candidates(out, tensorNames.draft);
        const logits = out[tensorNames.draft.candidateLogits]!.data as Float32Array;
        return Array.from({ length: count }, (_, row) => ({ ids: candidates.row(row).ids, logits: logits.subarray(row * candidates.width, (row + 1) * candidates.width) }));
      };
      draft.reset(n);
      const whole = await run(0, n - 1);
      const cut = Math.floor(n / 2);
      draft.reset(n);
      const pieces = [...(await run(0, cut)), ...(await run(cut, n - 1))];
      const subset = new Set(reference.draft.subset);
      for (const rows of [whole, pieces]) {
        expect(rows.map((r) => r.ids[0])).toEqual(top);
        if (compressed) expect(rows.every((r) => r.ids.every((id) => subset.has(id)))).toBe(true);
        rows.forEach((r, i) => expect(Math.abs(r.logits[0]! - topLogit[i]!)).toBeLessThan(1e-3));
      }
    });

    it('decodes greedy exactly as PyTorch does, and FastMTP K = 1–3 equals greedy', async () => {
      const models = createDecodeModels(pack);
      // Every candidate any draft run returns, to check that a compressed draft never proposes an id outside its list.
      const draftCandidates = new Set<number>();
      const draft = models.draft!;
      const forward = draft.forward.bind(draft);
      draft.forward = async (inputs, count, outputs) => {
        const result = await forward(inputs, count, outputs);
        for (const id of result[tensorNames.draft.candidateIds]!.data as Int32Array) draftCandidates.add(id);
        return result;
      };
      // Plain greedy on both sides: the no-repeat rule is off here as in the Python reference.
      const options = decodeOptionsFor(pack, { maxNewTokens: TOKENS, processors: [] });
      let drafted = 0;
      let accepted = 0;
      for (const [input, prompt] of reference.prompts.entries()) {
        const embeds = await models.embedder.embed(prompt);
        const greedy = await greedyDecode(models, embeds, prompt.length, options);
        const margin = Math.min(...reference.margins[input]!);
        expect(greedy.tokens, `prompt ${input} (smallest PyTorch logit margin ${margin.toExponential(2)})`).toEqual(reference.greedy[input]);
        for (const k of [1, 2, 3]) {
          const fast = await fastMtpDecode(models, embeds, prompt.length, k, options);
          expect(fast.tokens, `prompt ${input}, K = ${k}`).toEqual(greedy.tokens);
          drafted += fast.stats.draftedPerPosition.reduce((a, b) => a + b, 0);
          accepted += fast.stats.acceptedPerPosition.reduce((a, b) => a + b, 0);
        }
      }
      console.log(`export round trip (${folder}): ${reference.prompts.length} prompts × ${TOKENS} tokens identical to PyTorch; FastMTP accepted ${accepted} of ${drafted} drafts`);
      // The fixture's MTP head is trained to agree with its decoder, so both the accepted and the rejected path ran.
      expect(accepted).toBeGreaterThan(0);
      expect(accepted).toBeLessThan(drafted);
      if (compressed) expect([...draftCandidates].filter((id) => !reference.draft.subset.includes(id))).toEqual([]);
      else expect(Math.max(...draftCandidates)).toBeGreaterThan(Math.max(...reference.draft.subset.filter((id) => id < 150)));
    });
  });
});

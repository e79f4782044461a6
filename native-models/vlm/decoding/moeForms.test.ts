/**
 * The routed experts in their two forms (testing/referencePack/graphParts.ts MoeForm): the fused com.microsoft MoE
 * node the packs use and the gather form of standard ops compute the same function, so the same weights written
 * either way decode the same tokens; and the fused decoder has one MoE node per MoE layer and no Gather of expert
 * weights (the copy the fused form exists to avoid).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelProto } from '../../../testing/referencePack/onnxSchema.js';
import { referencePackDir } from '../../../testing/referencePack/referencePackCache.js';
import { toyDims } from '../../../testing/referencePack/referenceDims.js';
import { Rng } from '../../../testing/referencePack/rng.js';
import { TOY_RESIDUAL_SCALE, writeReferencePack } from '../../../testing/referencePack/writeReferencePack.js';
import { loadPack, type LoadedPack } from '../pack/loadPack.js';
import { tensorNames } from '../pack/packContract.js';
import { floatTensor } from '../runtime/onnxRuntime.js';
import { createDecodeModels, decodeOptionsFor } from './decodeModels.js';
import { greedyDecode } from './greedyDecode.js';

interface Node {
  op_type: string;
  domain: string;
  input: string[];
}

function decoderNodes(dir: string): Node[] {
  const model = ModelProto.toObject(ModelProto.decode(readFileSync(join(dir, 'decoder.onnx'))), { defaults: true }) as { graph: { node: Node[] } };
  return model.graph.node;
}

describe('routed experts: the fused MoE node and the gather form', () => {
  let scratch: string;
  let fused: LoadedPack;
  let gather: LoadedPack;
  let fusedDir: string;
  let gatherDir: string;
  beforeAll(async () => {
    // mid: the decoder depends strongly on its layers, so an expert computed wrongly changes the tokens.
    fusedDir = await referencePackDir('mid');
    scratch = mkdtempSync(join(tmpdir(), 'recto-moe-gather-'));
    gatherDir = join(scratch, 'pack');
    await writeReferencePack({ dir: gatherDir, variant: 'mid', dims: { ...toyDims, residualScale: TOY_RESIDUAL_SCALE.mid, moeForm: 'gather' } });
    fused = await loadPack(fusedDir, { provider: 'cpu', intraOpThreads: 1 });
    gather = await loadPack(gatherDir, { provider: 'cpu', intraOpThreads: 1 });
  }, 120_000);
  afterAll(async () => {
    for (const pack of [fused, gather]) await Promise.all(Object.values(pack?.sessions ?? {}).map((s) => s.release()));
    rmSync(scratch, { recursive: true, force: true });
  });

  it('writes one com.microsoft MoE node per MoE layer and gathers no expert weights; the gather form has no MoE node', () => {
    const moeLayers = toyDims.decoder.layers - toyDims.decoder.denseLayers;
    const nodes = decoderNodes(fusedDir);
    expect(nodes.filter((n) => n.op_type === 'MoE' && n.domain === 'com.microsoft')).toHaveLength(moeLayers);
    expect(nodes.filter((n) => n.op_type === 'Gather' && n.input.some((i) => i.includes('mlp.experts')))).toHaveLength(0);
    const gathered = decoderNodes(gatherDir);
    expect(gathered.filter((n) => n.op_type === 'MoE')).toHaveLength(0);
    expect(gathered.filter((n) => n.op_type === 'Gather' && n.input.some((i) => i.includes('mlp.experts')))).toHaveLength(3 * moeLayers);
  });

  it('computes the same candidates and decodes the same tokens', async () => {
    const a = createDecodeModels(fused);
    const b = createDecodeModels(gather);
    const rng = new Rng(12);
    // A prefill of many rows (each expert picked by several tokens) and single-token steps.
    const embeds = rng.weights(40 * a.hidden, 1);
    const logits = [tensorNames.decoder.candidateLogits, tensorNames.decoder.candidateIds];
    const run = async (models: typeof a) => {
      models.decoder.reset(40);
      const out = await models.decoder.forward({ [tensorNames.decoder.inputsEmbeds]: floatTensor(embeds, [1, 40, models.hidden]) }, 40, logits);
      return { values: out[tensorNames.decoder.candidateLogits]!.data as Float32Array, ids: out[tensorNames.decoder.candidateIds]!.data as Int32Array };
    };
    const [x, y] = [await run(a), await run(b)];
    let worst = 0;
    for (let i = 0; i < x.values.length; i++) worst = Math.max(worst, Math.abs(x.values[i]! - y.values[i]!));
    expect(worst).toBeLessThan(1e-4);
    for (let input = 0; input < 6; input++) {
      const ids = [0, ...Array.from({ length: 3 + rng.int(10) }, () => 10 + rng.int(a.vocab - 10))];
      const prompt = await a.embedder.embed(ids);
      const options = decodeOptionsFor(fused, { maxNewTokens: 24 });
      const left = await greedyDecode(a, prompt, ids.length, options);
      const right = await greedyDecode(b, prompt, ids.length, options);
      expect(left.tokens, `input ${input}`).toEqual(right.tokens);
    }
  }, 120_000);
});

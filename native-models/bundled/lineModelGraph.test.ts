/**
 * The line recognizer's graph rewrite (lineModelGraph.ts): each rewrite on a small graph built for it, computing what
 * the original computes; the shipped PP-OCRv4 graph rewritten where expected; and the recognizer reading real receipt
 * strips the same through the rewritten graph as through the graph as shipped (../shared/testdata; skipped with a
 * reason where absent).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { DataType, ModelProto } from '../../testing/referencePack/onnxSchema.js';
import { GraphBuilder } from '../../testing/referencePack/graphBuilder.js';
import { defaultTestdataRoot } from '../../testing/testdataPaths.js';
import { simplifyLineModel } from './lineModelGraph.js';
import { LineRecognizer, lineModelFiles } from './lineRecognizer.js';

/** Deterministic values in [−1, 1). */
function values(count: number, seed: number): Float32Array {
  const out = new Float32Array(count);
  let s = seed;
  for (let i = 0; i < count; i++) {
    s = (s * 1103515245 + 12345) % 2147483648;
    out[i] = s / 1073741824 - 1;
  }
  return out;
}

/**
 * PP-LCNetV3's block as paddle2onnx writes it: a padded 3×3 convolution, its affine (scalar first in the Mul), a
 * hard-swish in four operations, an affine, a 1×1 convolution; then an affine before a padded convolution (which must
 * stay: its zero padding is not the affine's).
 */
function blockGraph(): Uint8Array {
  const g = new GraphBuilder('block');
  const x = g.input('x', DataType.FLOAT, [1, 4, 6, 9]);
  const w1 = g.floatInit('w1', values(4 * 4 * 9, 1), [4, 4, 3, 3]);
  const b1 = g.floatInit('b1', values(4, 2), [4]);
  const c1 = g.op1('Conv', [x, w1, b1], { kernel_shape: [3, 3], pads: [1, 1, 1, 1] });
  const scaled = g.op1('Mul', [g.floatInit('s1', new Float32Array([1.7]), [1]), c1]);
  const shifted = g.op1('Add', [scaled, g.floatInit('t1', new Float32Array([0.3]), [1])]);
  const plus3 = g.op1('Add', [shifted, g.scalar(3)]);
  const clipped = g.op1('Clip', [plus3, g.scalar(0), g.scalar(6)]);
  const swish = g.op1('Div', [g.op1('Mul', [shifted, clipped]), g.scalar(6)]);
  const a2 = g.op1('Add', [g.op1('Mul', [g.floatInit('s2', new Float32Array([0.8]), [1]), swish]), g.floatInit('t2', new Float32Array([-0.2]), [1])]);
  const c2 = g.op1('Conv', [a2, g.floatInit('w2', values(5 * 4, 3), [5, 4, 1, 1]), g.floatInit('b2', values(5, 4), [5])], { kernel_shape: [1, 1] });
  const a3 = g.op1('Add', [g.op1('Mul', [g.floatInit('s3', new Float32Array([1.2]), [1]), c2]), g.floatInit('t3', new Float32Array([0.5]), [1])]);
  const relu = g.op1('Relu', [a3]);
  const a4 = g.op1('Add', [g.op1('Mul', [g.floatInit('s4', new Float32Array([0.9]), [1]), relu]), g.floatInit('t4', new Float32Array([0.4]), [1])]);
  const c3 = g.op1('Conv', [a4, g.floatInit('w3', values(5 * 9, 5), [5, 1, 3, 3])], { kernel_shape: [3, 3], pads: [1, 1, 1, 1], group: 5 });
  g.output(c3, 'y', DataType.FLOAT, [1, 5, 6, 9]);
  return g.serialize().model;
}

async function run(model: Uint8Array, input: Float32Array, dims: number[]): Promise<Float32Array> {
  const session = await ort.InferenceSession.create(model, { intraOpNumThreads: 1 });
  try {
    const outputs = await session.run({ [session.inputNames[0]!]: new ort.Tensor('float32', input, dims) });
    return outputs[session.outputNames[0]!]!.data as Float32Array;
  } finally {
    await session.release();
  }
}

/** The model's operators, in order. */
const opTypes = (model: Uint8Array): string[] => (ModelProto.decode(model) as unknown as { graph: { node: Array<{ op_type: string }> } }).graph.node.map((n) => n.op_type);

describe('the line model graph rewrite', () => {
  it('folds the affines into the convolutions and spells the hard-swish with HardSigmoid, computing the same', async () => {
    const original = blockGraph();
    const { model, rewrites } = simplifyLineModel(original);
    // c1's and c2's affines (Conv → Mul → Add), the hard-swish, the affine before the 1×1 c2; not the one before c3.
    expect(rewrites).toEqual({ convAffine: 2, hardSwish: 1, affineIntoPointwise: 1 });
    expect(opTypes(model)).toEqual(['Conv', 'HardSigmoid', 'Mul', 'Conv', 'Relu', 'Mul', 'Add', 'Conv', 'Identity']);
    const input = values(4 * 6 * 9, 7).map((v) => 4 * v);
    const [before, after] = [await run(original, input, [1, 4, 6, 9]), await run(model, input, [1, 4, 6, 9])];
    expect(after.length).toBe(before.length);
    const worst = before.reduce((m, v, i) => Math.max(m, Math.abs(v - after[i]!)), 0);
    expect(worst).toBeLessThan(1e-4);
    expect(before.some((v) => Math.abs(v) > 0.5)).toBe(true);
  });

  it('leaves a graph without the patterns as it is', () => {
    const g = new GraphBuilder('plain');
    const x = g.input('x', DataType.FLOAT, [1, 2, 3, 3]);
    g.output(g.op1('Relu', [g.op1('Add', [x, g.scalar(3)])]), 'y', DataType.FLOAT, [1, 2, 3, 3]);
    const original = g.serialize().model;
    const { model, rewrites } = simplifyLineModel(original);
    expect(rewrites).toEqual({ convAffine: 0, hardSwish: 0, affineIntoPointwise: 0 });
    expect(model).toBe(original);
  });

  it('rewrites every block of the shipped PP-OCRv4 recognizer', () => {
    const { model, rewrites } = simplifyLineModel(readFileSync(lineModelFiles().model));
    // 28 convolutions of PP-LCNetV3 with an affine and a hard-swish; 12 of the affines after them feed a 1×1 convolution.
    expect(rewrites).toEqual({ convAffine: 28, hardSwish: 28, affineIntoPointwise: 12 });
    const ops = opTypes(model);
    // 28 hard-swishes and the two squeeze-and-excitation gates the graph already had.
    expect(ops.filter((op) => op === 'HardSigmoid')).toHaveLength(30);
    expect(ops).not.toContain('Clip');
  });
});

// A development receipt (bench/fields/heldOutVendors.ts keeps its vendor out of the held-out split).
const receipt = path.join(defaultTestdataRoot, 'receipts', 'img', '102.jpg');
const haveReceipt = existsSync(receipt);
if (!haveReceipt) console.warn(`SKIPPED: the rewritten line model on a real receipt: ${receipt} is absent (the test documents, ../shared/testdata)`);

describe.skipIf(!haveReceipt)('the rewritten line model on a real receipt', () => {
  const rewritten = new LineRecognizer();
  const asShipped = new LineRecognizer(lineModelFiles, { asShipped: true });
  afterAll(async () => {
    await Promise.all([rewritten.dispose(), asShipped.dispose()]);
  });

  it('reads every strip of the page as the graph as shipped does', async () => {
    const { data, info } = await sharp(receipt).greyscale().raw().toBuffer({ resolveWithObject: true });
    // Strips a line high at a fixed step, whatever they cut: the two graphs must agree on any input.
    const strips = [];
    for (let top = 0; top + 34 <= info.height && strips.length < 30; top += 45) {
      strips.push({ data: new Uint8Array(data.subarray(top * info.width, (top + 34) * info.width)), width: info.width, height: 34 });
    }
    const [a, b] = await Promise.all([Promise.all(strips.map((s) => rewritten.read(s))), Promise.all(strips.map((s) => asShipped.read(s)))]);
    expect(rewritten.unavailable).toBeNull();
    expect(a.filter((r) => r && r.text.trim().length > 3).length).toBeGreaterThan(strips.length / 3);
    for (const [i, reading] of a.entries()) {
      const other = b[i]!;
      expect(reading!.text).toBe(other!.text);
      expect(reading!.characters.map((c) => [c.x0, c.x1])).toEqual(other!.characters.map((c) => [c.x0, c.x1]));
      reading!.characters.forEach((c, k) => expect(Math.abs(c.probability - other!.characters[k]!.probability)).toBeLessThan(2e-3));
    }
  });
});

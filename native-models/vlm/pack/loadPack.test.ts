import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { externalDataFiles } from './graphReferences.js';
import { loadPack, verifyPackFiles } from './loadPack.js';
import { GraphBuilder } from '../../../testing/referencePack/graphBuilder.js';
import { DataType } from '../../../testing/referencePack/onnxSchema.js';
import { sha256Bytes } from './manifest.js';
import { referencePackDir } from '../../../testing/referencePack/referencePackCache.js';

describe('model pack loading', () => {
  let source: string;
  const copy = () => {
    const dir = mkdtempSync(join(tmpdir(), 'recto-pack-copy-'));
    cpSync(source, dir, { recursive: true });
    return dir;
  };

  beforeAll(async () => {
    source = await referencePackDir('high');
  }, 120_000);

  it('loads a good pack, checks hashes and tensor names, and reports the provider', async () => {
    const pack = await loadPack(source, { provider: 'cpu' });
    expect(pack.provider).toBe('cpu');
    expect(pack.manifestSha256).toBe(sha256Bytes(readFileSync(join(source, 'manifest.json'))));
    expect([...pack.sessions.decoder.outputNames]).toContain('last_hidden_state');
    await Promise.all(Object.values(pack.sessions).map((s) => s.release()));
  });

  it('falls back to CPU with one clear message when a requested provider cannot load', async () => {
    const pack = await loadPack(source, { provider: 'webgpu' });
    if (pack.provider === 'webgpu') {
      expect(pack.warnings).toEqual([]); // a machine with a working WebGPU adapter
    } else {
      expect(pack.provider).toBe('cpu');
      expect(pack.warnings).toHaveLength(1);
      expect(pack.warnings[0]).toMatch(/execution provider webgpu could not load vision graph .*; using cpu/);
    }
    await Promise.all(Object.values(pack.sessions).map((s) => s.release()));
  });

  it('refuses a pack whose graph was modified, naming the file', async () => {
    const dir = copy();
    const path = join(dir, 'decoder.onnx');
    const bytes = readFileSync(path);
    bytes[bytes.length - 10] ^= 0xff; // same size, different content
    writeFileSync(path, bytes);
    await expect(verifyPackFiles(dir)).rejects.toThrow(/decoder\.onnx: refused — SHA-256 [0-9a-f]{64} does not match manifest\.json/);
    await expect(loadPack(dir, { provider: 'cpu' })).rejects.toThrow(/decoder\.onnx: refused/);
  });

  it('refuses a truncated file and a missing file', async () => {
    const dir = copy();
    writeFileSync(join(dir, 'tokenizer.json'), '{}');
    await expect(verifyPackFiles(dir)).rejects.toThrow(/tokenizer\.json: refused — 2 bytes/);
    const other = copy();
    writeFileSync(join(other, 'manifest.json'), readFileSync(join(other, 'manifest.json'), 'utf8').replace('"draft.onnx"', '"gone.onnx"'));
    await expect(verifyPackFiles(other)).rejects.toThrow(/gone\.onnx: missing/);
  });

  it('refuses a manifest whose tensor names break the contract', async () => {
    const dir = copy();
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    manifest.tensors.decoder.outputs = manifest.tensors.decoder.outputs.filter((n: string) => n !== 'last_hidden_state');
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
    await expect(loadPack(dir, { provider: 'cpu' })).rejects.toThrow(/decoder\.onnx: manifest\.json lists decoder outputs .* the pack contract needs .*last_hidden_state/);
  });

  it('refuses a format-1 pack (caches copied every step, full logits) and too few candidates for the no-repeat rule', async () => {
    const dir = copy();
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ ...manifest, formatVersion: 2 }));
    await expect(verifyPackFiles(dir)).rejects.toThrow(/formatVersion: pack format 3 is needed .* re-export or regenerate/);
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ ...manifest, candidates: 5 }));
    await expect(verifyPackFiles(dir)).rejects.toThrow(/candidates is 5, but the no-repeat rule .* can ban 28 tokens: at least 29/);
  });

  it('refuses a compressed draft vocabulary smaller than the candidates it must return, or larger than the vocabulary', async () => {
    const dir = copy();
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ ...manifest, draftVocabulary: 20 }));
    await expect(verifyPackFiles(dir)).rejects.toThrow(/manifest\.json: draftVocabulary is 20, but the draft head must score at least the 29 candidates/);
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ ...manifest, draftVocabulary: manifest.dims.vocab + 1 }));
    await expect(verifyPackFiles(dir)).rejects.toThrow(/draftVocabulary is 107, .* at most the vocabulary \(106\)/);
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ ...manifest, draftVocabulary: 0 }));
    await expect(verifyPackFiles(dir)).rejects.toThrow(/not a Recto model pack manifest \(draftVocabulary/);
  });

  it('refuses a folder that is not a pack, and a malformed manifest', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'recto-not-a-pack-'));
    await expect(verifyPackFiles(empty)).rejects.toThrow(/manifest\.json: not found/);
    writeFileSync(join(empty, 'manifest.json'), '{"format":"something-else"}');
    await expect(verifyPackFiles(empty)).rejects.toThrow(/not a Recto model pack manifest \(format/);
  });
});

describe('files a pack graph reads besides itself', () => {
  /** A one-Add graph whose weight is kept in `dataFile` (ONNX external data), as large real graphs keep theirs. */
  function graphWithExternalWeights(dataFile: string) {
    const graph = new GraphBuilder('external');
    const x = graph.input('x', DataType.FLOAT, [4]);
    const w = graph.floatInit('w', new Float32Array([1, 2, 3, 4]), [4]);
    graph.output(graph.op('Add', [x, w])[0]!, 'y', DataType.FLOAT, [4]);
    return graph.serialize({ externalFileName: dataFile, externalThreshold: 0 });
  }

  it('finds the external data files of a graph, and none in a graph that keeps its weights inside', async () => {
    expect(externalDataFiles(graphWithExternalWeights('weights.bin').model)).toEqual(['weights.bin']);
    const pack = await referencePackDir('high');
    expect(externalDataFiles(readFileSync(join(pack, 'decoder.onnx')))).toEqual([]);
  }, 120_000);

  it('refuses a pack whose graph reads weights from a file manifest.json does not list', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'recto-pack-external-'));
    cpSync(await referencePackDir('high'), dir, { recursive: true });
    const { model, externalData } = graphWithExternalWeights('weights.bin');
    writeFileSync(join(dir, 'embed.onnx'), model);
    writeFileSync(join(dir, 'weights.bin'), Buffer.concat(externalData!.map((chunk) => Buffer.from(chunk))));
    const manifestPath = join(dir, 'manifest.json');
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
    const embed = manifest.files.find((f: { role: string }) => f.role === 'embed');
    embed.sha256 = sha256Bytes(model);
    embed.bytes = model.byteLength;
    writeFileSync(manifestPath, JSON.stringify(manifest));
    await expect(verifyPackFiles(dir)).rejects.toThrow(/embed\.onnx: refused — the graph reads its weights from "weights\.bin", which manifest\.json does not list/);

    // Listed (and so hashed), the same graph passes the file checks.
    const weights = readFileSync(join(dir, 'weights.bin'));
    manifest.files.push({ role: 'data', path: 'weights.bin', bytes: weights.byteLength, sha256: sha256Bytes(weights) });
    writeFileSync(manifestPath, JSON.stringify(manifest));
    const verified = await verifyPackFiles(dir);
    // The graph bytes handed to onnxruntime are the ones that were hashed.
    expect(sha256Bytes(verified.graphBytes.get('embed')!)).toBe(embed.sha256);
  }, 120_000);
});

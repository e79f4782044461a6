import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadPack, verifyPackFiles } from './loadPack.js';
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
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ ...manifest, formatVersion: 1 }));
    await expect(verifyPackFiles(dir)).rejects.toThrow(/formatVersion: pack format 2 is needed .* re-export or regenerate/);
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ ...manifest, candidates: 5 }));
    await expect(verifyPackFiles(dir)).rejects.toThrow(/candidates is 5, but the no-repeat rule .* can ban 28 tokens: at least 29/);
  });

  it('refuses a folder that is not a pack, and a malformed manifest', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'recto-not-a-pack-'));
    await expect(verifyPackFiles(empty)).rejects.toThrow(/manifest\.json: not found/);
    writeFileSync(join(empty, 'manifest.json'), '{"format":"something-else"}');
    await expect(verifyPackFiles(empty)).rejects.toThrow(/not a Recto model pack manifest \(format/);
  });
});

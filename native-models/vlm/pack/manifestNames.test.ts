import { describe, expect, it } from 'vitest';
import { fileEntrySchema } from './manifest.js';

describe('manifest file names', () => {
  it('are plain names inside the pack folder: no "..", ".", slashes or absolute paths', () => {
    const file = { role: 'tokenizer', sha256: 'a'.repeat(64), bytes: 1 };
    expect(fileEntrySchema.safeParse({ ...file, path: 'tokenizer.json' }).success).toBe(true);
    for (const path of ['..', '.', '../x.onnx', '/etc/passwd', 'a/b.onnx', 'C:\\x.onnx']) {
      expect(fileEntrySchema.safeParse({ ...file, path }).success, path).toBe(false);
    }
  });
});

/** Contract check across languages: the export's Python manifest writer produces what the TS loader accepts. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { verifyPackFiles } from './loadPack.js';
import { expectedTensorNames, graphRoles } from './packContract.js';

const python = spawnSync('python3', ['--version']).status === 0;
const script = resolve(import.meta.dirname, '../../export/pack_manifest.py');

describe.skipIf(!python)('export manifest (python3 native-models/export/pack_manifest.py)', () => {
  it('passes the runtime’s schema, hash and tensor-name contract', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'recto-py-manifest-'));
    const run = spawnSync('python3', [script, dir], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    const { manifest } = await verifyPackFiles(dir);
    expect(manifest.licence).toMatch(/CC BY-NC 4\.0/);
    expect(manifest.draftVocabulary).toBe(32768 + 3); // ids < 32,768 and three added tokens above the cut
    for (const role of graphRoles) expect(manifest.tensors[role]).toEqual(expectedTensorNames(role, manifest.dims.layers));
  });
});
if (!python) console.warn('python3 not found: skipping the export manifest contract test');

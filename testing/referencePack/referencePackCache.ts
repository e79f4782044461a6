/**
 * Reference packs for tests and benchmarks, generated once per (variant, seed, generator version) into the OS temp
 * folder. A pack is generated in a scratch folder and renamed into place, so parallel test workers never see half a pack.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MANIFEST_FILE } from '../../native-models/vlm/pack/manifest.js';
import type { CacheForm } from '../../native-models/vlm/pack/packContract.js';
import { type DraftVariant, writeReferencePack } from './writeReferencePack.js';

/** Bump when the generator's output changes, so stale cached packs are not reused. */
const GENERATOR_VERSION = 11;

/**
 * `cacheForm` 'shared-buffer': the GPU form of the same pack (same weights; packContract.ts). `draftVocabulary`: the
 * draft head over a compressed vocabulary (writeReferencePack's option; same weights otherwise).
 */
export async function referencePackDir(variant: DraftVariant, seed = 1, cacheForm: CacheForm = 'views', draftVocabulary?: number): Promise<string> {
  const root = join(tmpdir(), 'recto-vlm-packs');
  const suffix = `${cacheForm === 'views' ? '' : `-${cacheForm}`}${draftVocabulary === undefined ? '' : `-dv${draftVocabulary}`}`;
  const dir = join(root, `v${GENERATOR_VERSION}-${variant}-seed${seed}${suffix}`);
  if (existsSync(join(dir, MANIFEST_FILE))) return dir;
  mkdirSync(root, { recursive: true });
  removeStalePacks(root);
  const scratch = mkdtempSync(join(root, `scratch-${variant}-`));
  await writeReferencePack({ dir: scratch, variant, seed, cacheForm, draftVocabulary });
  try {
    renameSync(scratch, dir);
  } catch (error) {
    rmSync(scratch, { recursive: true, force: true });
    // Another worker won the race: its pack is identical. Anything else is a real error.
    if (!existsSync(join(dir, MANIFEST_FILE))) throw error;
  }
  return dir;
}

/** Packs of older generator versions are never read again. */
function removeStalePacks(root: string): void {
  for (const name of readdirSync(root)) {
    const version = /^v(\d+)-/.exec(name);
    if (version && Number(version[1]) < GENERATOR_VERSION) rmSync(join(root, name), { recursive: true, force: true });
  }
}

/**
 * Where things are for the end-to-end tests.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** ../shared/testdata beside the clone: present in CI, absent in a user's clone. */
export const testdataDir = process.env.RECTO_TESTDATA ?? path.resolve(repoRoot, '..', 'shared', 'testdata');
export const hasTestdata = fs.existsSync(path.join(testdataDir, 'MANIFEST.md'));

export function testdata(relative: string): string {
  return path.join(testdataDir, relative);
}

/** Screenshots and other evidence the suite leaves for people to look at. */
export const artifactsDir = path.join(repoRoot, 'e2e-artifacts');

export const compiledCli = path.join(repoRoot, 'dist', 'main', 'cli', 'recto.js');

/** Says plainly, in the test output, why a test on the shared test data does not run here. */
export function noteTestdataSkip(what: string): void {
  if (!hasTestdata) {
    console.warn(`SKIPPED: ${what}: ${testdataDir} does not exist (it does in CI); the sample-document tests still run.`);
  }
}

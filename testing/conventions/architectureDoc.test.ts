/**
 * docs/architecture.md is where a newcomer starts: every top-level folder of main/ and native-models/ must be named
 * there (as `main/<folder>/`, `native-models/<folder>/`), so a folder added without a line fails here; and README's
 * docs list names every page of docs/.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../testdataPaths.js';

/** Folders of `root` as they are named in the doc; `__planted__` and the like (test scaffolding) aside. */
function topFolders(root: string): string[] {
  return readdirSync(path.join(repoRoot, root))
    .filter((name) => !name.startsWith('_') && !name.startsWith('.') && statSync(path.join(repoRoot, root, name)).isDirectory())
    .map((name) => `${root}/${name}/`);
}

/** The folders of `roots` that `doc` does not name. */
function unnamedFolders(doc: string, folders: readonly string[]): string[] {
  return folders.filter((folder) => !doc.includes(folder));
}

describe('docs/architecture.md', () => {
  const doc = readFileSync(path.join(repoRoot, 'docs/architecture.md'), 'utf8');

  it('names every top-level folder of main/ and native-models/', () => {
    const folders = [...topFolders('main'), ...topFolders('native-models')];
    expect(folders.length).toBeGreaterThan(10);
    expect(unnamedFolders(doc, folders)).toEqual([]);
  });

  it('is listed in README with every other doc', () => {
    const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
    const docs = readdirSync(path.join(repoRoot, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `\`docs/${name}\``);
    expect(docs.filter((doc) => !readme.includes(doc))).toEqual([]);
  });

  it('notices a folder it does not name', () => {
    expect(unnamedFolders(doc, ['main/store/', 'main/newConcern/'])).toEqual(['main/newConcern/']);
  });
});

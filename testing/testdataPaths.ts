/**
 * Where the shared public test set lives (../shared/testdata relative to the repository root, see
 * shared/testdata/MANIFEST.md) and small readers for it. Benchmarks read it in place; nothing is copied.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Repository root: the nearest folder above this file (testing/testdataPaths.ts) with a package.json. */
function findRepoRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    dir = path.dirname(dir);
  }
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
}

export const repoRoot = findRepoRoot();
export const defaultTestdataRoot = path.resolve(repoRoot, '..', 'shared', 'testdata');

export const testdataLayout = {
  olmocrSample: 'olmocr/olmocr/bench/sample_data',
  invoice2data: 'invoice2data',
  einvoices: 'einvoices',
  icdarEu: 'camelot/tests/files/tabula/icdar2013-dataset/competition-dataset-eu',
  icdarCsv: 'camelot/icdar2013_derived_from_str_xml',
  pdfjs: 'pdfjs',
} as const;

export function testdataPath(root: string, key: keyof typeof testdataLayout, ...rest: string[]): string {
  return path.join(root, testdataLayout[key], ...rest);
}

/** Reads a UTF-8 file, turning a failure into an error that names the file and the reason. */
export async function readTextFile(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new Error(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

/** Splits CSV text (RFC 4180: quoted fields with commas, quotes and newlines) into rows of fields. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

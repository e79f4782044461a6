/**
 * One definition per concept: the invoice's field keys, with their business terms and kinds, are listed once — in
 * app/invoice/fieldCatalogue.ts — and every other list derives from it. This test reads the product's source (app/,
 * main/, renderer/, native-models/) and fails on a restatement: an array of four or more catalogue keys, or a field
 * key mapped to a business term (`total: 'BT-112'`). Three keys together are an identity a rule reads
 * (`['subtotal', 'tax', 'total']`: BR-CO-15), not a field list.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { invoiceFieldCatalogue, lineColumnCatalogue, paymentFieldCatalogue, taxColumnCatalogue } from '../app/invoice/fieldCatalogue.js';
import { repoRoot } from './testdataPaths.js';

const CATALOGUE = path.join('app', 'invoice', 'fieldCatalogue.ts');
const PRODUCT_FOLDERS = ['app', 'main', 'renderer', 'native-models'];
/** More keys than an arithmetic identity names (three) in one array: a list of fields. */
const LIST_LENGTH = 4;

const keys = [...invoiceFieldCatalogue, ...paymentFieldCatalogue].map((f) => f.key);
const quotedKey = `['"](?:${keys.join('|')})['"](?:\\s*as const)?`;
const keyList = new RegExp(`${quotedKey}(?:\\s*,\\s*${quotedKey}){${LIST_LENGTH - 1},}`, 'g');
const keyToTerm = new RegExp(`\\b(?:${[...keys, ...lineColumnCatalogue.map((c) => c.key), ...taxColumnCatalogue.map((c) => c.key)].join('|')})\\s*:\\s*['"]BT-\\d+['"]`, 'g');

function sourceFiles(folder: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory() && entry.name !== 'node_modules') out.push(...sourceFiles(full));
    else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) out.push(full);
  }
  return out;
}

/** Restatements in a text, as `line: text`. */
function restatements(text: string): string[] {
  const found: string[] = [];
  for (const pattern of [keyList, keyToTerm]) {
    for (const m of text.matchAll(pattern)) found.push(`${text.slice(0, m.index).split('\n').length}: ${m[0].slice(0, 80)}`);
  }
  return found;
}

describe('the field catalogue is the one list of field keys', () => {
  it('finds a restatement where there is one (the check can fail)', () => {
    expect(restatements(`const mine = ['invoice_number', 'issue_date', 'seller', 'total'];`)).toHaveLength(1);
    expect(restatements(`const TERMS = { total: 'BT-112' };`)).toHaveLength(1);
    expect(restatements(`rule(['subtotal', 'tax', 'total'])`)).toEqual([]);
  });

  it('no product source outside the catalogue lists field keys or maps them to business terms', () => {
    const offenders = PRODUCT_FOLDERS.flatMap((folder) => sourceFiles(path.join(repoRoot, folder)))
      .filter((file) => path.relative(repoRoot, file) !== CATALOGUE)
      .flatMap((file) => restatements(fs.readFileSync(file, 'utf8')).map((hit) => `${path.relative(repoRoot, file)}:${hit}`));
    expect(offenders).toEqual([]);
  });
});

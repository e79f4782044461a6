/**
 * The documents the field extractor was developed on, by seller: `einvoices/` (its truth.json's `seller`) and
 * `invoice2data/` (each ground-truth JSON's `issuer`) in ../shared/testdata. A family of the einvoice corpus whose
 * seller is one of these has been studied through a relative — the same seller's invoice, or the same sample rendered
 * by another producer — so its score says nothing about unseen suppliers, whatever the hash rule picks.
 *
 * Sellers are compared as names, never by a list of files: case, accents, punctuation, whitespace and legal forms
 * aside (supplierNameKey: "MUSTER-Autovermietung GmbH" = "muster autovermietung"), and one name containing the other
 * word for word (a family written "GLN … MUSTERLIEFERANT GMBH" contains the seller "MUSTERLIEFERANT GMBH").
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { supplierNameKey } from '../../app/invoices/duplicateKeys.js';

/** A document studied in development: its path under the test set, and the seller its ground truth names. */
export interface StudiedSeller {
  file: string;
  seller: string;
}

/** Two seller names are one seller: equal once normalised, or one contains the other as whole words. */
export function sameSeller(a: string, b: string): boolean {
  const x = supplierNameKey(a);
  const y = supplierNameKey(b);
  if (!x || !y) return false;
  return ` ${x} `.includes(` ${y} `) || ` ${y} `.includes(` ${x} `);
}

/** The first studied document (by path) whose seller is this family's, or null. */
export function studiedRelative(family: string, studied: readonly StudiedSeller[]): StudiedSeller | null {
  return [...studied].sort((a, b) => a.file.localeCompare(b.file)).find((s) => sameSeller(family, s.seller)) ?? null;
}

function jsonFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.json'))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

/** invoice2data's ground truth is one object or a list of them; `issuer` names the seller. */
function issuersOf(json: unknown): string[] {
  const records = Array.isArray(json) ? json : [json];
  return records.flatMap((r) => (r && typeof r === 'object' && typeof (r as Record<string, unknown>).issuer === 'string' ? [(r as Record<string, string>).issuer] : []));
}

/** Every seller the development sets name, with the file that names it (a path relative to `testdataRoot`). */
export function readStudiedSellers(testdataRoot: string): StudiedSeller[] {
  const studied: StudiedSeller[] = [];
  const einvoiceTruth = path.join(testdataRoot, 'einvoices', 'truth.json');
  if (existsSync(einvoiceTruth)) {
    const truth = JSON.parse(readFileSync(einvoiceTruth, 'utf8')) as Record<string, { fields?: { seller?: unknown } | null }>;
    for (const [name, entry] of Object.entries(truth)) {
      const seller = entry.fields?.seller;
      if (typeof seller === 'string' && seller.trim()) studied.push({ file: path.posix.join('einvoices', 'pdfs', name), seller });
    }
  }
  for (const file of jsonFiles(path.join(testdataRoot, 'invoice2data'))) {
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      continue; // not a ground-truth file
    }
    for (const issuer of issuersOf(json)) studied.push({ file: path.relative(testdataRoot, file).split(path.sep).join('/'), seller: issuer });
  }
  return studied;
}

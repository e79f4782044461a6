/**
 * The einvoice corpus as the field benchmark scores it: each document's family, its printed key fields (truth.json's
 * `printed` says which values the page shows) and how a read value is judged right.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ConfirmedValues } from '../../app/invoice/supplierMemory/index.js';
import { namesAgree } from '../engine/einvoiceFieldBench.js';

export const benchKeyFields = ['invoice_number', 'issue_date', 'seller', 'buyer', 'currency', 'subtotal', 'tax', 'total'] as const;
export type BenchKeyField = (typeof benchKeyFields)[number];

export interface CorpusDocument {
  name: string;
  family: string;
  /** The key fields the page prints, with their true values. */
  printed: Partial<Record<BenchKeyField, string | number>>;
  /** What an analyst confirms on this page: the printed values (due date too where printed), null elsewhere. */
  confirmed: ConfirmedValues;
}

interface TruthEntry {
  family: string;
  fields: Record<string, unknown> | null;
  printed: Record<string, unknown> | null;
}

export function readCorpusTruth(corpusDir: string): CorpusDocument[] {
  const truth = JSON.parse(readFileSync(path.join(corpusDir, 'truth.json'), 'utf8')) as Record<string, TruthEntry>;
  const documents: CorpusDocument[] = [];
  for (const [name, entry] of Object.entries(truth).sort(([a], [b]) => a.localeCompare(b))) {
    if (!entry.fields || !entry.printed) continue;
    const value = (key: string): string | number | null => {
      const v = entry.fields![key];
      return entry.printed![key] === true && (typeof v === 'string' || typeof v === 'number') ? v : null;
    };
    const printed: CorpusDocument['printed'] = {};
    for (const key of benchKeyFields) {
      const v = value(key);
      if (v !== null) printed[key] = v;
    }
    const str = (key: string): string | null => (typeof value(key) === 'string' ? (value(key) as string) : null);
    const num = (key: string): number | null => (typeof value(key) === 'number' ? (value(key) as number) : null);
    documents.push({
      name,
      family: entry.family,
      printed,
      confirmed: {
        invoice_number: str('invoice_number'),
        issue_date: str('issue_date'),
        due_date: str('due_date'),
        seller: str('seller'),
        buyer: str('buyer'),
        currency: str('currency'),
        subtotal: num('subtotal'),
        tax: num('tax'),
        total: num('total'),
      },
    });
  }
  return documents;
}

export function valueRight(field: BenchKeyField, expected: string | number, actual: string | number | null | undefined): boolean {
  if (actual === null || actual === undefined) return false;
  if (typeof expected === 'number') return Math.abs(Number(actual) - expected) < 0.005;
  if (field === 'invoice_number') return String(actual).replace(/\s+/g, '').toLowerCase() === expected.replace(/\s+/g, '').toLowerCase();
  if (field === 'seller' || field === 'buyer') return namesAgree(expected, String(actual));
  return String(actual).toUpperCase() === expected.toUpperCase();
}

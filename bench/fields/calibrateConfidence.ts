/**
 * `npx tsx bench/fields/calibrateConfidence.ts [--testdata DIR] [--words-cache FILE]`: the calibration of first-seen
 * confidence (app/invoice/confidenceCalibration.ts), measured leave-one-family-out on the development families of
 * the einvoice corpus only (hash-picked families with a studied relative among them: heldOutFamilies.ts) — the
 * held-out families are dropped before any document is read.
 *
 * Per fold (one development family left out): a value's evidence signature is promoted to high when, on the other
 * families, every value carrying it was right, in at least MIN_FAMILIES families and MIN_VALUES values; the fold's
 * figures are the left-out family's values shown high (by their own evidence or a promoted signature), how many of
 * them are right, and the share of its right values shown high. Last, the table over all development families: the
 * signatures confidenceCalibration.ts may list.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { extractInvoiceFields, scoreInvoiceFields } from '../../app/invoice/index.js';
import { evidenceSignature } from '../../app/invoice/confidenceCalibration.js';
import type { Word } from '../../app/model/extraction.js';
import { defaultTestdataRoot } from '../../testing/testdataPaths.js';
import { benchKeyFields, readCorpusTruth, valueRight } from './corpusTruth.js';
import { HIGH } from './fieldsBench.js';
import { splitFamilies } from './heldOutFamilies.js';
import { readStudiedSellers } from './studiedRelatives.js';

export const MIN_FAMILIES = 3;
export const MIN_VALUES = 8;
/**
 * Never promoted: party names (free text no identity checks, whose extent — one line or the whole registered name
 * over an identifier line — varies by issuer; the first folds, promoting them, showed high values wrong on the family
 * left out) and unlabelled values (a guess confirmed at most by due date ≥ issue date).
 */
const NEVER_PROMOTED = /^(?:seller|buyer)\||\|label:none(?:\||$)/;

export interface CalibrationValue {
  family: string;
  signature: string | null;
  /** Confidence from the evidence alone, before calibration. */
  confidence: number;
  right: boolean;
}

/** Signatures whose values were all right, in MIN_FAMILIES families and MIN_VALUES values or more. */
export function promotedSignatures(values: readonly CalibrationValue[]): Map<string, number> {
  const groups = new Map<string, CalibrationValue[]>();
  for (const v of values) if (v.signature && !NEVER_PROMOTED.test(v.signature)) groups.set(v.signature, [...(groups.get(v.signature) ?? []), v]);
  const promoted = new Map<string, number>();
  for (const [signature, group] of groups) {
    if (group.every((v) => v.right) && group.length >= MIN_VALUES && new Set(group.map((v) => v.family)).size >= MIN_FAMILIES) promoted.set(signature, group.length);
  }
  return promoted;
}

export function leaveOneFamilyOut(values: readonly CalibrationValue[]): { family: string; high: number; highRight: number; right: number; promoted: string[] }[] {
  return [...new Set(values.map((v) => v.family))].sort().map((family) => {
    const promoted = promotedSignatures(values.filter((v) => v.family !== family));
    const mine = values.filter((v) => v.family === family);
    const high = mine.filter((v) => v.confidence >= HIGH || (v.signature !== null && promoted.has(v.signature)));
    return { family, high: high.length, highRight: high.filter((v) => v.right).length, right: mine.filter((v) => v.right).length, promoted: [...promoted.keys()].sort() };
  });
}

function developmentValues(corpusDir: string, words: Record<string, Word[]>): CalibrationValue[] {
  const values: CalibrationValue[] = [];
  const documents = readCorpusTruth(corpusDir);
  const split = splitFamilies(documents.map((d) => d.family), readStudiedSellers(path.dirname(corpusDir)));
  for (const doc of documents.filter((d) => split.groupOf(d.family) !== 'heldOut')) {
    const pageWords = words[doc.name];
    if (!pageWords) throw new Error(`no words for ${doc.name} in the words cache (run npm run bench:fields -- --words-cache FILE first)`);
    const fields = extractInvoiceFields({ words: pageWords });
    const scores = scoreInvoiceFields(fields, pageWords.map((w) => w.text).join(' '), { calibrated: false });
    for (const key of benchKeyFields) {
      const expected = doc.printed[key];
      if (expected === undefined) continue;
      const score = scores[key];
      values.push({ family: doc.family, signature: score ? evidenceSignature(key, score.evidence) : null, confidence: score?.confidence ?? 0, right: valueRight(key, expected, fields[key]?.value) });
    }
  }
  return values;
}

function main(args: string[]): number {
  const { values } = parseArgs({ args, options: { testdata: { type: 'string' }, 'words-cache': { type: 'string' } } });
  const corpusDir = path.join(path.resolve(values.testdata ?? defaultTestdataRoot), 'einvoice-corpus');
  const cache = values['words-cache'];
  if (!existsSync(path.join(corpusDir, 'truth.json')) || !cache || !existsSync(cache)) {
    process.stderr.write('calibrateConfidence: needs the einvoice corpus and --words-cache FILE written by npm run bench:fields\n');
    return 2;
  }
  const all = developmentValues(corpusDir, JSON.parse(readFileSync(cache, 'utf8')) as Record<string, Word[]>);
  const out = ['| Left out (development) | shown high | right of those | right values shown high | promoted on the others |', '|---|---|---|---|---|'];
  let high = 0;
  let highRight = 0;
  let right = 0;
  for (const fold of leaveOneFamilyOut(all)) {
    high += fold.high;
    highRight += fold.highRight;
    right += fold.right;
    out.push(`| ${fold.family.replace(/\s+/g, ' ')} | ${fold.high} | ${fold.highRight} | ${fold.highRight}/${fold.right} | ${fold.promoted.join(', ') || '—'} |`);
  }
  out.push(`| **all folds** | ${high} | ${highRight} (${((100 * highRight) / Math.max(1, high)).toFixed(0)} %) | ${highRight}/${right} (${((100 * highRight) / Math.max(1, right)).toFixed(0)} %) | |`, '');
  out.push('Signatures over all development families (confidenceCalibration.ts may list these):');
  for (const [signature, n] of promotedSignatures(all)) out.push(`- ${signature} (${n} values, all right)`);
  process.stdout.write(`${out.join('\n')}\n`);
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename ?? '')) process.exit(main(process.argv.slice(2)));

/**
 * Kept or corrected: once the analyst has confirmed a page that memory read, each value memory proposed is compared
 * with the confirmed one. The counts make a supplier's track record (readThroughMemory.ts scales its confidence by it).
 */
import { memoryFieldKeys, type MemoryField } from './lessonSchema.js';
import type { ConfirmedValues } from './learnLesson.js';
import { compactText } from './pageText.js';

export interface KeptCorrected {
  kept: number;
  corrected: number;
  correctedFields: MemoryField[];
}

const CENT = 0.005;

export function scoreAgainst(proposed: Partial<Record<MemoryField, string | number>>, confirmed: ConfirmedValues): KeptCorrected {
  const result: KeptCorrected = { kept: 0, corrected: 0, correctedFields: [] };
  for (const field of memoryFieldKeys) {
    const mine = proposed[field];
    if (mine === undefined) continue;
    const theirs = confirmed[field];
    const kept = theirs !== null && (typeof mine === 'number' ? Math.abs(mine - Number(theirs)) < CENT : compactText(String(mine)) === compactText(String(theirs)));
    if (kept) result.kept++;
    else {
      result.corrected++;
      result.correctedFields.push(field);
    }
  }
  return result;
}

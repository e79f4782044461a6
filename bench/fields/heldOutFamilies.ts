/**
 * The held-out split of `../shared/testdata/einvoice-corpus/` for the field benchmark (bench:fields): whole seller
 * families (`family` in truth.json), never chosen by results. A family is held out when both hold:
 * - the hash rule picks it, frozen before any work on field quality: the first byte of SHA-256(family name, exactly
 *   as truth.json writes it) is divisible by HELD_OUT_MODULUS;
 * - no document studied in development shares its seller (studiedRelatives.ts: the sellers of `einvoices/` and
 *   `invoice2data/`, compared as names). A hash-picked family with such a relative is reported apart and counted as
 *   development: its documents were, in effect, developed on.
 * Development reads only the held-out split's score, never its failures or its documents.
 */
import { createHash } from 'node:crypto';
import { studiedRelative, type StudiedSeller } from './studiedRelatives.js';

export const HELD_OUT_MODULUS = 3;

/** The frozen hash rule alone. */
export function hashPicksFamily(family: string): boolean {
  return createHash('sha256').update(family, 'utf8').digest()[0]! % HELD_OUT_MODULUS === 0;
}

/** How a family is reported: developed on, hash-picked but a relative was studied, or held out. */
export type FamilyGroup = 'development' | 'relativeStudied' | 'heldOut';
export const familyGroups: readonly FamilyGroup[] = ['development', 'relativeStudied', 'heldOut'];
export const familyGroupTitles: Record<FamilyGroup, string> = {
  development: 'development',
  relativeStudied: 'hash-picked, relative studied',
  heldOut: 'held out',
};

export interface FamilySplit {
  groupOf(family: string): FamilyGroup;
  heldOut: string[];
  /** Hash-picked families excluded from the held-out split, each with the studied file that shares its seller. */
  relativeStudied: { family: string; relative: string }[];
}

export function splitFamilies(families: readonly string[], studied: readonly StudiedSeller[]): FamilySplit {
  const relativeOf = (family: string): string | null => (hashPicksFamily(family) ? (studiedRelative(family, studied)?.file ?? null) : null);
  const groupOf = (family: string): FamilyGroup => (!hashPicksFamily(family) ? 'development' : relativeOf(family) ? 'relativeStudied' : 'heldOut');
  const sorted = [...new Set(families)].sort();
  return {
    groupOf,
    heldOut: sorted.filter((f) => groupOf(f) === 'heldOut'),
    relativeStudied: sorted.flatMap((family) => {
      const relative = relativeOf(family);
      return relative ? [{ family, relative }] : [];
    }),
  };
}

/**
 * The split of the corpus as shipped (2026-12), written down so a change of the corpus, the test set or the rule
 * shows in review; heldOutFamilies.test.ts keeps both lists equal to what the rule computes.
 */
export const HELD_OUT_FAMILIES: readonly string[] = ['ELEKTRON Industrieservice GmbH'];
export const RELATIVE_STUDIED_FAMILIES: readonly { family: string; relative: string }[] = [
  { family: 'Die Vordefinierte Firma', relative: 'einvoices/pdfs/ZUGFeRD_2_fully_compliant_complete.pdf' },
  { family: 'MUSTER-Autovermietung', relative: 'einvoices/pdfs/EN16931_Miete.pdf' },
  { family: 'Physiotherapeutin', relative: 'einvoices/pdfs/EN16931_Physiotherapeut.pdf' },
  { family: 'Verkehrsbetriebe GmbH', relative: 'einvoices/pdfs/EN16931_OEPNV.pdf' },
];

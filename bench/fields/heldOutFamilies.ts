/**
 * The held-out split of `../shared/testdata/einvoice-corpus/` for the field benchmark (bench:fields), frozen before
 * any work on field quality: whole seller families (`family` in truth.json), chosen by a fixed hash of the family
 * name and never by results. A family is held out when the first byte of SHA-256(family name, exactly as truth.json
 * writes it) is divisible by HELD_OUT_MODULUS. Development reads only the held-out split's score, never its failures
 * or its documents; figures are reported for both splits and leave-one-family-out.
 */
import { createHash } from 'node:crypto';

export const HELD_OUT_MODULUS = 3;

export function isHeldOutFamily(family: string): boolean {
  return createHash('sha256').update(family, 'utf8').digest()[0]! % HELD_OUT_MODULUS === 0;
}

/**
 * The families the rule holds out of the corpus as shipped (2026-12), written down so a change of the corpus or the
 * rule shows in review; heldOutFamilies.test.ts keeps this list equal to the rule.
 */
export const HELD_OUT_FAMILIES: readonly string[] = [
  'Die Vordefinierte Firma',
  'ELEKTRON Industrieservice GmbH',
  'MUSTER-Autovermietung',
  'Physiotherapeutin',
  'Verkehrsbetriebe GmbH',
];

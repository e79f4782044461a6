/**
 * The held-out split of `../shared/testdata/receipts/` for `bench:fields -- --receipts`: whole vendors (`vendor_key`
 * in vendors.tsv), never chosen by results. Frozen before any work on receipt quality, by the same kind of rule as
 * heldOutFamilies.ts: a vendor is held out when the first byte of SHA-256(vendor key, A–Z0–9 as vendors.tsv writes
 * it) is divisible by HELD_OUT_VENDOR_MODULUS. No receipt of these vendors is in any other folder of the test set, so
 * there is no "studied relative" group. Development reads only the held-out vendors' scores, never their receipts,
 * keys or failures.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

export const HELD_OUT_VENDOR_MODULUS = 3;

export function hashPicksVendor(vendorKey: string): boolean {
  return createHash('sha256').update(vendorKey, 'utf8').digest()[0]! % HELD_OUT_VENDOR_MODULUS === 0;
}

export interface ReceiptEntry {
  /** The receipt's number: img/<receipt>.jpg, key/<receipt>.json, box/<receipt>.txt. */
  receipt: string;
  vendorKey: string;
  company: string;
}

/** vendors.tsv: receipt, vendor key, company (a header line first). */
export function readReceiptVendors(receiptsDir: string): ReceiptEntry[] {
  const file = path.join(receiptsDir, 'vendors.tsv');
  const lines = readFileSync(file, 'utf8').split(/\r?\n/).filter((l) => l.trim() !== '');
  return lines.slice(1).map((line, i) => {
    const [receipt, vendorKey, company] = line.split('\t');
    if (!receipt || !vendorKey || company === undefined) throw new Error(`${file}: line ${i + 2} does not have three tab-separated columns`);
    return { receipt, vendorKey, company };
  });
}

/**
 * The split as shipped (2026-12), written down so that a change of the data or the rule shows in review;
 * heldOutVendors.test.ts keeps it equal to what the rule computes from vendors.tsv.
 */
export const HELD_OUT_VENDORS: readonly string[] = [
  'AEONCOMSDNBHD',
  'ANEKAINTERTRADEMARKETINGSDNBHD',
  'ARTRANGESTATIONERSPRINTSDNBHD',
  'ASOELECTRICALTRADINGSDNBHD',
  'BAIFUMSDNBHD',
  'BEMEDSPSDNBHD',
  'BILLIONSIXENTERPRISE',
  'MRDIYSDNBHD',
  'TEOHENGSTATIONERYBOOKS',
  'THETOASTFBSDNBHD',
  'TONYMOLYVIVACITY',
];

import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultTestdataRoot } from '../../testing/testdataPaths.js';
import { HELD_OUT_VENDORS, hashPicksVendor, readReceiptVendors } from './heldOutVendors.js';

const receiptsDir = path.join(defaultTestdataRoot, 'receipts');

describe('held-out receipt vendors', () => {
  it('the frozen list is what the hash rule computes from vendors.tsv, and both splits keep vendors with several receipts', () => {
    if (!existsSync(path.join(receiptsDir, 'vendors.tsv'))) {
      console.log(`SKIPPED: ${receiptsDir}/vendors.tsv is absent`);
      return;
    }
    const entries = readReceiptVendors(receiptsDir);
    const vendors = [...new Set(entries.map((e) => e.vendorKey))].sort();
    expect(vendors.filter(hashPicksVendor)).toEqual([...HELD_OUT_VENDORS].sort());
    const several = (keep: boolean) => vendors.filter((v) => hashPicksVendor(v) === keep && entries.filter((e) => e.vendorKey === v).length >= 2);
    expect(several(true).length).toBeGreaterThan(0);
    expect(several(false).length).toBeGreaterThan(0);
  });

  it('the rule depends on the vendor key alone', () => {
    expect(hashPicksVendor('AEONCOMSDNBHD')).toBe(true);
    expect(hashPicksVendor('AEONCOMSDNBHD')).toBe(hashPicksVendor('AEONCOMSDNBHD'));
  });
});

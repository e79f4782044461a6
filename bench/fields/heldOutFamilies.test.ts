import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultTestdataRoot } from '../../testing/testdataPaths.js';
import { HELD_OUT_FAMILIES, isHeldOutFamily } from './heldOutFamilies.js';

const truthFile = path.join(defaultTestdataRoot, 'einvoice-corpus', 'truth.json');

describe('held-out families', () => {
  it('the frozen list is what the hash rule picks from the corpus', () => {
    if (!existsSync(truthFile)) {
      console.log(`SKIPPED: ${truthFile} is absent`);
      return;
    }
    const truth = JSON.parse(readFileSync(truthFile, 'utf8')) as Record<string, { family: string }>;
    const families = [...new Set(Object.values(truth).map((e) => e.family))];
    expect(families.filter(isHeldOutFamily).sort()).toEqual([...HELD_OUT_FAMILIES].sort());
    // Both splits keep documents to measure on.
    expect(families.filter((f) => !isHeldOutFamily(f)).length).toBeGreaterThan(0);
  });
});

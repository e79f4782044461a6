import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultTestdataRoot } from '../../testing/testdataPaths.js';
import { HELD_OUT_FAMILIES, RELATIVE_STUDIED_FAMILIES, hashPicksFamily, splitFamilies } from './heldOutFamilies.js';
import { readStudiedSellers, sameSeller, studiedRelative } from './studiedRelatives.js';

const truthFile = path.join(defaultTestdataRoot, 'einvoice-corpus', 'truth.json');

describe('held-out families', () => {
  it('the frozen lists are what the rule computes from the corpus and the studied sets', () => {
    if (!existsSync(truthFile)) {
      console.log(`SKIPPED: ${truthFile} is absent`);
      return;
    }
    const truth = JSON.parse(readFileSync(truthFile, 'utf8')) as Record<string, { family: string }>;
    const families = [...new Set(Object.values(truth).map((e) => e.family))];
    const split = splitFamilies(families, readStudiedSellers(defaultTestdataRoot));
    expect(split.heldOut).toEqual([...HELD_OUT_FAMILIES].sort());
    expect(split.relativeStudied).toEqual([...RELATIVE_STUDIED_FAMILIES].sort((a, b) => a.family.localeCompare(b.family)));
    // Both splits keep documents to measure on.
    expect(families.filter((f) => split.groupOf(f) === 'development').length).toBeGreaterThan(0);
    expect(split.heldOut.length).toBeGreaterThan(0);
  });

  it('a hash-picked family whose seller was studied is not held out', () => {
    const picked = Array.from({ length: 40 }, (_, i) => `Kettler Feinmechanik ${i} GmbH`).filter(hashPicksFamily);
    const [studiedOne, other] = picked as [string, string];
    expect(other).toBeDefined();
    const split = splitFamilies(picked, [{ file: 'einvoices/pdfs/a.pdf', seller: `${studiedOne.toUpperCase()}.` }]);
    expect(split.groupOf(studiedOne)).toBe('relativeStudied');
    expect(split.relativeStudied).toEqual([{ family: studiedOne, relative: 'einvoices/pdfs/a.pdf' }]);
    expect(split.groupOf(other)).toBe('heldOut');
  });

  it('compares sellers by name: case, punctuation, legal forms, one containing the other word for word', () => {
    expect(sameSeller('MUSTER-Autovermietung', 'Muster Autovermietung GmbH')).toBe(true);
    expect(sameSeller('GLN 4333741000005 \nLief-Nr: 549910\nMUSTERLIEFERANT GMBH', 'MUSTERLIEFERANT GMBH')).toBe(true);
    expect(sameSeller('MVM Musterhafter\nVersicherungsverein Musterstadt a.G.', 'MVM Musterhafter Versicherungsverein Musterstadt')).toBe(true);
    expect(sameSeller('Physiotherapeutin', 'Physiotherapeut')).toBe(false);
    expect(sameSeller('Freeport Logistics', 'Free')).toBe(false);
    expect(studiedRelative('Coolblue', [{ file: 'b.json', seller: 'Coolblue B.V.' }, { file: 'a.json', seller: 'coolblue' }])?.file).toBe('a.json');
  });
});

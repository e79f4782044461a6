/** The samples' field figure: scoring against `.truth.json` (every field, line cells by position), with stand-in engines. */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PlainInvoiceFields } from '../../app/invoice/index.js';
import { defaultSamplesDir, formatSampleFieldBench, runSampleFieldBench } from './invoiceFieldBench.js';

const truthByFile = new Map<string, PlainInvoiceFields>(
  readdirSync(defaultSamplesDir)
    .filter((f) => f.endsWith('.truth.json'))
    .map((f) => JSON.parse(readFileSync(path.join(defaultSamplesDir, f), 'utf8')) as { file: string; fields: PlainInvoiceFields })
    .map((t) => [t.file, t.fields]),
);

describe('runSampleFieldBench', () => {
  it('scores an engine that returns the truth 100%, scans included', async () => {
    const result = await runSampleFieldBench(async (file) => ({ fields: truthByFile.get(path.basename(file))! }));
    expect(result.errors).toEqual([]);
    expect(result.samples.some((s) => s.kind === 'scan')).toBe(true);
    expect(result.fields.correct).toBe(result.fields.total);
    expect(result.lineCells.correct).toBe(result.lineCells.total);
    expect(result.lineCells.total).toBeGreaterThan(0);
  });

  it('counts a misread number, a missing item and an extra item as misses', async () => {
    const result = await runSampleFieldBench(async (file) => {
      const truth = structuredClone(truthByFile.get(path.basename(file))!);
      if (truth.total !== null) truth.total += 1;
      const missing = truth.lines.pop()!;
      truth.lines.push({ ...missing, amount: null }, { description: 'extra', quantity: null, unit_price: null, amount: 1 });
      return { fields: truth };
    });
    for (const sample of result.samples) {
      expect(sample.fields.total - sample.fields.correct).toBe(1);
      expect(sample.lineCells.total - sample.lineCells.correct).toBe(5);
    }
    expect(formatSampleFieldBench(result)).toContain('miss ');
  });

  it('reports an engine error per sample instead of failing', async () => {
    const result = await runSampleFieldBench(async () => {
      throw new Error('no engine');
    });
    expect(result.samples).toEqual([]);
    expect(result.errors.length).toBe(truthByFile.size);
  });
});

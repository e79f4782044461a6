/**
 * The `recto` command as a user runs it (through tsx, on the TypeScript sources): real import, real engine.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../util/packageRoot.js';

const root = packageRoot();
const home = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-cli-'));
afterAll(() => fs.rmSync(home, { recursive: true, force: true }));

function recto(...args: string[]) {
  return spawnSync(process.execPath, ['--import', import.meta.resolve('tsx'), path.join(root, 'main', 'cli', 'recto.ts'), ...args], {
    cwd: home,
    encoding: 'utf8',
    env: { ...process.env, RECTO_HOME: home },
    timeout: 120_000,
  });
}

describe('recto ocr', () => {
  it('writes Markdown and the extraction for every page, and names a bad file with its reason', () => {
    const sample = path.join(root, 'resources', 'samples', 'northwind-invoice.pdf');
    const truth = JSON.parse(fs.readFileSync(sample.replace(/\.pdf$/, '.truth.json'), 'utf8')) as {
      fields: { invoice_number: string };
    };
    const bad = path.join(home, 'broken.pdf');
    fs.writeFileSync(bad, '%PDF-1.7\nthis is not really a PDF');
    const out = path.join(home, 'out');

    const result = recto('ocr', sample, bad, '--out', out);
    expect(result.status, result.stderr).toBe(1); // one file failed
    expect(result.stderr).toMatch(/broken\.pdf: .+/);
    const markdown = fs.readFileSync(path.join(out, 'northwind-invoice_pg1.md'), 'utf8');
    expect(markdown).toContain(truth.fields.invoice_number);
    const extraction = JSON.parse(fs.readFileSync(path.join(out, 'northwind-invoice_pg1.json'), 'utf8'));
    expect(extraction.engine.id).toBe('bundled');
    expect(extraction.elements.length).toBeGreaterThan(3);
    expect(fs.readdirSync(out).filter((name) => name.startsWith('broken'))).toEqual([]);
    // The invoice's fields, per document, as printed on the sample (its truth file knows them).
    const fields = JSON.parse(fs.readFileSync(path.join(out, 'northwind-invoice.fields.json'), 'utf8'));
    expect(fields).toMatchObject({ ...truth.fields, source: 'page' }); // no e-invoice: the page's reading, no page_vs_xml
    expect(fields.page_vs_xml).toBeUndefined();
    // The settlement the sample prints: "Sales tax (8%) $20.33" under "Subtotal $254.09", then "Total due $274.42".
    expect(fields.amount_due).toBe(274.42);
    expect(fields.tax_breakdown).toEqual([{ rate: 8, base: 254.09, amount: 20.33 }]);
    expect([fields.allowances, fields.charges, fields.prepaid]).toEqual([null, null, null]);
  });

  it('keeps the runs in a project when asked', () => {
    const sample = path.join(root, 'resources', 'samples', 'northwind-invoice.pdf');
    const project = path.join(home, 'kept.recto');
    const result = recto('ocr', sample, '--out', path.join(home, 'out2'), '--project', project);
    expect(result.status, result.stderr).toBe(0);
    expect(fs.existsSync(project)).toBe(true);
    const again = recto('ocr', sample, '--out', path.join(home, 'out3'), '--project', project);
    expect(again.status, again.stderr).toBe(0);
    expect(fs.readFileSync(path.join(home, 'out3', 'northwind-invoice_pg1.md'), 'utf8')).toBe(
      fs.readFileSync(path.join(home, 'out2', 'northwind-invoice_pg1.md'), 'utf8'),
    );
  });

  it('explains its usage for an unknown command', () => {
    const result = recto('frobnicate');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('unknown command "frobnicate"');
    expect(result.stderr).toContain('recto ocr FILE');
  });
});
